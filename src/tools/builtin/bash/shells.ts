/**
 * Background shells: commands started with `run_in_background`, their output files and their
 * status. One `BackgroundShells` belongs to one session (its SessionServices), so two sessions in
 * one process never see each other's shells or ids. Kept out of AppState (plain data) because each
 * entry owns a live process; every shell dies with its session, and with the Yoke process
 * (process-groups.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { OutputCursor } from '../../../lib/output-cursor';
import type { SandboxedSpawn, SandboxManager } from '../../../sandbox/manager';
import { signalGroup, spawnShell, terminateGroup } from './shell';

export type ShellStatus = 'running' | 'completed' | 'failed' | 'killed';

/** A snapshot of one background shell, safe to hand out. */
export type BackgroundShellInfo = {
  id: string;
  command: string;
  description?: string;
  cwd: string;
  pid?: number;
  outputPath: string;
  status: ShellStatus;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  startedAt: number;
  endedAt?: number;
  /** Killed because its `timeout` ran out. */
  timedOut: boolean;
  /** The Bash tool_use that started it (stream-json task frames name it). */
  toolUseId?: string;
};

type ShellRecord = BackgroundShellInfo & {
  child: ChildProcess;
  done: Promise<void>;
  /** What `readNewOutput` has returned so far. */
  cursor: OutputCursor;
  timer?: NodeJS.Timeout;
  stopRequested: boolean;
};

function snapshot(record: ShellRecord): BackgroundShellInfo {
  const { child: _c, done: _d, cursor: _r, timer: _t, stopRequested: _s, ...info } = record;
  return { ...info };
}

export type StartShellParams = {
  /** The session's folder; output goes to `<sessionDir>/shells/<id>.log`. */
  sessionDir: string;
  command: string;
  description?: string;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Kill the shell after this long; none when undefined. */
  timeoutMs?: number;
  /** Called once when the shell ends, however it ends. */
  onExit?: (shell: BackgroundShellInfo) => void;
  toolUseId?: string;
  /** Runs the shell inside this session's sandbox; it lives until it ends or the session does. */
  sandbox?: SandboxManager;
};

function stopRecord(record: ShellRecord): Promise<void> {
  if (record.status !== 'running') return record.done;
  record.stopRequested = true;
  return terminateGroup(record.child).then(() => record.done);
}

/** The background shells of one session, numbered `bash_1`, `bash_2`, … in start order. */
export class BackgroundShells {
  private readonly shells = new Map<string, ShellRecord>();
  private counter = 0;
  private disposed = false;
  private readonly listeners = new Set<(shell: BackgroundShellInfo) => void>();

  /** Called with a snapshot when a shell starts and when it ends (stream-json task frames). */
  subscribe(listener: (shell: BackgroundShellInfo) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(record: ShellRecord): void {
    for (const listener of this.listeners) listener(snapshot(record));
  }

  start(params: StartShellParams): BackgroundShellInfo {
    // A late call of a session that is ending must not leave a process nobody will stop.
    if (this.disposed) throw new Error('The session has ended; no background shell can be started.');
    const id = `bash_${++this.counter}`;
    const dir = join(params.sessionDir, 'shells');
    mkdirSync(dir, { recursive: true });
    const outputPath = join(dir, `${id}.log`);
    // The shell writes straight into the file: output survives without Yoke reading a pipe.
    const fd = openSync(outputPath, 'a');
    let child: ChildProcess;
    let sandboxed: SandboxedSpawn | undefined;
    const { sandbox } = params;
    try {
      child = spawnShell({
        command: params.command,
        cwd: params.cwd,
        env: params.env,
        stdio: ['ignore', fd, fd],
        ...(sandbox
          ? {
              wrap: (shell: string, shellArgs: readonly string[]) => {
                sandboxed = sandbox.wrap({ shell, shellArgs, cwd: params.cwd, writableFiles: [] });
                return sandboxed;
              },
            }
          : {}),
      });
    } finally {
      closeSync(fd);
    }
    child.unref();
    const record: ShellRecord = {
      id,
      command: params.command,
      cwd: params.cwd,
      outputPath,
      status: 'running',
      exitCode: null,
      signal: null,
      startedAt: Date.now(),
      timedOut: false,
      child,
      cursor: new OutputCursor(outputPath),
      stopRequested: false,
      done: new Promise((resolve) => {
        const finish = (code: number | null, signal: NodeJS.Signals | null) => {
          if (record.status !== 'running') return resolve();
          sandboxed?.finish('');
          if (record.timer) clearTimeout(record.timer);
          record.exitCode = code;
          record.signal = signal;
          record.endedAt = Date.now();
          record.status = record.stopRequested ? 'killed' : code === 0 ? 'completed' : 'failed';
          // The shell is gone, but jobs it started in the background may still hold the group.
          signalGroup(record.pid, 'SIGKILL');
          resolve();
          params.onExit?.(snapshot(record));
          this.emit(record);
        };
        child.once('exit', finish);
        child.once('error', () => finish(null, null));
      }),
    };
    if (child.pid !== undefined) record.pid = child.pid;
    if (params.description) record.description = params.description;
    if (params.toolUseId) record.toolUseId = params.toolUseId;
    if (params.timeoutMs !== undefined) {
      record.timer = setTimeout(() => {
        record.timedOut = true;
        void stopRecord(record);
      }, params.timeoutMs);
      record.timer.unref();
    }
    this.shells.set(id, record);
    this.emit(record);
    return snapshot(record);
  }

  get(id: string): BackgroundShellInfo | undefined {
    const record = this.shells.get(id);
    return record && snapshot(record);
  }

  list(): BackgroundShellInfo[] {
    return [...this.shells.values()].map(snapshot);
  }

  private require(id: string): ShellRecord {
    const record = this.shells.get(id);
    if (!record) throw new Error(`No background shell with id ${id}.`);
    return record;
  }

  /** Output written since the previous call for this shell (the whole output on the first call). */
  async readNewOutput(id: string): Promise<string> {
    return this.require(id).cursor.readNew();
  }

  /** Waits until the shell ends, `timeoutMs` passes or `signal` aborts; true when it ended. */
  async wait(id: string, timeoutMs: number, signal: AbortSignal): Promise<boolean> {
    const record = this.require(id);
    if (record.status !== 'running') return true;
    if (signal.aborted) return false;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const gaveUp = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
      onAbort = () => resolve(false);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([record.done.then(() => true as const), gaveUp]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  }

  /** Kills the shell's process group (SIGTERM, then SIGKILL) and returns its final state. */
  async stop(id: string): Promise<BackgroundShellInfo> {
    const record = this.require(id);
    await stopRecord(record);
    return snapshot(record);
  }

  /**
   * Ends every shell with its process group and refuses new ones: the session is over. Safe to
   * call more than once.
   */
  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all([...this.shells.values()].map(stopRecord));
    this.shells.clear();
  }
}
