/**
 * Absolute deny rules in a real git worktree: calibrated in test/e2e/worktree.test.ts, where a
 * worker with `isolation: worktree` read `sec/key.env` through its copy although
 * `Read(//<repo>/sec/**)` denied it (the secret reached the model).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CorpusCase, decideCase } from './corpus-test-support';
import { diskPathFs } from './real-paths';
import { parseRule } from './rule-string';
import { KnownCopies, mainWorkingCopyOf, withWorktreeCopies } from './worktree-copies';

let top: string;
let repo: string;
let copy: string;
const home = '/home/u';

beforeAll(() => {
  top = realpathSync(mkdtempSync(join(tmpdir(), 'yoke-wt-copies-')));
  repo = join(top, 'repo');
  copy = join(top, 'repo/.yoke/worktrees/agent-1');
  mkdirSync(join(repo, 'sec'), { recursive: true });
  writeFileSync(join(repo, 'sec/key.env'), 'k');
  writeFileSync(join(repo, 'README.md'), 'r');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=a@b.invalid', '-c', 'user.name=n', ...args], {
      cwd: repo,
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: top },
    });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'init');
  git('worktree', 'add', '-q', '-b', 'agent-1', copy);
  // A folder that claims to be a worktree of the repository, without git's link back.
  mkdirSync(join(top, 'planted'));
  writeFileSync(join(top, 'planted/.git'), `gitdir: ${repo}/.git/worktrees/agent-1\n`);
  symlinkSync(repo, join(top, 'link'));
});
afterAll(() => rmSync(top, { recursive: true, force: true }));

const rule = (
  text: string,
  behavior: 'deny' | 'ask' | 'allow' = 'deny',
  source = 'userSettings' as const,
) => {
  const parsed = parseRule(text, behavior, source);
  if (!parsed) throw new Error(text);
  return parsed;
};
const twins = (text: string, behavior?: 'deny' | 'ask' | 'allow') =>
  withWorktreeCopies([rule(text, behavior)], { projectRoot: copy, home })
    .slice(1)
    .map((r) => r.ruleContent);

describe('mainWorkingCopyOf', () => {
  it("finds a linked worktree's main working copy from git's files, both ways", () => {
    expect(mainWorkingCopyOf(copy)).toBe(repo);
    expect(mainWorkingCopyOf(repo)).toBeUndefined();
    expect(mainWorkingCopyOf(join(top, 'planted'))).toBeUndefined();
    expect(mainWorkingCopyOf(join(top, 'nowhere'))).toBeUndefined();
  });
});

describe('withWorktreeCopies', () => {
  it('maps absolute Read and Edit deny and ask rules onto the worktree', () => {
    expect(twins(`Read(/${repo}/sec/**)`)).toEqual([`/${copy}/sec/**`]);
    // A literal path keeps its folder-covering form: `key.env/**` is `key.env` and what is below.
    expect(twins(`Edit(/${repo}/sec/key.env)`)).toEqual([`/${copy}/sec/key.env/**`]);
    expect(twins(`Read(/${repo}/**/*.env)`, 'ask')).toEqual([`/${copy}/**/*.env`]);
    // A rule above the repository keeps what applies below it.
    expect(twins(`Read(/${top}/*/sec/**)`)).toEqual([`/${copy}/sec/**`]);
    expect(twins(`Read(/${top}/**)`)).toEqual([`/${copy}/**`]);
  });

  it('leaves alone rules that follow the worktree already, allow rules, and rules elsewhere', () => {
    expect(twins('Read(./sec/**)')).toEqual([]);
    expect(twins('Read(.env)')).toEqual([]);
    expect(twins(`Read(/${repo}/sec/**)`, 'allow')).toEqual([]);
    expect(twins('Read(//etc/**)')).toEqual([]);
    expect(twins(`Read(/${top}/other/**)`)).toEqual([]);
    expect(
      withWorktreeCopies([rule(`Read(/${repo}/sec/**)`)], { projectRoot: join(top, 'planted'), home }),
    ).toHaveLength(1);
  });
});

describe('other spellings and other copies', () => {
  it('maps a rule written through a symlinked spelling of the repository', () => {
    expect(twins(`Read(/${top}/link/sec/**)`)).toEqual([`/${copy}/sec/**`]);
    // Control: a symlinked spelling of a folder outside the repository maps nothing.
    expect(twins(`Read(/${top}/link/../other/**)`)).toEqual([]);
  });

  it("maps onto a known copy (a WorktreeCreate hook's folder) and the project's linked worktrees", () => {
    const copies = new KnownCopies();
    const hookCopy = join(top, 'planted');
    expect(copies.add(hookCopy, repo)).toBe(true);
    const mapped = (projectRoot: string) =>
      withWorktreeCopies([rule(`Read(/${repo}/sec/**)`)], { projectRoot, home, copies })
        .slice(1)
        .map((r) => r.ruleContent);
    expect(mapped(hookCopy)).toEqual([`/${copy}/sec/**`, `/${hookCopy}/sec/**`]);
    // From the main working copy too: a call there reaches the copies' files.
    expect(mapped(repo)).toEqual([`/${copy}/sec/**`, `/${hookCopy}/sec/**`]);
    copies.remove(hookCopy);
    // The folder is no copy then; `planted` names no worktree git links back.
    expect(mapped(hookCopy)).toEqual([]);
  });

  it('refuses a "copy" that is the project or holds it: twins there would cover its neighbours', () => {
    const copies = new KnownCopies();
    expect(copies.add(repo, repo)).toBe(false);
    expect(copies.add(top, repo)).toBe(false);
    expect(copies.add('/', repo)).toBe(false);
    expect(copies.entries()).toEqual([]);
  });
});

describe('decisions in the main working copy', () => {
  it("deny a linked worktree's copy reached from the main working copy (a kept agent worktree)", async () => {
    const decide = (c: CorpusCase) =>
      decideCase({ source: 'userSettings', ...c }, { fs: diskPathFs, projectRoot: repo, cwd: repo, home });
    const inCopy = join(copy, 'sec/key.env');
    expect(
      (
        await decide({
          tool: 'Read',
          input: { file_path: inCopy },
          deny: [`Read(/${repo}/sec/**)`],
          expect: 'deny',
        })
      ).verdict,
    ).toBe('deny');
    expect(
      (
        await decide({
          cmd: 'cat .yoke/worktrees/agent-1/sec/key.env',
          deny: [`Read(/${repo}/sec/**)`],
          expect: 'deny',
        })
      ).verdict,
    ).toBe('deny');
    // Control: the copy's other files stay readable.
    expect(
      (
        await decide({
          cmd: 'cat .yoke/worktrees/agent-1/README.md',
          deny: [`Read(/${repo}/sec/**)`],
          expect: 'allow',
        })
      ).verdict,
    ).toBe('allow');
  });
});

describe('decisions in the worktree', () => {
  const decide = (c: CorpusCase) =>
    decideCase({ source: 'userSettings', ...c }, { fs: diskPathFs, projectRoot: copy, cwd: copy, home });

  it("deny the worktree's copy of what an absolute rule denies, naming the rule as written", async () => {
    expect(
      (
        await decide({
          tool: 'Read',
          input: { file_path: join(copy, 'sec/key.env') },
          deny: [`Read(/${repo}/sec/**)`],
          expect: 'deny',
        })
      ).verdict,
    ).toBe('deny');
    expect(
      (await decide({ cmd: 'cat sec/key.env', deny: [`Read(/${repo}/sec/**)`], expect: 'deny' })).verdict,
    ).toBe('deny');
    expect(
      (
        await decide({
          cmd: 'echo x >> sec/key.env',
          deny: [`Edit(/${repo}/sec/**)`],
          mode: 'acceptEdits',
          expect: 'deny',
        })
      ).verdict,
    ).toBe('deny');
  });

  it('controls: other files of the worktree, and the same name outside it', async () => {
    expect(
      (await decide({ cmd: 'cat README.md', deny: [`Read(/${repo}/sec/**)`], expect: 'allow' })).verdict,
    ).toBe('allow');
    expect(
      (
        await decide({
          tool: 'Read',
          input: { file_path: join(copy, 'README.md') },
          deny: [`Read(/${repo}/sec/**)`],
          expect: 'allow',
        })
      ).verdict,
    ).toBe('allow');
    expect(
      (
        await decide({
          tool: 'Read',
          input: { file_path: join(top, 'elsewhere/sec/key.env') },
          deny: [`Read(/${repo}/sec/**)`],
          allow: [`Read(/${top}/**)`],
          expect: 'allow',
        })
      ).verdict,
    ).toBe('allow');
  });
});
