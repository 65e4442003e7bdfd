/**
 * Calibration of the environment denylist with the real programs: each row plants a file, runs a
 * harmless-looking command once without the variable (nothing happens) and once with it (the
 * planted code runs and leaves the marker M, or the planted data shows in the output), and
 * checks that the table refuses the variable. The shared objects for the loader rows are compiled
 * here with gcc; .ci/run must provide it so CI never skips them.
 */

import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withCalibrationTools } from '../../permissions/calibration-tools';
import { builtinReason } from './builtin-evaluation';
import { dangerousEnvReason, isSafeEnvAssignment } from './env-vars';
import type { ShellWord } from './types';
import { literalWord } from './words';

// `rg` is the ripgrep Yoke ships, `fd` Debian's fdfind (calibration-tools.ts).
process.env.PATH = withCalibrationTools();

const has = (program: string) => spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;
const word = (value: string): ShellWord => literalWord(value);

/** A constructor that leaves the marker when the object is loaded, and an audit entry point. */
const PLANTED_C = `#include <fcntl.h>
#include <unistd.h>
__attribute__((constructor)) static void planted(void) { close(creat("M", 0644)); }
unsigned int la_version(unsigned int v) { close(creat("M", 0644)); return v; }
`;

type Row = {
  variable: string;
  /** Key words of the reason the denylist must give (the variable's family). */
  because: string;
  value: (dir: string) => string;
  /** Files to plant, by path relative to the scratch folder; `#!` files are made executable. */
  files?: (dir: string) => Record<string, string>;
  /** Runs before the command (e.g. `git init`), in the scratch folder. */
  prepare?: string;
  command: string;
  /** Variables the attack needs besides the one under test (present in both runs). */
  extraEnv?: (dir: string) => Record<string, string>;
  needs: string[];
  /** The planted data shows in the output instead of a marker file. */
  output?: RegExp;
  /** bash ignores PS4 from the environment when run as root: run the row as `nobody` then. */
  unprivileged?: true;
};

// The key words of each family's reason in env-vars.ts: a row refused for the wrong reason fails.
const LOADER = 'makes the dynamic loader or the C library load other code';
const CONFIG = 'points the program at configuration that can name programs to run';
const CONFIG_DIRS = 'moves the configuration directories programs (git among them) read';
const GIT = 'changes the repository, configuration or helper programs git uses';
const HELPER = 'names a helper program';
const SHELL = 'changes what the shell runs at start-up or which program a name finds';
const INTERPRETER = 'changes which code an interpreter, compiler or build tool loads';
const C_LIBRARY_FILE = 'names a file the C library loads';

const REPO =
  'git init -q . && git config user.email a@b && git config user.name n && echo a > f.txt && git add f.txt && git commit -qm init && echo b > f.txt';
const FSMONITOR = '[core]\n\tfsmonitor = "touch M; false"\n';

