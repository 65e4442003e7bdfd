import { readFile, rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hooksSettingsSchema } from '../config/settings-schema';
import { createHookTestBed, type HookTestBed, never, toolInput } from './runner-test-support';

let bed: HookTestBed;
let log: string;
beforeEach(async () => {
  bed = await createHookTestBed();
  log = `${bed.dir}/ran.log`;
});
afterEach(async () => {
  await bed.cleanup();
});

/** A hook that records its name, so a test sees exactly which handlers ran. */
const recorder = (name: string) => bed.script(`${name}.sh`, `cat > /dev/null\necho ${name} >> ${log}`);

async function ran(call: () => Promise<unknown>): Promise<string[]> {
  await rm(log, { force: true });
  await call();
  const text = await readFile(log, 'utf8').catch(() => '');
  return text.trim().split('\n').filter(Boolean).sort();
}

const bashCall = (command: string) => toolInput('Bash', { command });

describe('the "if" condition of a hook handler', () => {
  it('is kept by the settings schema', () => {
    const parsed = hooksSettingsSchema().parse({
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'x', if: 'Bash(git push:*)' }] }],
    });
    expect(parsed.PreToolUse?.[0]?.hooks[0]).toMatchObject({ if: 'Bash(git push:*)' });
  });

  it('runs a conditional PreToolUse handler only for commands its rule matches', async () => {
    const always = await recorder('always');
    const onPush = await recorder('on-push');
    const runner = bed.runner({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            { type: 'command', command: always },
            { type: 'command', command: onPush, if: 'Bash(git push:*)' },
          ],
        },
      ],
    });
    expect(await ran(() => runner.preToolUse(bashCall('ls'), never()))).toEqual(['always']);
    expect(await ran(() => runner.preToolUse(bashCall('git push origin main'), never()))).toEqual([
      'always',
      'on-push',
    ]);
    expect(await ran(() => runner.preToolUse(bashCall('npm test && git push'), never()))).toEqual([
      'always',
      'on-push',
    ]);
    expect(bed.messages).toEqual([]);
  });

  it('filters PostToolUse, PostToolUseFailure and PermissionRequest by the call too', async () => {
    const onTs = await recorder('on-ts');
    const group = { matcher: 'Edit|Write', hooks: [{ type: 'command', command: onTs, if: 'Edit(*.ts)' }] };
    const runner = bed.runner({
      PostToolUse: [group],
      PostToolUseFailure: [group],
      PermissionRequest: [group],
    });
    const ts = toolInput('Write', { file_path: `${bed.dir}/a.ts`, content: '' });
    const md = toolInput('Write', { file_path: `${bed.dir}/a.md`, content: '' });
    expect(await ran(() => runner.postToolUse({ ...ts, toolResponse: {} }, never()))).toEqual(['on-ts']);
    expect(await ran(() => runner.postToolUse({ ...md, toolResponse: {} }, never()))).toEqual([]);
    expect(await ran(() => runner.postToolUseFailure({ ...md, error: 'x' }, never()))).toEqual([]);
    const request = ({ toolUseId: _, ...call }: typeof ts) =>
      runner.permissionRequest({ ...call, suggestions: [] }, never());
    expect(await ran(() => request(ts))).toEqual(['on-ts']);
    expect(await ran(() => request(md))).toEqual([]);
  });

  it('still runs the same command from a handler without a condition', async () => {
    const hook = await recorder('shared');
    const runner = bed.runner({
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: hook, if: 'Bash(git push:*)' }] },
        { matcher: 'Bash', hooks: [{ type: 'command', command: hook }] },
      ],
    });
    expect(await ran(() => runner.preToolUse(bashCall('ls'), never()))).toEqual(['shared']);
    expect(await ran(() => runner.preToolUse(bashCall('git push'), never()))).toEqual(['shared']);
  });

  // Skipping such a hook used to drop its verdict: a guard with a typo in its condition never ran.
  it('runs a handler whose condition cannot be read on every call, and warns once', async () => {
    const broken = await recorder('broken');
    const cased = await recorder('cased');
    const fine = await recorder('fine');
    const runner = bed.runner({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            { type: 'command', command: broken, if: 'Bash(git push' },
            { type: 'command', command: cased, if: 'bash(git push:*)' },
            { type: 'command', command: fine },
          ],
        },
      ],
    });
    expect(await ran(() => runner.preToolUse(bashCall('git push'), never()))).toEqual([
      'broken',
      'cased',
      'fine',
    ]);
    expect(await ran(() => runner.preToolUse(bashCall('ls'), never()))).toEqual(['broken', 'cased', 'fine']);
    expect(bed.messages).toEqual([
      {
        level: 'warning',
        text: `PreToolUse hook "${broken}" has an "if" condition "Bash(git push" that cannot be read (the closing ")" is missing; expected a permission rule like "Bash(git push:*)"); the hook runs on every PreToolUse until it is fixed`,
      },
      {
        level: 'warning',
        text: `PreToolUse hook "${cased}" has an "if" condition "bash(git push:*)" that cannot be read (tool names are case-sensitive: "bash" should be "Bash"; expected a permission rule like "Bash(git push:*)"); the hook runs on every PreToolUse until it is fixed`,
      },
    ]);
  });

  it('ignores a condition on an event without a tool call, warning once', async () => {
    const hook = await recorder('stop');
    const runner = bed.runner({
      Stop: [{ hooks: [{ type: 'command', command: hook, if: 'Bash(git push:*)' }] }],
    });
    const stop = () => runner.stop({ stopHookActive: false, lastAssistantText: '' }, never());
    expect(await ran(stop)).toEqual(['stop']);
    expect(await ran(stop)).toEqual(['stop']);
    expect(bed.messages).toEqual([
      {
        level: 'warning',
        text: 'Stop hooks have no tool call to test an "if" condition against; "if" is ignored',
      },
    ]);
  });
});
