/**
 * A deny rule on force pushes against pushes git's configuration forces, and deny rules against
 * git's aliases (git-config-spellings.ts). Each row is decided on a real repository whose scratch
 * remote `r.git` holds `main` and whose local `main` was amended since, and then run for real:
 * a blocked row must replace the remote's `main` (the calibration), a control must leave it
 * (git refuses the plain push) and pass as before.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decideCase, type Verdict } from './corpus-test-support';
import { GitConfigSafety } from './git-config-safety';
import { splitAlias } from './git-config-spellings';
import { cleanGitEnv } from './git-test-repos';

const hasGit = spawnSync('git', ['--version']).status === 0;
const base = realpathSync(mkdtempSync(join(tmpdir(), 'yoke-git-config-spellings-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));

type Row = { cmd: string; config: string[][]; expect: Verdict; forces: boolean; deny?: string };

const MIRROR = [['remote.origin.mirror', 'true']];
const PLUS = [['remote.origin.push', '+refs/heads/main:refs/heads/main']];
const FORCE_ALIAS = [['alias.pf', 'push --force']];
/** A second remote `m` on the same bare repository, mirroring. */
const OTHER_MIRROR = [
  ['remote.m.url', 'r.git'],
  ['remote.m.mirror', 'true'],
];

const ROWS: Row[] = [
  { cmd: 'git push origin', config: MIRROR, expect: 'deny', forces: true },
  // No remote on the line: git picks `origin` (no setting names another), as the decision does.
  { cmd: 'git push', config: MIRROR, expect: 'deny', forces: true },
  { cmd: 'git push origin', config: [['remote.origin.mirror', 'yes']], expect: 'deny', forces: true },
  { cmd: 'git -C . push origin', config: MIRROR, expect: 'deny', forces: true },
  { cmd: 'git push', config: [['remote.pushDefault', 'origin'], ...MIRROR], expect: 'deny', forces: true },
  {
    cmd: 'git push',
    config: [['branch.main.pushRemote', 'm'], ...OTHER_MIRROR],
    expect: 'deny',
    forces: true,
  },
  { cmd: 'git push', config: [['remote.pushDefault', 'm'], ...OTHER_MIRROR], expect: 'deny', forces: true },
  { cmd: 'git push', config: [['branch.main.remote', 'm'], ...OTHER_MIRROR], expect: 'deny', forces: true },
  { cmd: 'git push origin', config: PLUS, expect: 'deny', forces: true },
  { cmd: 'git push', config: PLUS, expect: 'deny', forces: true },
  { cmd: 'git push origin main', config: PLUS, expect: 'ask', forces: true },
  { cmd: 'git push origin', config: [['remote.origin.push', '+main']], expect: 'deny', forces: true },
  { cmd: 'git pf origin main', config: FORCE_ALIAS, expect: 'deny', forces: true },
  { cmd: "git -c 'alias.pf=push --force' pf origin main", config: [], expect: 'deny', forces: true },
  { cmd: 'git p2 origin main', config: [['alias.p2', 'pf'], ...FORCE_ALIAS], expect: 'deny', forces: true },
  {
    cmd: 'git pf origin main',
    config: [['alias.pf', '!git push --force']],
    expect: 'ask',
    forces: true,
  },
  // The same alias against a rule on another git command.
  { cmd: 'git pf origin main', config: FORCE_ALIAS, expect: 'deny', forces: true, deny: 'Bash(git push:*)' },
  // Controls: git refuses each push (the remote's `main` stays), and the rule lets it run.
  { cmd: 'git push origin main', config: [], expect: 'allow', forces: false },
  { cmd: 'git push origin main', config: MIRROR, expect: 'allow', forces: false },
  { cmd: 'git push r.git', config: MIRROR, expect: 'allow', forces: false },
  { cmd: 'git push origin', config: [['remote.origin.push', 'main']], expect: 'allow', forces: false },
  { cmd: 'git push origin', config: [['push.default', 'matching']], expect: 'allow', forces: false },
  { cmd: 'git -c push.default=matching push', config: [], expect: 'allow', forces: false },
  // git pushes to `origin` (or the remote the settings pick), not to the mirror remote `m`.
  { cmd: 'git push', config: OTHER_MIRROR, expect: 'allow', forces: false },
  {
    cmd: 'git push',
    config: [['remote.pushDefault', 'origin'], ...OTHER_MIRROR],
    expect: 'allow',
    forces: false,
  },
  {
    cmd: 'git push',
    config: [['branch.main.pushRemote', 'origin'], ['remote.pushDefault', 'm'], ...OTHER_MIRROR],
    expect: 'allow',
    forces: false,
  },
  { cmd: 'git status', config: FORCE_ALIAS, expect: 'allow', forces: false },
  { cmd: 'git lg', config: [['alias.lg', 'log --oneline']], expect: 'allow', forces: false },
];