const ROWS: Row[] = [
  { variable: 'LD_PRELOAD', because: LOADER, value: (d) => `${d}/evil.so`, command: 'ls', needs: ['gcc'] },
  { variable: 'LD_AUDIT', because: LOADER, value: (d) => `${d}/evil.so`, command: 'ls', needs: ['gcc'] },
  {
    variable: 'GCONV_PATH',
    because: LOADER,
    value: (d) => `${d}/gconv`,
    files: () => ({
      'gconv/gconv-modules': 'module EVIL// INTERNAL EVIL 1\nmodule INTERNAL EVIL// EVIL 1\n',
    }),
    prepare: 'cp evil.so gconv/EVIL.so',
    command: 'iconv -f EVIL -t UTF-8 /dev/null',
    needs: ['gcc', 'iconv'],
  },
  {
    variable: 'OPENSSL_CONF',
    because: CONFIG,
    value: (d) => `${d}/openssl.cnf`,
    files: (d) => ({
      'openssl.cnf': `openssl_conf = init\n[init]\nengines = e\n[e]\nevil = ev\n[ev]\ndynamic_path = ${d}/evil.so\n`,
    }),
    command: 'openssl version',
    needs: ['gcc', 'openssl'],
  },
  {
    variable: 'XDG_CONFIG_HOME',
    because: CONFIG_DIRS,
    value: (d) => `${d}/cfg`,
    files: () => ({ 'cfg/git/config': FSMONITOR }),
    prepare: REPO,
    command: 'git status',
    needs: ['git'],
  },
  {
    variable: 'HOME',
    because: CONFIG,
    value: (d) => `${d}/planted-home`,
    files: () => ({ 'planted-home/.gitconfig': FSMONITOR }),
    prepare: REPO,
    command: 'git status',
    needs: ['git'],
  },
  {
    variable: 'GIT_CONFIG_GLOBAL',
    because: GIT,
    value: (d) => `${d}/gitconfig`,
    files: () => ({ gitconfig: FSMONITOR }),
    prepare: REPO,
    command: 'git status',
    needs: ['git'],
  },
  {
    variable: 'GIT_EXTERNAL_DIFF',
    because: GIT,
    value: () => 'touch M; true',
    prepare: REPO,
    command: 'git diff',
    needs: ['git'],
  },
  {
    variable: 'GIT_SSH_COMMAND',
    because: GIT,
    value: () => 'touch M; false',
    prepare: REPO,
    command: 'git ls-remote ssh://example.invalid/x',
    needs: ['git'],
  },
  {
    variable: 'GIT_PAGER',
    because: GIT,
    value: () => 'touch M; cat',
    prepare: REPO,
    command: 'script -qec "git log" /dev/null',
    needs: ['git', 'script'],
  },
  {
    variable: 'PAGER',
    because: HELPER,
    value: () => 'touch M; cat',
    prepare: REPO,
    command: 'script -qec "git log" /dev/null',
    needs: ['git', 'script'],
  },
  {
    variable: 'EDITOR',
    because: HELPER,
    value: () => 'touch M; true',
    prepare: REPO,
    command: 'git commit --allow-empty',
    needs: ['git'],
  },
  {
    variable: 'LESSOPEN',
    because: HELPER,
    value: () => '|touch M; cat %s',
    files: () => ({ 'f.txt': 'hello\n' }),
    command: 'less f.txt',
    needs: ['less'],
  },
  {
    variable: 'BASH_ENV',
    because: SHELL,
    value: (d) => `${d}/startup.sh`,
    files: () => ({ 'startup.sh': 'touch M\n' }),
    command: 'bash -c :',
    needs: ['bash'],
  },
  {
    variable: 'SHELLOPTS',
    because: SHELL,
    value: () => 'xtrace',
    extraEnv: () => ({ PS4: '$(touch M)' }),
    command: 'bash -c :',
    needs: ['bash'],
    unprivileged: true,
  },
  {
    variable: 'PS4',
    because: SHELL,
    value: () => '$(touch M)',
    extraEnv: () => ({ SHELLOPTS: 'xtrace' }),
    command: 'bash -c :',
    needs: ['bash'],
    unprivileged: true,
  },
  {
    variable: 'BASH_FUNC_ls%%',
    because: SHELL,
    value: () => '() { touch M; }',
    command: 'bash -c ls',
    needs: ['bash'],
  },
  {
    variable: 'PATH',
    because: SHELL,
    value: (d) => `${d}/bin:${process.env.PATH ?? '/usr/bin:/bin'}`,
    files: () => ({ 'bin/ls': '#!/bin/sh\ntouch M\n' }),
    command: 'ls',
    needs: [],
  },
  {
    variable: 'NODE_OPTIONS',
    because: INTERPRETER,
    value: (d) => `--require=${d}/planted.cjs`,
    files: () => ({ 'planted.cjs': "require('node:fs').writeFileSync('M', '');\n" }),
    command: 'node -e 0',
    needs: ['node'],
  },
  {
    variable: 'PYTHONPATH',
    because: INTERPRETER,
    value: (d) => `${d}/py`,
    files: () => ({ 'py/json.py': "open('M', 'w').close()\n" }),
    command: 'python3 -c "import json"',
    needs: ['python3'],
  },
  {
    variable: 'PERL5OPT',
    because: INTERPRETER,
    value: (d) => `-I${d}/pl -Mplanted`,
    files: () => ({ 'pl/planted.pm': "package planted; open(my $f, '>', 'M'); 1;\n" }),
    command: 'perl -e 1',
    needs: ['perl'],
  },
  {
    variable: 'RIPGREP_CONFIG_PATH',
    because: CONFIG,
    value: (d) => `${d}/rgrc`,
    files: (d) => ({
      rgrc: `--pre=${d}/pre.sh\n`,
      'pre.sh': '#!/bin/sh\ntouch M\ncat "$1"\n',
      'f.txt': 'hello\n',
    }),
    command: 'rg hello f.txt',
    needs: ['rg'],
  },
  {
    variable: 'TAR_OPTIONS',
    because: CONFIG,
    value: () => '--checkpoint=1 --checkpoint-action=exec="touch M"',
    files: () => ({ 'f.txt': 'hello\n' }),
    command: 'tar -cf /dev/null f.txt',
    needs: ['tar'],
  },
  {
    // gettext takes a language name with `/` as a path: the catalog's format strings are planted.
    variable: 'LANGUAGE',
    because: C_LIBRARY_FILE,
    value: (d) => `../../../../../../../../../..${d}/catalog`,
    files: () => ({
      'catalog.po':
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n' +
        'msgid "Usage: %s [OPTION]... PATTERNS [FILE]...\\n"\nmsgstr "PLANTED CATALOG %s\\n"\n',
    }),
    prepare: 'mkdir -p catalog/LC_MESSAGES && msgfmt -o catalog/LC_MESSAGES/grep.mo catalog.po',
    extraEnv: () => ({ LC_ALL: 'C.UTF-8' }),
    command: 'grep --help',
    needs: ['grep', 'msgfmt'],
    output: /PLANTED CATALOG/,
  },
  {
    // glibc reads a TZ value that is a path as the zone file.
    variable: 'TZ',
    because: C_LIBRARY_FILE,
    value: (d) => `${d}/zone`,
    prepare: 'cp /usr/share/zoneinfo/Asia/Tokyo zone',
    command: 'date +%z',
    needs: ['date'],
    output: /\+0900/,
  },
];

