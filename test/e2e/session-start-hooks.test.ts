/**
 * Hook features that used to be accepted and then do nothing, through the built CLI: SessionStart
 * output reaching the model, the stream-json hook frames, and a PreToolUse `continue: false` that
 * stops the turn before the tool runs.
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import { fileExists, mockEnv, runYoke, tempProject } from './helpers';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ scenario: [] });
});
afterAll(async () => {
  await server.close();
});

/** A project whose settings run `script` (a shell script body) on `event` hooks. */
async function hookProject(event: string, script: string, matcher?: string) {
  const cwd = await tempProject();
  const home = await tempProject('yoke-home-');
  const hook = join(cwd, 'hook.sh');
  await writeFile(hook, `#!/bin/sh\ncat > /dev/null\n${script}\n`);
  await chmod(hook, 0o755);
  await mkdir(join(cwd, '.yoke'));
  const group = { ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command: hook }] };
  await writeFile(join(cwd, '.yoke', 'settings.json'), JSON.stringify({ hooks: { [event]: [group] } }));
  return { cwd, home, env: mockEnv(server.url, home) };
}

const reply = (text: string) => ({ reply: { content: [{ type: 'text' as const, text }] } });
const frames = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('SessionStart hooks', () => {
  it('give the model their plain stdout before the prompt', async () => {
    const { cwd, env } = await hookProject('SessionStart', 'echo "Deploy target: staging."');
    server.reset([reply('noted')]);
    const { code, stdout } = await runYoke(['-p', 'where do we deploy?'], { cwd, env });
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'noted\n' });
    const sent = JSON.stringify((server.requests[0]?.body as { messages?: unknown } | undefined)?.messages);
    expect(sent).toContain('SessionStart:startup hook success: Deploy target: staging.');
    expect(sent.indexOf('Deploy target')).toBeLessThan(sent.indexOf('where do we deploy?'));
  });

  it('hookSpecificOutput.additionalContext reaches the model too', async () => {
    const { cwd, env } = await hookProject(
      'SessionStart',
      `echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"Use pnpm, not npm."}}'`,
    );
    server.reset([reply('ok')]);
    await runYoke(['-p', 'install'], { cwd, env });
    expect(JSON.stringify(server.requests[0]?.body)).toContain(
      'SessionStart:startup hook additional context: Use pnpm, not npm.',
    );
  });

  it('write hook_started and hook_response before system/init in stream-json', async () => {
    const { cwd, env } = await hookProject('SessionStart', 'echo "hello from the hook"');
    server.reset([reply('ok')]);
    const { code, stdout } = await runYoke(['-p', 'hi', '--output-format', 'stream-json', '--verbose'], {
      cwd,
      env,
    });
    expect(code).toBe(0);
    const all = frames(stdout);
    expect(all.slice(0, 3).map((f) => f.subtype)).toEqual(['hook_started', 'hook_response', 'init']);
    const [started, response] = all;
    expect(started).toEqual({
      type: 'system',
      subtype: 'hook_started',
      hook_id: expect.any(String),
      hook_name: 'SessionStart:startup',
      hook_event: 'SessionStart',
      uuid: expect.any(String),
      session_id: all[2]?.session_id,
    });
    expect(response).toEqual({
      type: 'system',
      subtype: 'hook_response',
      hook_id: started?.hook_id,
      hook_name: 'SessionStart:startup',
      hook_event: 'SessionStart',
      output: 'hello from the hook',
      stdout: 'hello from the hook\n',
      stderr: '',
      exit_code: 0,
      outcome: 'success',
      uuid: expect.any(String),
      session_id: all[2]?.session_id,
    });
  });
});

describe('--include-hook-events', () => {
  it('adds the frames of every other hook, before the tool result', async () => {
    const { cwd, env } = await hookProject('PreToolUse', 'exit 0', 'Read');
    await writeFile(join(cwd, 'a.txt'), 'text\n');
    const turn = () =>
      server.reset([
        { reply: { content: [{ type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: 'a.txt' } }] } },
        reply('read'),
      ]);
    const args = ['-p', 'read a.txt', '--output-format', 'stream-json', '--verbose'];
    turn();
    const without = frames((await runYoke(args, { cwd, env })).stdout);
    expect(without.some((f) => f.subtype === 'hook_started')).toBe(false);
    turn();
    const withEvents = frames((await runYoke([...args, '--include-hook-events'], { cwd, env })).stdout);
    const kinds = withEvents.map((f) => f.subtype ?? f.type);
    expect(withEvents.find((f) => f.subtype === 'hook_started')).toMatchObject({
      hook_name: 'PreToolUse:Read',
    });
    expect(kinds.indexOf('hook_response')).toBeLessThan(kinds.indexOf('user'));
  });
});

describe('PreToolUse continue: false', () => {
  it('stops before the tool runs; the stop reason is shown and the result is an empty success', async () => {
    const { cwd, env } = await hookProject(
      'PreToolUse',
      `echo '{"continue":false,"stopReason":"Writes are frozen during the release."}'`,
      'Bash',
    );
    server.reset([
      {
        reply: {
          content: [{ type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'touch ran.txt' } }],
        },
      },
      reply('never asked'),
    ]);
    const text = await runYoke(['-p', 'make it', '--dangerously-skip-permissions'], { cwd, env });
    expect(text).toEqual({
      code: 0,
      stdout: '\n',
      stderr: 'yoke: a hook stopped the turn: Writes are frozen during the release.\n',
    });
    expect(await fileExists(join(cwd, 'ran.txt'))).toBe(false);
    expect(server.requests).toHaveLength(1);

    server.reset([
      {
        reply: {
          content: [{ type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'touch ran.txt' } }],
        },
      },
    ]);
    const json = await runYoke(
      ['-p', 'make it', '--dangerously-skip-permissions', '--output-format', 'json'],
      {
        cwd,
        env,
      },
    );
    expect(JSON.parse(json.stdout)).toMatchObject({
      subtype: 'success',
      is_error: false,
      result: '',
      terminal_reason: 'hook_stopped',
    });
    expect(await fileExists(join(cwd, 'ran.txt'))).toBe(false);
  });
});
