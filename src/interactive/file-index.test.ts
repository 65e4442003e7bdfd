/** @-completion over a real project folder with .gitignore and Read deny rules. */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PermissionRule } from '../lib/permission-vocabulary';
import { FileIndex } from './file-index';

let project: string;
const signal = new AbortController().signal;
beforeEach(async () => {
  project = await realpath(await mkdtemp(join(tmpdir(), 'yoke-files-')));
});
afterEach(() => rm(project, { recursive: true, force: true }));

async function files(paths: Record<string, string>) {
  for (const [path, text] of Object.entries(paths)) {
    await mkdir(join(project, path, '..'), { recursive: true });
    await writeFile(join(project, path), text);
  }
}

const index = (rules: PermissionRule[] = []) =>
  new FileIndex({
    projectRoot: project,
    env: { PATH: process.env.PATH },
    rules: () => rules,
    home: join(project, 'home'),
  });

describe('file completion', () => {
  beforeEach(async () => {
    execFileSync('git', ['init', '-q'], { cwd: project });
    await files({
      '.gitignore': 'dist/\n*.log\n',
      'src/app.ts': '',
      'src/api/client.ts': '',
      'src/api/app-config.ts': '',
      'README.md': '',
      'dist/app.js': '',
      'debug.log': '',
      '.env': 'SECRET=1',
      'secrets/key.pem': '',
      '.github/workflows/ci.yml': '',
    });
  });

  it('offers project files and folders, leaving out what .gitignore and .git hide', async () => {
    const idx = index();
    await idx.refresh(signal);
    const all = idx.complete('', 100).map((s) => s.path);
    expect(all).toEqual(expect.arrayContaining(['src/', 'README.md', '.gitignore', '.github/']));
    const everything = idx.complete('.', 100).map((s) => s.path);
    expect(everything).not.toContain('dist/app.js');
    expect(everything).not.toContain('debug.log');
    expect(everything.some((p) => p.startsWith('.git/'))).toBe(false);
  });

  it('ranks a name that starts with the query first, then paths, then fuzzy matches', async () => {
    const idx = index();
    await idx.refresh(signal);
    expect(idx.complete('app').map((s) => s.path)).toEqual(['src/app.ts', 'src/api/app-config.ts']);
    expect(idx.complete('src/api/').map((s) => s.path)).toEqual([
      'src/api/client.ts',
      'src/api/app-config.ts',
    ]);
    expect(idx.complete('sapicl').map((s) => s.path)).toEqual(['src/api/client.ts']);
    expect(idx.complete('api')[0]).toEqual({ path: 'src/api/', kind: 'dir' });
  });

  it('never offers a file a Read deny rule covers', async () => {
    const deny = (ruleContent: string): PermissionRule => ({
      toolName: 'Read',
      ruleContent,
      behavior: 'deny',
      source: 'projectSettings',
    });
    const idx = index([deny('./.env'), deny('./secrets/**')]);
    await idx.refresh(signal);
    const all = idx
      .complete('', 1000)
      .concat(idx.complete('e', 1000))
      .map((s) => s.path);
    expect(all).not.toContain('.env');
    expect(all.some((p) => p.startsWith('secrets/'))).toBe(false);
    // Control: without the rules both are offered.
    const open = index();
    await open.refresh(signal);
    expect(open.complete('.env').map((s) => s.path)).toContain('.env');
    expect(open.complete('key').map((s) => s.path)).toEqual(['secrets/key.pem']);
  });

  it('a deny rule over the whole project offers nothing, and says why', async () => {
    const idx = index([{ toolName: 'Read', ruleContent: './**', behavior: 'deny', source: 'userSettings' }]);
    await idx.refresh(signal);
    expect(idx.size).toBe(0);
    expect(idx.problem).toMatch(/a Read deny rule covers/);
  });
});

describe('a large tree', () => {
  it('lists every file and answers a query from the whole index', async () => {
    // 10 folders × 500 files. The 50,000-file figure is measured, not tested: creating them is slow.
    execFileSync(
      'bash',
      ['-c', 'for d in $(seq 1 10); do mkdir pkg$d && (cd pkg$d && touch $(seq -f "file%g.ts" 1 500)); done'],
      {
        cwd: project,
      },
    );
    const idx = index();
    await idx.refresh(signal);
    expect(idx.size).toBe(5_000 + 10);
    expect(idx.complete('pkg7/file499').map((s) => s.path)).toEqual(['pkg7/file499.ts']);
  });
});
