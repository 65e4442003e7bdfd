/**
 * Calibration of both defences against a planted repository, key by key, with git itself: each
 * row plants one thing, proves that a read-only git command runs the planted program (the marker
 * appears), records whether the neutral environment alone stops it, and checks that the
 * configuration check refuses the repository with a reason naming what it found.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GitConfigSafety } from './git-config-safety';
import { neutralGitEnv } from './git-neutral-env';
import { makePlantedRepo, type PlantedRepo } from './git-test-repos';

const has = (program: string) => spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;
const scratch = mkdtempSync(join(tmpdir(), 'yoke-gitcal-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Row = {
  planted: string;
  plant: (repo: PlantedRepo) => void;
  /** The read-only command, run by bash in `cwd` (relative to the work tree). */
  command: string;
  cwd?: string;
  /** Whether the neutral environment alone keeps the planted program from running. */
  neutralStops: boolean;
  refusal: RegExp;
  needs?: string[];
};

const attributes = (repo: PlantedRepo, line: string) => repo.write('.gitattributes', `${line}\n`);

/** A commit with a signature block, so that showing it runs the signature program. */
function signedCommit(repo: PlantedRepo): void {
  const tree = repo.git('rev-parse', 'HEAD^{tree}').trim();
  const parent = repo.git('rev-parse', 'HEAD').trim();
  const body =
    `tree ${tree}\nparent ${parent}\nauthor n <a@example.invalid> 1 +0000\ncommitter n <a@example.invalid> 1 +0000\n` +
    'gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\nsigned\n';
  repo.write('commit.txt', body);
  const id = repo.git('hash-object', '-t', 'commit', '-w', 'commit.txt').trim();
  repo.git('update-ref', 'HEAD', id);
}

/** An embedded bare repository inside the project, as plain files git discovers from inside it. */
function embeddedBare(repo: PlantedRepo): void {
  repo.git('clone', '-q', '--bare', '.', 'vendor/evil.git');
}

/** A gitlink and a nested repository at `sub` (no .gitmodules needed for status to descend). */
function nestedRepository(repo: PlantedRepo, config: (sub: (...args: string[]) => void) => void): void {
  repo.write('sub/x', 'x\n');
  const sub = (...args: string[]) =>
    execFileSync('git', args, { cwd: join(repo.work, 'sub'), env: repo.env });
  sub('init', '-q', '.');
  sub('-c', 'user.email=a@b', '-c', 'user.name=n', 'add', 'x');
  sub('-c', 'user.email=a@b', '-c', 'user.name=n', 'commit', '-qm', 's');
  const id = execFileSync('git', ['rev-parse', 'HEAD'], {
    cwd: join(repo.work, 'sub'),
    env: repo.env,
    encoding: 'utf8',
  }).trim();
  repo.git('update-index', '--add', '--cacheinfo', `160000,${id},sub`);
  repo.git('commit', '-qm', 'sub');
  config(sub);
  repo.write('sub/x', 'y\n');
}

