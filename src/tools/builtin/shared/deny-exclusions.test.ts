/**
 * The deny exclusions against real ripgrep: for each rule and each way of giving ripgrep the
 * folder, `rg --files` with the exclusion globs must list exactly the files the rule matcher
 * does not deny — no denied file slips through, no other file is lost.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskPathFs } from '../../../permissions/real-paths';
import { parseRule } from '../../../permissions/rule-string';
import { searchExclusions } from '../../../permissions/search-exclusions';
import type { RuleSource } from '../../../permissions/types';
import { runRipgrep } from './ripgrep';

let top: string;
let project: string;
let home: string;

const FILES = [
  '.env',
  'README.md',
  'src/.env',
  'src/a.ts',
  'src/key.pem',
  'src/deep/id_rsa',
  'src/deep/b.ts',
  'src/secret/s.txt',
  'secrets/k.txt',
  'lib/src/secret/t.txt',
  'brace/{a,b}.txt',
  'brace/a.txt',
];

beforeAll(() => {
  top = realpathSync(mkdtempSync(join(tmpdir(), 'yoke-exclusions-')));
  project = join(top, 'proj');
  home = join(top, 'home');
  for (const file of FILES) {
    mkdirSync(join(project, file, '..'), { recursive: true });
    writeFileSync(join(project, file), 'KEY');
  }
  mkdirSync(home);
  execFileSync('git', ['init', '-q'], { cwd: project });
  // The project seen through a symlinked folder, as when it is opened from a link.
  symlinkSync(project, join(top, 'proj-link'));
});

afterAll(() => {
  rmSync(top, { recursive: true, force: true });
});

async function listed(cwd: string, searchPath: string, globs: readonly string[]): Promise<string[]> {
  const args = [
    '--files',
    '--hidden',
    '--glob',
    '!.git',
    ...globs.flatMap((g) => ['--glob', g]),
    '--',
    searchPath,
  ];
  const result = await runRipgrep(args, { cwd, signal: new AbortController().signal, env: process.env });
  return result.lines
    .filter(Boolean)
    .map((line) => relative(cwd, join(cwd, line)))
    .sort();
}

const RULES: Array<[string, RuleSource]> = [
  ['.env', 'projectSettings'],
  ['./.env', 'projectSettings'],
  ['/src/secret/**', 'projectSettings'],
  ['src/*.pem', 'projectSettings'],
  ['**/id_rsa', 'projectSettings'],
  ['secrets/', 'projectSettings'],
  ['/src/**/*.ts', 'projectSettings'],
  ['brace/{a,b}.txt', 'projectSettings'],
  ['~/../proj/src/a.ts', 'projectSettings'],
];

/** [search root (relative to the project), how rg runs: in the cwd, or in `/` with an absolute path, or via the link] */
const SEARCHES = [
  ['.', 'cwd'],
  ['src', 'cwd'],
  ['src/deep', 'cwd'],
  ['src', 'absolute'],
  ['.', 'link'],
] as const;

describe('searchExclusions against ripgrep', () => {
  for (const [content, source] of RULES) {
    for (const [sub, how] of SEARCHES) {
      it(`Read(${content}) searching ${sub} (${how})`, async () => {
        const rule = parseRule(`Read(${content})`, 'deny', source);
        if (!rule) throw new Error('bad rule');
        const base = how === 'link' ? join(top, 'proj-link') : project;
        const root = join(base, sub);
        const cwd = how === 'absolute' ? '/' : base;
        const searchPath = how === 'absolute' ? root : sub;
        const exclusions = searchExclusions({
          rules: [rule],
          roots: { projectRoot: base, cwd: base, home },
          root,
          searchPath,
          fs: diskPathFs,
        });
        const all = await listed(cwd, searchPath, []);
        const allowed = all.filter((path) => !exclusions.deniedBy(relative(root, join(cwd, path))));
        expect({ globs: exclusions.globs, files: await listed(cwd, searchPath, exclusions.globs) }).toEqual({
          globs: exclusions.globs,
          files: allowed,
        });
        // Searching the whole project, every rule here leaves something out.
        if (sub === '.' && how === 'cwd') expect(allowed.length).toBeLessThan(all.length);
      });
    }
  }

  it('reports a root the rule covers whole', () => {
    const rule = parseRule('Read(secrets/)', 'deny', 'projectSettings');
    if (!rule) throw new Error('bad rule');
    const exclusions = searchExclusions({
      rules: [rule],
      roots: { projectRoot: project, cwd: project, home },
      root: join(project, 'secrets'),
      searchPath: 'secrets',
      fs: diskPathFs,
    });
    expect(exclusions.everything).toBe(rule);
  });
});
