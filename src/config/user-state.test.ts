/** The user state file on a real disk: other keys survive, a corrupt file is reported and kept. */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectEntry, projectsOf, readUserState, updateUserState, userStatePath } from './user-state';

let home: string;
let env: Record<string, string>;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'yoke-state-'));
  env = { YOKE_HOME: home };
});
afterEach(async () => rm(home, { recursive: true, force: true }));

describe('user state', () => {
  it('reads a missing file as empty and creates it on update', async () => {
    expect(await readUserState(env)).toEqual({ state: {} });
    await updateUserState(env, (state) => {
      projectEntry(state, '/p').trusted = true;
    });
    expect(JSON.parse(await readFile(userStatePath(env), 'utf8'))).toEqual({
      projects: { '/p': { trusted: true } },
    });
  });

  it('keeps every change of updates started at once (each reads what the one before wrote)', async () => {
    const names = ['a', 'b', 'c', 'd', 'e'];
    const results = await Promise.all([
      ...names.map((name) =>
        updateUserState(env, (state) => {
          const entry = projectEntry(state, '/p');
          entry.enabledMcpjsonServers = [...((entry.enabledMcpjsonServers as string[]) ?? []), name];
        }),
      ),
      // A failing update does not stop the ones queued after it.
      updateUserState(env, () => {
        throw new Error('bad mutation');
      }).catch((error: Error) => error.message),
      updateUserState(env, (state) => {
        projectEntry(state, '/q').trusted = true;
      }),
    ]);
    expect(results[5]).toBe('bad mutation');
    expect(JSON.parse(await readFile(userStatePath(env), 'utf8'))).toEqual({
      projects: { '/p': { enabledMcpjsonServers: names }, '/q': { trusted: true } },
    });
  });

  it('keeps every key it does not change, its own project entries included', async () => {
    await writeFile(
      userStatePath(env),
      JSON.stringify({
        theme: 'dark',
        projects: { '/p': { mcpServers: { db: 'ok' } }, '/q': { trusted: true } },
      }),
    );
    await updateUserState(env, (state) => {
      projectEntry(state, '/p').trusted = true;
    });
    expect(JSON.parse(await readFile(userStatePath(env), 'utf8'))).toEqual({
      theme: 'dark',
      projects: { '/p': { mcpServers: { db: 'ok' }, trusted: true }, '/q': { trusted: true } },
    });
  });

  it('reports a corrupt file, goes on without it, and moves it aside before writing', async () => {
    await writeFile(userStatePath(env), '{"projects": {"/p": {"trusted": true}');
    const read = await readUserState(env);
    expect(read.state).toEqual({});
    expect(read.problem).toMatch(/state\.json: invalid JSON at line 1, column \d+/);
    const { problem } = await updateUserState(env, (state) => {
      projectEntry(state, '/r').trusted = true;
    });
    expect(problem).toMatch(/kept it as .*state\.json\.corrupt-.* and started a new one/);
    const names = await readdir(home);
    const aside = names.find((name) => name.startsWith('state.json.corrupt-')) as string;
    expect(await readFile(join(home, aside), 'utf8')).toBe('{"projects": {"/p": {"trusted": true}');
    expect(projectsOf((await readUserState(env)).state)).toEqual({ '/r': { trusted: true } });
  });

  it('reads entries of the wrong shape as absent', async () => {
    await writeFile(
      userStatePath(env),
      JSON.stringify({ projects: { '/p': true, '/q': { trusted: true } } }),
    );
    expect(projectsOf((await readUserState(env)).state)).toEqual({ '/q': { trusted: true } });
  });
});
