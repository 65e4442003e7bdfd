/**
 * Expansion is calibrated against the real shell: for each word, bash itself (run in the same
 * scratch folder with the same HOME) prints what the word becomes, and `expandWord` must agree.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskPathFs, emptyPathFs } from './real-paths';
import { type ExpansionEnv, expandBraces, expandWord, lexWord, MAX_EXPANDED_WORDS } from './shell-expansion';

let root: string;
let dir: string;
let home: string;
let env: ExpansionEnv;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'yoke-expansion-')));
  dir = join(root, 'proj');
  home = join(root, 'home');
  mkdirSync(join(dir, 'src/deep'), { recursive: true });
  mkdirSync(home);
  for (const file of [
    '.env',
    '.envrc',
    'README.md',
    'notes.md',
    'src/a.ts',
    'src/b.ts',
    'src/.hidden',
    'src/deep/c.ts',
  ])
    writeFileSync(join(dir, file), file);
  symlinkSync(join(dir, 'src'), join(dir, 'src-link'));
  env = { fs: diskPathFs, home, pwdKnown: true, globsKnown: true };
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** What bash makes of `word` in the scratch project, one word per line. */
function bash(word: string): string[] {
  const out = execFileSync('bash', ['-c', `printf '%s\\n' ${word}`], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: home },
    encoding: 'utf8',
  });
  return out.split('\n').slice(0, -1);
}

const WORDS = [
  // Brace expansion: lists, nesting, sequences, quoting, what is not an expansion.
  '{,/etc/hostname}',
  '{a,{b,c}}d',
  '{1..3}',
  '{01..03}',
  '{1..7..3}',
  '{3..1}',
  '{a..c}',
  '{-2..1}',
  '{a,"b,c"}',
  '\\{a,b\\}',
  'x{}y',
  '{a}',
  'a{,}b',
  '{a{b,c}}',
  '""{a,b}',
  // Tilde expansion, also after brace expansion; quoted tildes stay.
  '~',
  '~/x',
  '{~,x}',
  "'~'",
  '~"/x"',
  // Pathname expansion with bash's defaults.
  '.e*',
  '*.md',
  'src/*.ts',
  '*/*.ts',
  'src-link/*',
  '[.]env',
  '.?nv',
  '[!.]*',
  '*',
  'zz*',
  "'*'",
  "$'\\x2a'",
  '"src"/*',
  'src/[ab].ts',
  'src/[[:lower:]].ts',
  '{src,src-link}/a*',
];

describe('expandWord (calibrated against bash)', () => {
  it.each(WORDS)('%s', (word) => {
    const expanded = expandWord(word, dir, env);
    // The order of matches depends on the locale's collation; the set of words is what counts.
    const words = 'words' in expanded ? expanded.words.filter((w) => w !== '').sort() : expanded;
    expect(words).toEqual(bash(word).sort());
  });

  it('lets `.*` match `.` and `..` as older bash does (bash 5.2 skips them)', () => {
    const expanded = expandWord('.*', dir, env);
    const fromBash = bash('.*');
    expect('words' in expanded && expanded.words).toEqual(expect.arrayContaining([...fromBash, '.', '..']));
  });
});

describe('what cannot be expanded for sure is unknown', () => {
  it('another user, the previous folder, a changed HOME', () => {
    expect(expandWord('~root/x', dir, env)).toHaveProperty('unknown');
    expect(expandWord('~-/x', dir, env)).toHaveProperty('unknown');
    expect(expandWord('~/x', dir, { ...env, home: undefined })).toHaveProperty('unknown');
    expect(expandWord('~+/x', dir, env)).toEqual({ words: [`${dir}/x`] });
    expect(expandWord('~+/x', dir, { ...env, pwdKnown: false })).toHaveProperty('unknown');
  });

  it('globs when the line sets shell options, extended globs, relative globs in an unknown folder', () => {
    expect(expandWord('*.md', dir, { ...env, globsKnown: false })).toHaveProperty('unknown');
    expect(expandWord('!(x)', dir, env)).toHaveProperty('unknown');
    expect(expandWord('*.md', undefined, env)).toHaveProperty('unknown');
    expect(expandWord(`${dir}/READM?.md`, undefined, env)).toEqual({ words: [`${dir}/README.md`] });
  });

  it('brace expansions past the bound', () => {
    expect(expandWord('{1..100000}', dir, env)).toHaveProperty('unknown');
    expect(expandWord('{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}', dir, env)).toHaveProperty('unknown');
    expect(expandBraces(lexWord('{1..256}') ?? [])?.length).toBe(MAX_EXPANDED_WORDS);
  });

  it('keeps a glob with no match as written (nothing exists in the fake filesystem)', () => {
    expect(expandWord('src/*.ts', '/home/u/proj', { ...env, fs: emptyPathFs })).toEqual({
      words: ['src/*.ts'],
    });
  });
});
