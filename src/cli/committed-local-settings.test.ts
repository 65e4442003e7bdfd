import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LoadedSettings } from '../config/load-settings';
import { withCommittedLocalSettings } from './committed-local-settings';

const top = realpathSync(mkdtempSync(join(tmpdir(), 'yoke-committed-local-')));
afterAll(() => rmSync(top, { recursive: true, force: true }));

const env = { PATH: process.env.PATH, HOME: top, GIT_CONFIG_NOSYSTEM: '1' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env });

function loaded(paths: string[]): LoadedSettings {
  return {
    merged: {},
    sources: paths.map((path) => ({
      source: 'localSettings',
      path,
      settings: { permissions: { allow: ['Read'] } },
    })),
    errors: [],
    warnings: [],
    rules: paths.map((path) => ({ rule: 'Read', behavior: 'allow', source: 'localSettings', path })),
  };
}

describe('local settings a repository tracks', () => {
  it('become project settings, file by file, and only those git tracks', async () => {
    const repo = join(top, 'repo');
    const yoke = join(repo, '.yoke/settings.local.json');
    const claude = join(repo, '.claude/settings.local.json');
    for (const file of [yoke, claude]) {
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, '{}');
    }
    git(repo, 'init', '-q', '.');
    git(repo, 'add', '.claude/settings.local.json');
    const result = await withCommittedLocalSettings(loaded([yoke, claude]), repo, env);
    expect(result.loaded.sources.map((s) => s.source)).toEqual(['localSettings', 'projectSettings']);
    expect(result.loaded.rules.map((r) => r.source)).toEqual(['localSettings', 'projectSettings']);
    expect(result.warnings).toEqual([
      `${claude} is tracked by git, so it came with the repository rather than from you: it is treated as project settings (its allow rules, acceptEdits and hooks need a trusted folder)`,
    ]);
  });

  it('leave a folder outside any repository as it is, and run no git without a local file', async () => {
    const plain = join(top, 'plain');
    mkdirSync(plain);
    const file = join(plain, '.yoke/settings.local.json');
    const outside = await withCommittedLocalSettings(loaded([file]), plain, env);
    expect(outside.loaded.sources[0]?.source).toBe('localSettings');
    const none = await withCommittedLocalSettings(loaded([]), plain, { PATH: '' });
    expect(none).toEqual({ loaded: loaded([]), warnings: [] });
  });
});