const ROWS: Row[] = [
  {
    planted: 'core.fsmonitor',
    plant: (r) => r.git('config', 'core.fsmonitor', `${r.touch}; false`),
    command: 'git status',
    neutralStops: true,
    refusal: /`core\.fsmonitor`/,
  },
  {
    planted: 'core.fsmonitor (git diff)',
    plant: (r) => r.git('config', 'core.fsmonitor', `${r.touch}; false`),
    command: 'git diff',
    neutralStops: true,
    refusal: /`core\.fsmonitor`/,
  },
  {
    planted: 'core.fsmonitor (git ls-files)',
    plant: (r) => r.git('config', 'core.fsmonitor', `${r.touch}; false`),
    command: 'git ls-files',
    neutralStops: true,
    refusal: /`core\.fsmonitor`/,
  },
  {
    planted: 'a post-index-change hook in .git/hooks',
    plant: (r) => r.script('.git/hooks/post-index-change'),
    command: 'git status',
    neutralStops: true,
    refusal: /post-index-change hook/,
  },
  {
    planted: 'a post-index-change hook (git describe --dirty)',
    plant: (r) => r.script('.git/hooks/post-index-change'),
    command: 'git describe --dirty --always',
    neutralStops: true,
    refusal: /post-index-change hook/,
  },
  {
    planted: 'core.hooksPath with a post-index-change hook',
    plant: (r) => {
      r.script('hooks/post-index-change');
      r.git('config', 'core.hooksPath', 'hooks');
    },
    command: 'git status',
    neutralStops: true,
    refusal: /post-index-change hook/,
  },
  {
    planted: 'core.pager',
    plant: (r) => r.git('config', 'core.pager', `${r.touch}; cat`),
    command: 'script -qec "git log" /dev/null',
    neutralStops: true,
    refusal: /`core\.pager`/,
    needs: ['script'],
  },
  {
    planted: 'pager.log',
    plant: (r) => r.git('config', 'pager.log', `${r.touch}; cat`),
    command: 'script -qec "git log" /dev/null',
    neutralStops: true,
    refusal: /`pager\.log`/,
    needs: ['script'],
  },
  {
    planted: 'include.path naming a file with core.fsmonitor',
    plant: (r) => {
      r.write('included', `[core]\n\tfsmonitor = "${r.touch}; false"\n`);
      r.git('config', 'include.path', '../included');
    },
    command: 'git status',
    neutralStops: true,
    refusal: /`include\.path`/,
  },
  {
    planted: 'diff.external',
    plant: (r) => r.git('config', 'diff.external', `${r.touch}; true`),
    command: 'git diff',
    neutralStops: false,
    refusal: /`diff\.external`/,
  },
  {
    planted: 'diff.<driver>.textconv (git diff)',
    plant: (r) => {
      r.git('config', 'diff.x.textconv', `${r.touch}; cat`);
      attributes(r, '*.txt diff=x');
    },
    command: 'git diff',
    neutralStops: false,
    refusal: /`diff\.x\.textconv`/,
  },
  {
    planted: 'diff.<driver>.textconv (git log -p, git show)',
    plant: (r) => {
      r.git('config', 'diff.x.textconv', `${r.touch}; cat`);
      attributes(r, '*.txt diff=x');
      r.git('add', '.');
      r.git('commit', '-qm', 'attributes');
    },
    command: 'git log -p -1 >/dev/null; git show >/dev/null',
    neutralStops: false,
    refusal: /`diff\.x\.textconv`/,
  },
  {
    planted: 'diff.<driver>.command',
    plant: (r) => {
      r.git('config', 'diff.x.command', `${r.touch}; true`);
      attributes(r, '*.txt diff=x');
    },
    command: 'git diff',
    neutralStops: false,
    refusal: /`diff\.x\.command`/,
  },
  {
    planted: 'filter.<name>.clean',
    plant: (r) => {
      r.git('config', 'filter.x.clean', `${r.touch}; cat`);
      attributes(r, '*.txt filter=x');
    },
    command: 'git status',
    neutralStops: false,
    refusal: /`filter\.x\.clean`/,
  },
  {
    planted: 'filter.<name>.process',
    plant: (r) => {
      r.git('config', 'filter.x.process', `${r.touch}; false`);
      attributes(r, '*.txt filter=x');
    },
    command: 'git status',
    neutralStops: false,
    refusal: /`filter\.x\.process`/,
  },
  {
    planted: 'gpg.program with log.showSignature',
    plant: (r) => {
      r.git('config', 'gpg.program', r.script('gpg.sh'));
      r.git('config', 'log.showSignature', 'true');
      signedCommit(r);
    },
    command: 'git log -1',
    neutralStops: false,
    refusal: /`gpg\.program`/,
  },
  {
    planted: 'an embedded bare repository with core.pager',
    plant: (r) => {
      embeddedBare(r);
      execFileSync('git', ['config', 'core.pager', `${r.touch}; cat`], {
        cwd: join(r.work, 'vendor/evil.git'),
        env: r.env,
      });
    },
    command: 'script -qec "git log" /dev/null',
    cwd: 'vendor/evil.git',
    neutralStops: true,
    refusal: /`core\.pager`/,
    needs: ['script'],
  },
  {
    planted: 'an embedded bare repository with a textconv in info/attributes',
    plant: (r) => {
      embeddedBare(r);
      const bare = join(r.work, 'vendor/evil.git');
      execFileSync('git', ['config', 'diff.x.textconv', `${r.touch}; cat`], { cwd: bare, env: r.env });
      r.write('vendor/evil.git/info/attributes', '*.txt diff=x\n');
    },
    command: 'git log -p -1',
    cwd: 'vendor/evil.git/objects',
    neutralStops: true,
    refusal: /`diff\.x\.textconv`/,
  },
  {
    planted: 'a submodule repository with core.fsmonitor',
    plant: (r) => nestedRepository(r, (sub) => sub('config', 'core.fsmonitor', `${r.touch}; false`)),
    command: 'git status',
    neutralStops: true,
    refusal: /nested repository .*`core\.fsmonitor`/,
  },
  {
    planted: 'a submodule repository with a clean filter',
    plant: (r) =>
      nestedRepository(r, (sub) => {
        sub('config', 'filter.x.clean', `${r.touch}; cat`);
        r.write('sub/.gitattributes', '* filter=x\n');
      }),
    command: 'git status',
    neutralStops: false,
    refusal: /nested repository .*`filter\.x\.clean`/,
  },
];

function runs(repo: PlantedRepo, row: Row, env: Record<string, string | undefined>): boolean {
  rmSync(repo.marker, { force: true });
  spawnSync('bash', ['-c', row.command], {
    cwd: join(repo.work, row.cwd ?? '.'),
    env,
    stdio: ['ignore', 'ignore', 'ignore'],
    timeout: 20_000,
  });
  return existsSync(repo.marker);
}

describe.skipIf(!has('git'))('a planted repository configuration, calibrated with git', () => {
  ROWS.forEach((row, index) => {
    // Skipped only where a program is truly absent, and the name says which (.ci/run installs them).
    const absent = (row.needs ?? []).filter((program) => !has(program));
    const name = absent.length > 0 ? `${row.planted} (needs ${absent.join(', ')})` : row.planted;
    it.skipIf(absent.length > 0)(name, async () => {
      const repo = makePlantedRepo(join(scratch, `row-${index}`));
      row.plant(repo);
      expect(runs(repo, row, repo.env), 'the planted program runs').toBe(true);
      expect(runs(repo, row, neutralGitEnv(repo.env)), 'the neutral environment').toBe(!row.neutralStops);
      const verdict = await new GitConfigSafety({ env: repo.env }).check(join(repo.work, row.cwd ?? '.'));
      expect(verdict.harmless).toBe(false);
      if (!verdict.harmless) expect(verdict.reason).toMatch(row.refusal);
    });
  });
});
