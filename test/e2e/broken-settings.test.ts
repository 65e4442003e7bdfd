/**
 * A settings file on disk that cannot be read — not JSON, or a deny list that is not a list —
 * stops the run before any model call, with one line naming the file, the place and how to go
 * on, instead of running without its deny rules. Leaving its source out with `--setting-sources`
 * runs; a problem that only asks more (a bad model name) still only warns.
 */
import { mkdir, writeFile } from 'node:fs/promises';
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

async function project(file: string, text: string) {
  const cwd = await tempProject();
  const home = await tempProject('yoke-home-');
  await mkdir(join(cwd, '.claude'));
  const settingsFile = join(cwd, '.claude', file);
  await writeFile(settingsFile, text);
  return { cwd, settingsFile, env: mockEnv(server.url, home) };
}

/** The model runs `touch marker`; acceptEdits allows it unless a deny rule holds. */
function touchTurn() {
  server.reset([
    {
      reply: { content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'touch marker' } }] },
    },
    { reply: { content: [{ type: 'text', text: 'done' }] } },
  ]);
}

const run = (cwd: string, env: Record<string, string | undefined>, extra: string[] = []) =>
  runYoke(['-p', 'go', '--permission-mode', 'acceptEdits', ...extra], { cwd, env });

describe('a settings file whose deny rules cannot be read', () => {
  // Calibration: before, the file below was skipped with a warning, the run went on in
  // acceptEdits and `touch marker` ran — the marker file appeared despite `Bash(touch:*)`.
  it('stops a trailing-comma file before any model call, naming line and column', async () => {
    const { cwd, settingsFile, env } = await project(
      'settings.local.json',
      '{\n  "permissions": {\n    "deny": ["Bash(touch:*)",]\n  }\n}\n',
    );
    touchTurn();
    const { code, stdout, stderr } = await run(cwd, env);
    expect({ code, stdout, stderr }).toEqual({
      code: 1,
      stdout: '',
      stderr: `yoke: Invalid JSON in settings ${settingsFile} at line 3, column 30: a comma before ']' (JSON allows no comma after the last item; remove it); its deny rules, ask rules and hooks cannot be read, so nothing was run without them: fix the file, or leave the local settings out with --setting-sources=user,project.\n`,
    });
    expect(server.requests).toHaveLength(0);
    expect(await fileExists(join(cwd, 'marker'))).toBe(false);
  });

  it('stops on a deny list that is not a list, naming its key', async () => {
    const { cwd, settingsFile, env } = await project(
      'settings.local.json',
      JSON.stringify({ permissions: { deny: 'Bash(touch:*)' } }),
    );
    touchTurn();
    const { code, stderr } = await run(cwd, env);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      new RegExp(
        `^yoke: Invalid settings ${settingsFile.replace(/[.]/g, '\\.')}: permissions\\.deny: .+; its deny rules cannot be read, so nothing was run without them: fix the file, or leave the local settings out with --setting-sources=user,project\\.\\n$`,
      ),
    );
    expect(server.requests).toHaveLength(0);
  });

  it('runs once the source is left out, and a problem that only asks more still only warns', async () => {
    const broken = await project('settings.local.json', '{ "permissions": ');
    touchTurn();
    const left = await run(broken.cwd, broken.env, ['--setting-sources=user,project']);
    expect(left.code).toBe(0);
    expect(await fileExists(join(broken.cwd, 'marker'))).toBe(true);

    const typo = await project('settings.local.json', JSON.stringify({ model: 7 }));
    touchTurn();
    const warned = await run(typo.cwd, typo.env);
    expect(warned.code).toBe(0);
    expect(warned.stderr).toContain(`Invalid settings ${typo.settingsFile}: model:`);
  });
});
