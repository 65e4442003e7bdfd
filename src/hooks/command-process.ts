/**
 * Runs one command hook as a child process: `sh -c` in the session cwd (or the exec form with
 * `args`), the JSON input on stdin, in its own process group so a timeout or an interrupt kills
 * everything the hook started, not just the shell.
 */
import { spawn } from 'node:child_process';

export type CommandRun = {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** The hook printed more than `MAX_HOOK_OUTPUT` on stdout: what was kept is cut off. */
  stdoutTruncated: boolean;
  timedOut: boolean;
  aborted: boolean;
  /** The process could not be started at all (e.g. the exec-form program does not exist). */
  spawnError?: string;
};

export type CommandSpec = {
  command: string;
  args?: readonly string[];
  input: string;
  cwd: string;
  env: Record<string, string | undefined>;
  timeoutMs: number;
  signal: AbortSignal;
};

/** Caps what is kept of each stream (characters); a runaway hook must not exhaust memory. */
export const MAX_HOOK_OUTPUT = 1024 * 1024;
/** After SIGTERM, how long the group gets before SIGKILL. */
const KILL_GRACE_MS = 1000;
/** After the hook exits, how long to wait for pipes a background grandchild may still hold. */
const PIPE_GRACE_MS = 250;

export function runCommand(spec: CommandSpec): Promise<CommandRun> {
  return new Promise((resolve) => {
    const result: CommandRun = {
      exitCode: null,
      stdout: '',
      stderr: '',
      stdoutTruncated: false,
      timedOut: false,
      aborted: false,
    };
    if (spec.signal.aborted) {
      resolve({ ...result, aborted: true });
      return;
    }
    const child = spec.args
      ? spawn(spec.command, [...spec.args], { cwd: spec.cwd, env: spec.env, detached: true })
      : spawn('/bin/sh', ['-c', spec.command], { cwd: spec.cwd, env: spec.env, detached: true });

    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      spec.signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const killGroup = () => {
      signalGroup(child.pid, 'SIGTERM');
      setTimeout(() => signalGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS).unref();
    };
    const onAbort = () => {
      result.aborted = true;
      killGroup();
    };
    const timer = setTimeout(() => {
      result.timedOut = true;
      killGroup();
    }, spec.timeoutMs);
    spec.signal.addEventListener('abort', onAbort, { once: true });

    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const room = MAX_HOOK_OUTPUT - result.stdout.length;
      if (chunk.length > room) result.stdoutTruncated = true;
      if (room > 0) result.stdout += chunk.slice(0, room);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (result.stderr.length < MAX_HOOK_OUTPUT)
        result.stderr += chunk.slice(0, MAX_HOOK_OUTPUT - result.stderr.length);
    });
    child.on('error', (error) => {
      result.spawnError = error.message;
      finish();
    });
    child.on('exit', (code) => {
      result.exitCode = code;
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish();
      }, PIPE_GRACE_MS).unref();
    });
    child.on('close', finish);

    // A hook that ignores stdin and exits early closes the pipe; that is not an error.
    child.stdin.on('error', () => {});
    child.stdin.end(spec.input);
  });
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}