let counter = 0;
/** A repository whose remote `r.git` holds `main`, the local `main` amended since. */
function pushedThenAmended(config: readonly string[][]): { dir: string; env: Record<string, string> } {
  const dir = join(base, String(counter++));
  mkdirSync(join(dir, 'home'), { recursive: true });
  const env = { ...cleanGitEnv(join(dir, 'home')), GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@example.com' };
  Object.assign(env, { GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@example.com' });
  const work = join(dir, 'work');
  mkdirSync(work);
  writeFileSync(join(work, 'x'), 'x\n');
  const script = [
    'git init -q -b main',
    'git add x',
    'git commit -qm init',
    'git init -q --bare r.git',
    'git remote add origin r.git',
    'git push -q origin main',
    'git commit -q --amend -m rewritten',
    ...config.map(([key, value]) => `git config '${key}' '${value}'`),
  ].join(' && ');
  execFileSync('bash', ['-c', script], { cwd: work, env });
  return { dir: work, env };
}

const remoteMain = (work: string) => readFileSync(join(work, 'r.git/refs/heads/main'), 'utf8');

describe.skipIf(!hasGit)('deny rules against what git configuration makes a line run', () => {
  it.each(ROWS.map((row) => [`${row.cmd} with ${JSON.stringify(row.config)} → ${row.expect}`, row] as const))(
    '%s',
    async (_, row) => {
      const { dir, env } = pushedThenAmended(row.config);
      const decided = await decideCase(
        {
          cmd: row.cmd,
          deny: [row.deny ?? 'Bash(git push --force:*)'],
          mode: 'bypassPermissions',
          expect: row.expect,
        },
        { projectRoot: dir, cwd: dir, gitConfig: new GitConfigSafety({ env }) },
      );
      expect(decided.verdict).toBe(row.expect);
      // The calibration: run for real, the remote's `main` is replaced exactly when the row forces.
      const before = remoteMain(dir);
      spawnSync('bash', ['-c', row.cmd], { cwd: dir, env, stdio: 'ignore' });
      expect(remoteMain(dir) !== before, 'the remote ref was replaced').toBe(row.forces);
    },
  );

  it('says which setting forces the push, in which file', async () => {
    const { dir, env } = pushedThenAmended(MIRROR);
    const include = join(dir, '..', 'inc');
    writeFileSync(include, '[remote "origin"]\n\tmirror = true\n');
    execFileSync('git', ['config', '--unset', 'remote.origin.mirror'], { cwd: dir, env });
    execFileSync('git', ['config', 'include.path', include], { cwd: dir, env });
    const canUse = { projectRoot: dir, cwd: dir, gitConfig: new GitConfigSafety({ env }) };
    const c = { cmd: 'git push origin', deny: ['Bash(git push -f:*)'], mode: 'bypassPermissions' as const };
    expect((await decideCase({ ...c, expect: 'deny' }, canUse)).verdict).toBe('deny');
    const denied = await decideCase({ ...c, cmd: 'git push', expect: 'deny' }, canUse);
    expect(denied.verdict).toBe('deny');
    const allowed = {
      ...c,
      cmd: 'git push',
      deny: [],
      allow: ['Bash(git push:*)'],
      mode: 'default' as const,
    };
    const asked = await decideCase({ ...allowed, expect: 'ask' }, canUse);
    expect(asked.question).toContain(
      "git push may force-update the remote's refs: no setting names a remote, so git pushes to `origin`, and",
    );
    expect(asked.question).toContain(`\`remote.origin.mirror\` (in ${include})`);
  });

  it('a push the configuration forces is destructive under a broad allow rule; a plain one is not', async () => {
    const forced = pushedThenAmended(OTHER_MIRROR.concat([['branch.main.pushRemote', 'm']]));
    const plain = pushedThenAmended(OTHER_MIRROR);
    const c = { cmd: 'git push', allow: ['Bash(git push:*)'], expect: 'ask' as const };
    const at = (repo: { dir: string; env: Record<string, string> }) => ({
      projectRoot: repo.dir,
      cwd: repo.dir,
      gitConfig: new GitConfigSafety({ env: repo.env }),
    });
    const asked = await decideCase(c, at(forced));
    expect(asked.verdict).toBe('ask');
    expect(asked.question).toContain('`branch.main.pushremote = m`');
    expect((await decideCase({ ...c, expect: 'allow' }, at(plain))).verdict).toBe('allow');
  });
});

describe.skipIf(!hasGit)('deny rules against an alias that runs a program', () => {
  it('asks for an alias whose written-out line names a program; an alias that names none runs', async () => {
    // Calibrated: `git x HEAD~1` with alias.x = rebase --exec=touch\ pwned created pwned.
    const { dir, env } = pushedThenAmended([
      ['alias.x', 'rebase --exec=touch\\ pwned'],
      ['alias.lg', 'log -1'],
    ]);
    execFileSync('git', ['commit', '-q', '--allow-empty', '-m', 'second'], { cwd: dir, env });
    const at = { projectRoot: dir, cwd: dir, gitConfig: new GitConfigSafety({ env }) };
    const c = { deny: ['Bash(touch:*)'], mode: 'bypassPermissions' as const };
    const asked = await decideCase({ ...c, cmd: 'git x HEAD~1', expect: 'ask' }, at);
    expect(asked.verdict).toBe('ask');
    expect(asked.question).toContain('`git x` is the alias `rebase --exec');
    expect(asked.question).toContain('git rebase --exec=touch pwned runs the command it is given');
    expect(asked.question).not.toContain('force-update');
    expect((await decideCase({ ...c, cmd: 'git lg', expect: 'allow' }, at)).verdict).toBe('allow');
    spawnSync('git', ['x', 'HEAD~1'], { cwd: dir, env, stdio: 'ignore' });
    expect(existsSync(join(dir, 'pwned'))).toBe(true);
  });
});

describe('splitAlias', () => {
  it('splits as git does, quotes and backslashes included', () => {
    expect(splitAlias('push --force')).toEqual(['push', '--force']);
    expect(splitAlias(`log "--format=%h %s" 'a b' c\\ d`)).toEqual(['log', '--format=%h %s', 'a b', 'c d']);
    expect(splitAlias('log "open')).toBeUndefined();
  });
});