const scratch = mkdtempSync(join(tmpdir(), 'yoke-env-'));
// The unprivileged rows run as `nobody`, who must reach its row folder.
chmodSync(scratch, 0o711);
const gcc = has('gcc');
beforeAll(() => {
  if (!gcc) return;
  writeFileSync(join(scratch, 'evil.c'), PLANTED_C);
  execFileSync('gcc', ['-shared', '-fPIC', '-o', join(scratch, 'evil.so'), join(scratch, 'evil.c')]);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A clean environment: no user git config, no editor, no pager, an empty home. */
function baseEnv(dir: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: join(dir, 'home'),
    GIT_CONFIG_NOSYSTEM: '1',
    TERM: 'dumb',
  };
}

function setUp(row: Pick<Row, 'files' | 'prepare'>, index: number): string {
  const dir = join(scratch, `row-${index}`);
  mkdirSync(join(dir, 'home'), { recursive: true });
  if (gcc) copyFileSync(join(scratch, 'evil.so'), join(dir, 'evil.so'));
  for (const [path, content] of Object.entries(row.files?.(dir) ?? {})) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
    if (content.startsWith('#!')) chmodSync(join(dir, path), 0o755);
  }
  if (row.prepare)
    execFileSync('bash', ['-c', row.prepare], { cwd: dir, env: baseEnv(dir), stdio: 'ignore' });
  return dir;
}

