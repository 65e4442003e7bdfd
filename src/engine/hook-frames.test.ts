/**
 * SessionStart hooks and hook frames through a real QueryEngine and a real hook runner (shell
 * scripts): what the model receives, the stream-json frames and their order, and a PreToolUse
 * `continue: false` that stops before the tool runs.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HooksSettings } from '../config/settings-schema';
import { commandGroup, createHookTestBed, type HookTestBed } from '../hooks/runner-test-support';
import { allowAll } from '../permissions/types';
import { FakeProvider, type FakeScript } from '../testing/fake-provider';
import type { ToolNotification } from '../tools/context';
import { HookFrameQueue } from './hook-frames';
import { QueryEngine } from './query-engine';
import { callTool, echoTool, text } from './query-test-support';
import type { SDKMessage } from './sdk-messages';

let bed: HookTestBed;
beforeEach(async () => {
  bed = await createHookTestBed();
});
afterEach(async () => {
  await bed.cleanup();
});

function engineWith(settingsHooks: HooksSettings, script: FakeScript, includeAllEvents = false) {
  const provider = new FakeProvider(script);
  const notices: ToolNotification[] = [];
  const frames = new HookFrameQueue(includeAllEvents);
  const echoed: string[] = [];
  const engine = new QueryEngine({
    cwd: bed.dir,
    provider,
    model: 'claude-opus-5-5',
    tools: [
      echoTool(async (input: { text: string }) => {
        echoed.push(input.text);
        return { data: `echo: ${input.text}` };
      }),
    ],
    canUseTool: allowAll,
    hooks: bed.runner(settingsHooks, { onLifecycle: frames.push }),
    hookFrames: frames,
    onNotification: (notice) => notices.push(notice),
    environment: { cwd: bed.dir, platform: 'linux', date: '2026-11-29', isGitRepo: false, model: 'm' },
  });
  return { engine, provider, echoed, notices };
}

async function turn(engine: QueryEngine, prompt = 'hello'): Promise<SDKMessage[]> {
  const out: SDKMessage[] = [];
  for await (const m of engine.submitMessage(prompt)) out.push(m);
  return out;
}

const subtypes = (messages: SDKMessage[]) =>
  messages.map((m) => (m.type === 'system' ? `system/${m.subtype}` : m.type));

describe('SessionStart hooks', () => {
  it('give the model their plain stdout and additionalContext before the first prompt, once', async () => {
    const plain = await bed.script('plain.sh', 'echo "Use tabs in this repo."');
    const json = await bed.script(
      'json.sh',
      `echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"The CI runs on Node 20."}}'`,
    );
    const { engine, provider } = engineWith({ SessionStart: [commandGroup(undefined, [plain, json])] }, [
      text('one'),
      text('two'),
    ]);
    await turn(engine);
    await turn(engine, 'again');
    const first = JSON.stringify(provider.requests[0]?.messages);
    expect(first).toContain('SessionStart:startup hook success: Use tabs in this repo.');
    expect(first).toContain('SessionStart:startup hook additional context: The CI runs on Node 20.');
    expect(first.indexOf('Use tabs')).toBeLessThan(first.indexOf('hello'));
    // Said once: the second request carries the same two texts, not two more.
    const second = JSON.stringify(provider.requests[1]?.messages);
    expect(second.split('Use tabs in this repo.')).toHaveLength(2);
  });

  it('report hook_started and hook_response frames before system/init, with what the hook printed', async () => {
    const hook = await bed.script('start.sh', 'echo "ready"; echo "a note" >&2');
    const { engine } = engineWith({ SessionStart: [commandGroup('startup', [hook])] }, [text('ok')]);
    const messages = await turn(engine);
    expect(subtypes(messages).slice(0, 3)).toEqual([
      'system/hook_started',
      'system/hook_response',
      'system/init',
    ]);
    const [started, response] = messages;
    expect(started).toMatchObject({ hook_name: 'SessionStart:startup', hook_event: 'SessionStart' });
    expect(response).toMatchObject({
      hook_id: (started as { hook_id: string }).hook_id,
      hook_name: 'SessionStart:startup',
      hook_event: 'SessionStart',
      stdout: 'ready\n',
      stderr: 'a note\n',
      output: 'ready\na note',
      exit_code: 0,
      outcome: 'success',
    });
  });

  it('show their systemMessage to the user as a warning, not to the model', async () => {
    const hook = await bed.script('note.sh', `echo '{"systemMessage":"Nightly build is red."}'`);
    const { engine, provider, notices } = engineWith({ SessionStart: [commandGroup(undefined, [hook])] }, [
      text('ok'),
    ]);
    await turn(engine);
    expect(notices).toEqual([{ level: 'warning', message: 'Nightly build is red.' }]);
    expect(JSON.stringify(provider.requests[0]?.messages)).not.toContain('Nightly build');
  });

  it('report a failing hook as an error outcome with its exit code', async () => {
    const hook = await bed.script('fail.sh', 'echo "no config" >&2; exit 1');
    const { engine, provider } = engineWith({ SessionStart: [commandGroup(undefined, [hook])] }, [
      text('ok'),
    ]);
    const messages = await turn(engine);
    expect(messages[1]).toMatchObject({ subtype: 'hook_response', exit_code: 1, outcome: 'error' });
    expect(JSON.stringify(provider.requests[0]?.messages)).not.toContain('no config');
  });
});

describe('hook frames of other events', () => {
  const settings = async () => ({
    PreToolUse: [commandGroup('Echo', [await bed.script('pre.sh', 'exit 0')])],
  });

  it('are written only with --include-hook-events, before the tool result they led to', async () => {
    const quiet = engineWith(await settings(), [callTool('a'), text('done')]);
    expect(subtypes(await turn(quiet.engine))).not.toContain('system/hook_started');

    const loud = engineWith(await settings(), [callTool('a'), text('done')], true);
    const kinds = subtypes(await turn(loud.engine));
    const started = kinds.indexOf('system/hook_started');
    expect(started).toBeGreaterThan(kinds.indexOf('system/init'));
    expect(kinds[started + 1]).toBe('system/hook_response');
    expect(started).toBeLessThan(kinds.indexOf('user'));
  });
});

describe('PreToolUse continue: false', () => {
  it('stops the turn before the tool runs, with the stop reason for the user', async () => {
    const hook = await bed.script(
      'stop.sh',
      `echo '{"continue":false,"stopReason":"Deploys are frozen today."}'`,
    );
    const { engine, provider, echoed } = engineWith({ PreToolUse: [commandGroup('Echo', [hook])] }, [
      callTool('a'),
      text('never'),
    ]);
    const messages = await turn(engine);
    expect(echoed).toEqual([]);
    expect(provider.requests).toHaveLength(1);
    const toolResult = messages.find((m) => m.type === 'user');
    expect(JSON.stringify(toolResult)).toContain('Deploys are frozen today.');
    expect(JSON.stringify(toolResult)).toContain('"is_error":true');
    expect(messages).toContainEqual(
      expect.objectContaining({
        subtype: 'informational',
        tag: 'hook_stopped',
        content: 'Deploys are frozen today.',
      }),
    );
    expect(messages.at(-1)).toMatchObject({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: '',
      terminal_reason: 'hook_stopped',
    });
  });
});
