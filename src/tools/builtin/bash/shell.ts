/**
 * Starting and stopping shell processes. Every command runs in its own process group
 * (`detached: true`) so a timeout, an interrupt or the end of a session can kill the whole tree —
 * pipelines, background jobs and grandchildren — not just the shell.
 */
import type { ChildProcess, StdioOptions } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { SandboxedSpawn } from '../../../sandbox/manager';
import { trackGroup } from './process-groups';

/** How long a process group gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2_000;

// Process-wide on purpose: which bash a PATH finds is a fact of the machine, not of a session
// (the key is the PATH itself, so sessions with different PATHs get their own answers).
const shellCache = new Map<string, string>();

/** `bash` from the command's PATH when present (commands are written for it), else `/bin/sh`. */
export function resolveShell(env: Readonly<Record<string, string | undefined>>): string {
  const path = env.PATH ?? '';
  const cached = shellCache.get(path);
  if (cached) return cached;
  let shell = '/bin/sh';
  for (const dir of [...path.split(delimiter), '/bin', '/usr/bin']) {
    if (!dir) continue;
    try {
      accessSync(join(dir, 'bash'), constants.X_OK);
      shell = join(dir, 'bash');
      break;
    } catch {
      // not in this directory
    }
  }
  shellCache.set(path, shell);
  return shell;
}

const PATH_EXPANSION_VARS = ['CDPATH', 'BASHOPTS', 'SHELLOPTS', 'GLOBIGNORE'] as const;

/** The environment for a child: the context's env without unset keys, plus non-interactive fixes. */
export function childEnv(env: Readonly<Record<string, string | undefined>>): NodeJS.ProcessEnv {
  const result: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) result[key] = value;
  // No terminal is attached: an editor opened by `git commit` or `git rebase` would wait forever.
  result.GIT_EDITOR = 'true';
  // The permission check resolves `cd` targets and globs with bash's defaults: an inherited
  // CDPATH, BASHOPTS (nocaseglob, globstar…), SHELLOPTS (physical) or GLOBIGNORE would send them
  // elsewhere.
  for (const key of PATH_EXPANSION_VARS) delete result[key];
  return result;
}

export type SpawnShellParams = {
  command: string;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  stdio: StdioOptions;
  /** When set, the shell's final working directory is written there on exit. */
  cwdFile?: string;
  /**
   * When set, the shell runs under what this returns instead (the sandbox's bwrap command line);
   * it receives the shell and its arguments.
   */
  wrap?: (shell: string, shellArgs: readonly string[]) => SandboxedSpawn;
};

/** `text` as one single-quoted shell word. */
const quoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * The script around the command. The command is handed over as an argument and run with `eval`,
 * not spliced into a script: an unterminated heredoc or quote in it can then never swallow our
 * own trailer. stderr is joined to stdout inside the shell so both arrive in one pipe in the
 * order they were written. The file the final directory goes to is written into the trap's text,
 * not kept in a variable: the command runs in this same shell and could reassign it (an
 * auto-allowed `__cwd_file=~/.bashrc` had the trap overwrite that file). What the trap writes
 * there is only a claim: the next directory is checked before it is used (cwd.ts).
 */
function wrapperScript(cwdFile: string | undefined): string {
  const lines = ['exec 2>&1', 'eval "$1"'];
  if (cwdFile) lines.unshift(`trap ${quoted(`command pwd -P >| ${quoted(cwdFile)} 2>/dev/null`)} EXIT`);
  return lines.join('\n');
}

export function spawnShell(params: SpawnShellParams): ChildProcess {
  const shell = resolveShell(params.env);
  const shellArgs = ['-c', wrapperScript(params.cwdFile), shell, params.command];
  const sandboxed = params.wrap?.(shell, shellArgs);
  // bwrap reads the seccomp program from fd 3 (bwrap-args.ts SECCOMP_FD).
  const stdio =
    sandboxed?.seccomp && Array.isArray(params.stdio) ? [...params.stdio.slice(0, 3), 'pipe'] : params.stdio;
  // child_process loads on the first command, not when the tool registers at start.
  const child = process
    .getBuiltinModule('node:child_process')
    .spawn(sandboxed?.file ?? shell, sandboxed?.args ?? shellArgs, {
      cwd: params.cwd,
      env: childEnv(params.env),
      stdio: stdio as StdioOptions,
      detached: true,
      windowsHide: true,
    });
  const filterPipe = child.stdio[3];
  if (sandboxed?.seccomp && filterPipe && 'end' in filterPipe) {
    filterPipe.on('error', () => {});
    filterPipe.end(sandboxed.seccomp);
  }
  // Jobs a command leaves running (`server &`) outlive its shell; Yoke's exit ends them too.
  if (child.pid !== undefined) trackGroup(child.pid);
  return child;
}

/** Sends a signal to a whole process group; a group that is already gone is not an error. */
export function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return;
    try {
      process.kill(pid, signal);
    } catch {
      // The leader is gone as well: nothing left to signal.
    }
  }
}

/**
 * SIGTERM to the group, then SIGKILL once the leader has exited or the grace period ran out —
 * the SIGKILL catches members that ignore SIGTERM. Resolves when both have been sent.
 */
export function terminateGroup(child: ChildProcess, graceMs = KILL_GRACE_MS): Promise<void> {
  const pid = child.pid;
  signalGroup(pid, 'SIGTERM');
  const exited = child.exitCode !== null || child.signalCode !== null;
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      child.off('exit', finish);
      signalGroup(pid, 'SIGKILL');
      resolve();
    };
    const timer = setTimeout(finish, exited ? 0 : graceMs);
    if (!exited) child.once('exit', finish);
  });
}
