/**
 * Settings, permission rules and hooks through the real CLI: project settings files, a compound
 * command that tries to smuggle a second command past an allow rule, command hooks that deny and
 * rewrite, a broken settings file, and `yoke permissions list|remove`.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import { mockEnv, runYoke, tempProject } from './helpers';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ scenario: [] });
});
afterAll(async () => {
  await server.close();
});

async function project(settings: unknown, file = 'settings.json'): Promise<{ cwd: string; home: string }> {
  const cwd = await tempProject();
  await mkdir(join(cwd, '.yoke'), { recursive: true });
  await writeFile(
    join(cwd, '.yoke', file),
    typeof settings === 'string' ? settings : JSON.stringify(settings),
  );
  return { cwd, home: await tempProject('yoke-home-') };
}

/** Project allow rules apply only in a trusted folder: trust it the way a user does. */
async function trusted(folder: { cwd: string; home: string }): Promise<{ cwd: string; home: string }> {
  const { code } = await runYoke(['trust'], { cwd: folder.cwd, env: mockEnv(server.url, folder.home) });
  expect(code).toBe(0);
  return folder;
}

/** The model runs one Bash command, then says what it saw. */
function bashTurn(command: string) {
  server.reset([
    { reply: { content: [{ type: 'tool_use', id: 'b1', name: 'Bash', input: { command } }] } },
    { reply: { content: [{ type: 'text', text: 'done' }] } },
  ]);
}

const toolResultOf = () => {
  const body = server.requests[1]?.body as { messages: { content: unknown }[] };
  return JSON.stringify(body.messages.at(-1)?.content);
};

describe('permission rules from settings', () => {
  it('runs an allowed command without asking', async () => {
    const { cwd, home } = await trusted(await project({ permissions: { allow: ['Bash(touch:*)'] } }));
    bashTurn('touch made.txt');
    const { code } = await runYoke(['-p', 'make a file'], { cwd, env: mockEnv(server.url, home) });
    expect(code).toBe(0);
    await expect(readFile(join(cwd, 'made.txt'), 'utf8')).resolves.toBe('');
  });

  it('does not let an allowed prefix smuggle a second command', async () => {
    const { cwd, home } = await trusted(await project({ permissions: { allow: ['Bash(touch:*)'] } }));
    bashTurn('touch a.txt; touch b.txt && rm -rf victim');
    await mkdir(join(cwd, 'victim'));
    const { code } = await runYoke(['-p', 'go'], { cwd, env: mockEnv(server.url, home) });
    expect(code).toBe(0);
    expect(toolResultOf()).toContain('"is_error":true');
    await expect(readFile(join(cwd, 'a.txt'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(readdirSafe(join(cwd, 'victim'))).resolves.toEqual([]);
  });

  it('stops when a settings file is broken, says which, and runs with the others once it is left out', async () => {
    const { cwd, home } = await project('{ "permissions": { "allow": [ }');
    server.reset([{ reply: { content: [{ type: 'text', text: 'fine' }] } }]);
    const env = mockEnv(server.url, home);
    const broken = await runYoke(['-p', 'hi'], { cwd, env });
    expect(broken.code).toBe(1);
    expect(broken.stdout).toBe('');
    expect(broken.stderr).toContain(join(cwd, '.yoke', 'settings.json'));
    expect(broken.stderr.trim().split('\n')).toHaveLength(1);
    expect(server.requests).toHaveLength(0);
    const { code, stdout } = await runYoke(['-p', 'hi', '--setting-sources=user,local'], { cwd, env });
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'fine\n' });
  });
});

describe('command hooks from settings', () => {
  async function hookProject(script: string) {
    const cwd = await tempProject();
    const home = await tempProject('yoke-home-');
    const hook = join(cwd, 'hook.sh');
    await writeFile(hook, `#!/bin/sh\n${script}\n`);
    await chmod(hook, 0o755);
    await mkdir(join(cwd, '.yoke'));
    await writeFile(
      join(cwd, '.yoke', 'settings.json'),
      JSON.stringify({
        permissions: { allow: ['Bash(echo:*)'] },
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook }] }] },
      }),
    );
    return trusted({ cwd, home });
  }

  it('a PreToolUse hook denies a call the rules allow (exit 2, stderr to the model)', async () => {
    const { cwd, home } = await hookProject('cat > /dev/null; echo "no echo today" >&2; exit 2');
    bashTurn('echo hi');
    const { code } = await runYoke(['-p', 'go'], { cwd, env: mockEnv(server.url, home) });
    expect(code).toBe(0);
    expect(toolResultOf()).toContain('no echo today');
    expect(toolResultOf()).toContain('"is_error":true');
  });

  it('a PreToolUse hook rewrites the input with updatedInput', async () => {
    const { cwd, home } = await hookProject(
      `cat > /dev/null; printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo rewritten"}}}'`,
    );
    bashTurn('echo original');
    await runYoke(['-p', 'go'], { cwd, env: mockEnv(server.url, home) });
    expect(toolResultOf()).toContain('rewritten');
    expect(toolResultOf()).not.toContain('original');
  });
});

describe('PermissionRequest hooks', () => {
  it('approve a call that would otherwise be refused for want of a person to ask', async () => {
    const cwd = await tempProject();
    const home = await tempProject('yoke-home-');
    const hook = join(cwd, 'approve.sh');
    await writeFile(
      hook,
      `#!/bin/sh\ncat > /dev/null\nprintf '%s' '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}'\n`,
    );
    await chmod(hook, 0o755);
    await mkdir(join(cwd, '.yoke'));
    await writeFile(
      join(cwd, '.yoke', 'settings.json'),
      JSON.stringify({
        hooks: { PermissionRequest: [{ matcher: 'Write', hooks: [{ type: 'command', command: hook }] }] },
      }),
    );
    server.reset([
      {
        reply: {
          content: [
            {
              type: 'tool_use',
              id: 'w1',
              name: 'Write',
              input: { file_path: 'out.txt', content: 'approved' },
            },
          ],
        },
      },
      { reply: { content: [{ type: 'text', text: 'written' }] } },
    ]);
    const { code } = await runYoke(['-p', 'write it'], { cwd, env: mockEnv(server.url, home) });
    expect(code).toBe(0);
    expect(await readFile(join(cwd, 'out.txt'), 'utf8')).toBe('approved');
  });
});

describe('yoke permissions', () => {
  it('lists rules with their source and removes a local one', async () => {
    const { cwd, home } = await project(
      { permissions: { allow: ['Bash(npm test)'], deny: ['Read(./secrets/**)'] } },
      'settings.local.json',
    );
    const env = mockEnv(server.url, home);
    const list = await runYoke(['permissions', 'list'], { cwd, env });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('Bash(npm test)');
    expect(list.stdout).toContain('Read(./secrets/**)');
    expect(list.stdout).toContain('localSettings');
    const removed = await runYoke(['permissions', 'remove', 'Bash(npm test)'], { cwd, env });
    expect(removed.code).toBe(0);
    const after = JSON.parse(await readFile(join(cwd, '.yoke', 'settings.local.json'), 'utf8'));
    expect(after.permissions.allow).toEqual([]);
    expect(after.permissions.deny).toEqual(['Read(./secrets/**)']);
  });
});

async function readdirSafe(dir: string): Promise<string[]> {
  const { readdir } = await import('node:fs/promises');
  return readdir(dir);
}