/** Runs the command; true when the planted code or data took effect. */
function takesEffect(row: Row, dir: string, withVariable: boolean): boolean {
  rmSync(join(dir, 'M'), { force: true });
  const env = { ...baseEnv(dir), ...row.extraEnv?.(dir) };
  if (withVariable) env[row.variable] = row.value(dir);
  // stdin is /dev/null, as in the Bash tool: with a socket there (Node's default pipe) bash
  // thinks sshd started it and reads ~/.bashrc instead of BASH_ENV.
  const asNobody = row.unprivileged && process.getuid?.() === 0;
  if (asNobody) chmodSync(dir, 0o777);
  const argv = asNobody
    ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', 'bash', '-c', row.command]
    : ['bash', '-c', row.command];
  const run = spawnSync(argv[0] as string, argv.slice(1), {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    timeout: 20_000,
  });
  if (row.output) return row.output.test(`${run.stdout}${run.stderr}`);
  return existsSync(join(dir, 'M'));
}

function missing(row: Row): string[] {
  const needs = [...row.needs];
  if (row.unprivileged && process.getuid?.() === 0) needs.push('setpriv');
  const absent = needs.filter((program) => !has(program));
  if (row.variable === 'TZ' && !existsSync('/usr/share/zoneinfo/Asia/Tokyo')) absent.push('tzdata');
  return absent;
}

describe('environment variables that change which code runs, calibrated', () => {
  ROWS.forEach((row, index) => {
    // Skipped only where a program is truly absent, and the name says which (.ci/run installs them).
    const absent = missing(row);
    const name = absent.length > 0 ? `${row.variable} (needs ${absent.join(', ')})` : row.variable;
    it.skipIf(absent.length > 0)(name, () => {
      const dir = setUp(row, index);
      expect(takesEffect(row, dir, false)).toBe(false);
      expect(takesEffect(row, dir, true)).toBe(true);
      const value = word(row.value(dir));
      const reason = dangerousEnvReason(row.variable, value);
      expect(reason?.startsWith(`${row.variable}=`), reason).toBe(true);
      expect(reason).toContain(row.because);
      expect(isSafeEnvAssignment(row.variable, value)).toBe(false);
    });
  });

  it.skipIf(!gcc || !has('bash'))('enable -f loads a shared object into bash, and is refused', () => {
    const dir = setUp({}, ROWS.length);
    spawnSync('bash', ['-c', 'enable -f ./evil.so planted'], { cwd: dir, env: baseEnv(dir) });
    expect(existsSync(join(dir, 'M'))).toBe(true);
    expect(builtinReason(['enable', '-f', './evil.so', 'planted'].map(word))).toMatch(/shared library/);
  });

  it('keeps names of locales, zones and terminals in the read-only proof, and only names', () => {
    for (const [name, value] of [
      ['LANG', 'C.UTF-8'],
      ['LC_ALL', 'de_DE.UTF-8@euro'],
      ['LANGUAGE', 'de:en'],
      ['TZ', 'Asia/Tokyo'],
      ['TZ', 'EST5EDT,M3.2.0,M11.1.0'],
      ['TERM', 'xterm-256color'],
    ] as const) {
      expect(isSafeEnvAssignment(name, word(value)), `${name}=${value}`).toBe(true);
      expect(dangerousEnvReason(name, word(value)), `${name}=${value}`).toBeUndefined();
    }
    for (const [name, value] of [
      ['LANG', '/tmp/x'],
      ['LC_MESSAGES', './l'],
      ['LANGUAGE', 'de:../../x'],
      ['TZ', '../../tmp/zone'],
      ['TZ', ':/tmp/zone'],
      ['TERM', '../t'],
    ] as const) {
      expect(isSafeEnvAssignment(name, word(value)), `${name}=${value}`).toBe(false);
      expect(dangerousEnvReason(name, word(value))).toContain(
        `${name}=${value} names a file the C library loads`,
      );
    }
  });
});
