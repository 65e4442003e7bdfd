/**
 * Hooks that fail closed, through the real CLI: a deny hook with an absurd timeout still denies,
 * a PreToolUse reply too large to read blocks the call, and a Stop hook that always blocks is
 * bounded. Marker files prove whether the command ran.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
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

/** A project whose settings name one executable hook script (written from `body`). */
async function hookProject(body: string, settings: (hook: string) => unknown) {
  const cwd = await tempProject();
  const home = await tempProject('yoke-home-');
  const hook = join(cwd, 'hook.sh');
  await writeFile(hook, `#!/bin/sh\n${body}\n`);
  await chmod(hook, 0o755);
  await mkdir(join(cwd, '.yoke'));
  const settingsFile = join(cwd, '.yoke', 'settings.json');
  await writeFile(settingsFile, JSON.stringify(settings(hook)));
  return { cwd, home, hook, settingsFile, env: mockEnv(server.url, home) };
}

/** The model runs one Bash command, then says it is done. */
function bashTurn(command: string) {
  server.reset([
    { reply: { content: [{ type: 'tool_use', id: 'b1', name: 'Bash', input: { command } }] } },
    { reply: { content: [{ type: 'text', text: 'done' }] } },
  ]);
}

const lastToolResult = () => {
  const body = server.requests[1]?.body as { messages: { content: unknown }[] };
  return JSON.stringify(body.messages.at(-1)?.content);
};

describe('hook timeouts', () => {
  it('clamps a huge timeout with a warning naming the file and hook, and still applies the verdict', async () => {
    const { cwd, hook, settingsFile, env } = await hookProject(
      'cat > /dev/null; sleep 0.3; echo "not with this hook" >&2; exit 2',
      (path) => ({
        permissions: { allow: ['Bash(touch:*)'] },
        hooks: {
          PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: path, timeout: 3000000 }] }],
        },
      }),
    );
    bashTurn('touch marker');
    const { code, stderr } = await runYoke(['-p', 'go'], { cwd, env });
    expect(code).toBe(0);
    expect(stderr).toContain(
      `settings ${settingsFile}: hooks.PreToolUse[0].hooks[0] ("${hook}"): timeout 3000000 is above the maximum of 600 s; using 600 s`,
    );
    expect(lastToolResult()).toContain('not with this hook');
    expect(await fileExists(join(cwd, 'marker'))).toBe(false);
  });
});

describe('a PreToolUse reply too large to read', () => {
  it('blocks the call with an error naming the hook', async () => {
    // 2 MiB of reason: past the 1 MiB output cap, so the JSON cannot be read whole.
    const { cwd, hook, env } = await hookProject(
      `cat > /dev/null
printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"'
head -c 2097152 /dev/zero | tr '\\0' x
printf '"}}'`,
      (path) => ({
        permissions: { allow: ['Bash(touch:*)'] },
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: path }] }] },
      }),
    );
    bashTurn('touch marker');
    const { code } = await runYoke(['-p', 'go'], { cwd, env });
    expect(code).toBe(0);
    const result = lastToolResult();
    expect(result).toContain('"is_error":true');
    expect(result).toContain(`PreToolUse:Bash hook \\"${hook}\\" printed more than 1 MiB on stdout`);
    expect(await fileExists(join(cwd, 'marker'))).toBe(false);
  });
});

describe('a PreToolUse permissionDecision that is none of the known answers', () => {
  // The project's hook runs headless; the allow rule comes from the command line.
  const decidingHook = (decision: string) =>
    hookProject(
      `cat > /dev/null\nprintf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"${decision}","permissionDecisionReason":"not here"}}'`,
      (path) => ({
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: path }] }] },
      }),
    );

  it('refuses the call, naming the hook and the value, rather than ignore a misspelt deny', async () => {
    const { cwd, hook, env } = await decidingHook('Deny');
    bashTurn('touch marker');
    const { code } = await runYoke(['-p', 'go', '--allowedTools', 'Bash(touch:*)'], { cwd, env });
    expect(code).toBe(0);
    expect(await fileExists(join(cwd, 'marker'))).toBe(false);
    const result = lastToolResult();
    expect(result).toContain('"is_error":true');
    expect(result).toContain(
      `[${hook}]: permissionDecision \\"Deny\\" is not allow, deny, ask or defer, so the call is refused`,
    );
  });

  it('lets defer leave the decision to the rules (control)', async () => {
    const { cwd, env } = await decidingHook('defer');
    bashTurn('touch marker');
    const { code } = await runYoke(['-p', 'go', '--allowedTools', 'Bash(touch:*)'], { cwd, env });
    expect(code).toBe(0);
    expect(await fileExists(join(cwd, 'marker'))).toBe(true);
  });
});

describe('a Stop hook that always blocks', () => {
  it('ends the turn after stopHookBlockCap blocks, with stop_hook_active after the first', async () => {
    const { cwd, env } = await hookProject(
      // Each run appends its stdin (one JSON line) to a log, then objects.
      'cat >> stop-inputs.jsonl; echo >> stop-inputs.jsonl; echo "the tests still fail" >&2; exit 2',
      (path) => ({ stopHookBlockCap: 3, hooks: { Stop: [{ hooks: [{ type: 'command', command: path }] }] } }),
    );
    server.reset(
      Array.from({ length: 4 }, (_, i) => ({ reply: { content: [{ type: 'text', text: `try ${i}` }] } })),
    );
    const { code, stdout } = await runYoke(['-p', 'fix it', '--output-format', 'json'], { cwd, env });
    expect(code).toBe(1);
    expect(server.requests).toHaveLength(4);
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ is_error: true, terminal_reason: 'stop_hook_prevented', num_turns: 4 });
    expect(result.errors[0]).toMatch(
      /^Stop hooks blocked the end of this turn 4 times in a row; the turn ends anyway \(at most 3 blocks per turn, settings key stopHookBlockCap\)\. The last objection: .*the tests still fail$/,
    );
    const inputs = (await readFile(join(cwd, 'stop-inputs.jsonl'), 'utf8'))
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { stop_hook_active: boolean; hook_event_name: string });
    expect(inputs.map((input) => input.stop_hook_active)).toEqual([false, true, true, true]);
    expect(inputs.every((input) => input.hook_event_name === 'Stop')).toBe(true);
  });
});
