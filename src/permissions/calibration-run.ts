/**
 * The calibration runner the calibration suites share: each row, run for real with bash in a
 * fresh scratch folder, must have the effect the permission check blocks — a file appears or
 * changes, a program runs, a file outside the project is read, or the machine's clock or name is
 * set (seen with strace; those rows run a harmless spelling that sets what is already set). A
 * row is skipped only when a program it needs is not installed here, and says which.
 */

import { execFile } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withCalibrationTools } from './calibration-tools';
import type { DangerCase } from './option-danger-cases';

// `rg` is the ripgrep Yoke ships, `fd` Debian's fdfind (calibration-tools.ts).
process.env.PATH = withCalibrationTools();

const SECRET = 'SECRET-TOKEN-93';
const OLD = new Date('2000-01-01T00:00:00Z');
const OLDER_THAN_MTIME = new Date('2001-02-03T00:00:00Z');
const base = mkdtempSync(join(tmpdir(), 'yoke-calibration-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

type Run = { stdout: string; stderr: string; code: number | null };

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv, input?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile('bash', ['-c', script], { cwd, env, timeout: 20_000 }, (error, stdout, stderr) =>
      resolve({ stdout, stderr, code: error ? (typeof error.code === 'number' ? error.code : 1) : 0 }),
    );
    // A command may exit without reading its input: that is not an error of the run.
    child.stdin?.on('error', () => undefined);
    if (input === undefined) child.stdin?.end();
    else child.stdin?.end(input);
  });
}

const installed = new Map<string, Promise<boolean>>();
function isInstalled(program: string): Promise<boolean> {
  let found = installed.get(program);
  if (!found) {
    found = bash(`command -v ${program}`, base, process.env).then((r) => r.code === 0);
    installed.set(program, found);
  }
  return found;
}

/** The programs a row needs: its command (after `env`-style words), strace, script. */
function needs(row: DangerCase): string[] {
  const first = row.needs ?? (row.cmd.split(' ').find((w) => !w.includes('=')) as string);
  return [first, ...(row.syscall ? ['strace'] : []), ...(row.tty ? ['script'] : [])];
}

let counter = 0;
function scratch(): { root: string; proj: string; outside: string; env: NodeJS.ProcessEnv } {
  const root = join(base, String(counter++));
  const proj = join(root, 'proj');
  const outside = join(root, 'outside');
  const home = join(root, 'home');
  for (const dir of [proj, join(outside, 'dir'), home]) mkdirSync(dir, { recursive: true });
  const secret = join(outside, 'secret.txt');
  writeFileSync(secret, `${SECRET}\n`);
  writeFileSync(join(outside, 'list0'), `${secret}\0`);
  writeFileSync(join(outside, 'list'), `${secret}\n`);
  writeFileSync(join(proj, 'x'), 'b\na\n');
  // Marks that it ran without needing PATH (one row empties it), then passes its input through.
  writeFileSync(join(proj, 'prog'), `#!/bin/sh\n: > '${join(proj, 'ran')}'\ncat "$@"\n`);
  chmodSync(join(proj, 'prog'), 0o755);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LD_LIBRARY_PATH: process.env.LD_LIBRARY_PATH,
    PERL5LIB: process.env.PERL5LIB,
    HOME: home,
    LC_ALL: 'C',
    TERM: 'dumb',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'a',
    GIT_AUTHOR_EMAIL: 'a@example.com',
    GIT_COMMITTER_NAME: 'a',
    GIT_COMMITTER_EMAIL: 'a@example.com',
  };
  return { root, proj, outside, env };
}

/** How the row's command is run: under strace, under a pseudo-terminal, or plainly. */
function wrapped(row: DangerCase, root: string): string {
  const command = row.calibrate ?? row.cmd;
  if (row.syscall)
    return `strace -f -qq -e trace=${row.syscall} -o '${join(root, 'trace')}' bash -c '${command.replace(/'/g, `'\\''`)}'`;
  if (row.tty) return `script -qec '${command.replace(/'/g, `'\\''`)}' /dev/null`;
  return command;
}

const atime = (path: string) => statSync(path).atimeMs;
const mtime = (path: string) => statSync(path).mtimeMs;

/** One test per row: run in a fresh scratch project, the row's effect must show. */
export function calibrationSuite(title: string, rows: readonly DangerCase[]): void {
  describe(title, () => {
    it.concurrent.for(rows.map((row) => [row.cmd, row] as const))('%s', async ([, row], ctx) => {
      for (const program of needs(row)) {
        if (!(await isInstalled(program))) ctx.skip(`${program} is not installed on this machine`);
      }
      const { root, proj, outside, env } = scratch();
      if (row.setup) {
        const setup = await bash(row.setup, proj, env);
        expect(setup.code, `setup failed: ${setup.stderr}`).toBe(0);
      }
      // A read moves the atime (relatime updates it while it is older than the mtime).
      const watched = join(outside, row.reads ?? 'secret.txt');
      if (existsSync(watched)) utimesSync(watched, OLD, OLDER_THAN_MTIME);
      const marker = join(proj, row.marker ?? 'pwned');
      if (row.marker?.endsWith('/')) utimesSync(marker, OLD, OLD);
      const before = row.changed ? readFileSync(join(proj, row.changed), 'utf8') : undefined;
      if (row.gone) expect(existsSync(join(proj, row.gone))).toBe(true);

      const run = await bash(wrapped(row, root), proj, env, row.stdin);
      const output = `${run.stdout}${run.stderr}`;
      const detail = `exit ${run.code}, output: ${output.slice(0, 400)}`;
      switch (row.effect) {
        case 'writes':
          if (row.gone) expect(existsSync(join(proj, row.gone)), detail).toBe(false);
          else if (row.changed)
            expect(readFileSync(join(proj, row.changed), 'utf8'), detail).not.toBe(before);
          else if (row.marker?.endsWith('/')) expect(mtime(marker), detail).toBeGreaterThan(OLD.getTime());
          else expect(existsSync(marker), detail).toBe(true);
          break;
        case 'runs':
          expect(existsSync(join(proj, 'ran')), detail).toBe(true);
          break;
        case 'reads-outside': {
          const read = row.output
            ? row.output.test(output)
            : output.includes(SECRET) || atime(watched) > OLD.getTime();
          expect(read, detail).toBe(true);
          break;
        }
        case 'changes-system':
          expect(readFileSync(join(root, 'trace'), 'utf8'), detail).toContain(`${row.syscall}(`);
          break;
      }
    });
  });
}
