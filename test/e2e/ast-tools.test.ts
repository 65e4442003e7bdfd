/**
 * The structural tools through `yoke -p`: ast_grep finds calls by shape, ast_edit stages a
 * rewrite without writing, resolve accepts it and both files change together; an Edit deny rule
 * on one file refuses the whole accept and leaves every file as it was.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastToolResultBlock, mockEnv, runYoke, tempProject } from './helpers';
import { useWorkspace } from './workspace';

const ws = useWorkspace();

const toolResult = (index: number) => lastToolResultBlock(ws.server, index);

const tool = (id: string, name: string, input: Record<string, unknown>) => ({
  reply: { content: [{ type: 'tool_use' as const, id, name, input }] },
});

async function project(): Promise<string> {
  const cwd = await tempProject();
  await mkdir(join(cwd, 'src'));
  await writeFile(join(cwd, 'src/a.ts'), 'log(fetchUser(1));\n// fetchUser(0) in a comment\n');
  await writeFile(
    join(cwd, 'src/b.ts'),
    'const u = fetchUser(2, { cache: true });\nconst s = "fetchUser(3)";\n',
  );
  return cwd;
}

describe('ast_grep, ast_edit and resolve in yoke -p', () => {
  it('finds by shape, stages a rewrite, and accept writes both files', async () => {
    const cwd = await project();
    ws.server.reset([
      tool('g1', 'ast_grep', { pattern: 'fetchUser($$$ARGS)' }),
      {
        match: { lastToolResultContains: 'src/b.ts:1:11: fetchUser(2, { cache: true })' },
        ...tool('e1', 'ast_edit', {
          pattern: 'fetchUser($$$ARGS)',
          rewrite: 'loadUser($$$ARGS)',
          path: 'src',
        }),
      },
      {
        match: { lastToolResultContains: '(proposed) 2 replacements in 2 files — edit_id: edit_1' },
        ...tool('r1', 'resolve', { edit_id: 'edit_1', action: 'accept' }),
      },
      {
        match: { lastToolResultContains: 'Accepted edit_1' },
        reply: { content: [{ type: 'text', text: 'Renamed the calls.' }] },
      },
    ]);
    const { code, stdout, stderr } = await runYoke(
      ['-p', 'rename fetchUser', '--permission-mode', 'acceptEdits'],
      {
        cwd,
        env: mockEnv(ws.server.url, ws.home),
      },
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe('Renamed the calls.\n');
    expect(JSON.stringify(toolResult(1).content)).toContain('src/a.ts:1:5: fetchUser(1)');
    expect(JSON.stringify(toolResult(1).content)).not.toContain('fetchUser(0)');
    expect(await readFile(join(cwd, 'src/a.ts'), 'utf8')).toBe(
      'log(loadUser(1));\n// fetchUser(0) in a comment\n',
    );
    expect(await readFile(join(cwd, 'src/b.ts'), 'utf8')).toBe(
      'const u = loadUser(2, { cache: true });\nconst s = "fetchUser(3)";\n',
    );
  });

  it('refuses the whole accept when an Edit deny rule covers one file', async () => {
    const cwd = await project();
    await mkdir(join(cwd, '.yoke'), { recursive: true });
    await writeFile(
      join(cwd, '.yoke/settings.json'),
      JSON.stringify({ permissions: { deny: ['Edit(/src/b.ts)'] } }),
    );
    ws.server.reset([
      tool('e1', 'ast_edit', { pattern: 'fetchUser($$$ARGS)', rewrite: 'loadUser($$$ARGS)' }),
      {
        match: { lastToolResultContains: 'edit_id: edit_1' },
        ...tool('r1', 'resolve', { edit_id: 'edit_1', action: 'accept' }),
      },
      {
        match: { lastToolResultContains: 'src/b.ts' },
        reply: { content: [{ type: 'text', text: 'Refused.' }] },
      },
    ]);
    const { code, stdout, stderr } = await runYoke(
      ['-p', 'rename fetchUser', '--permission-mode', 'acceptEdits'],
      {
        cwd,
        env: mockEnv(ws.server.url, ws.home),
      },
    );
    // Print mode tells the user of every denial.
    expect(stderr).toBe(
      'yoke: edit_1 would change src/b.ts: Denied by rule Edit(/src/b.ts) (projectSettings); nothing was written.\n',
    );
    expect(code).toBe(0);
    expect(stdout).toBe('Refused.\n');
    const refusal = toolResult(2);
    expect(refusal.is_error).toBe(true);
    expect(JSON.stringify(refusal.content)).toMatch(/edit_1 would change src\/b\.ts: .*nothing was written/);
    expect(await readFile(join(cwd, 'src/a.ts'), 'utf8')).toBe(
      'log(fetchUser(1));\n// fetchUser(0) in a comment\n',
    );
  });
});
