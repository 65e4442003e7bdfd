/**
 * What `/tasks` shows: the session's background work, whatever runs it. Each kind of task (the
 * Bash tool's background shells today; background agents plug in the same way) is a `TaskSource`:
 * a list of snapshots, an optional change subscription, and a stop. The board merges the sources,
 * adds each task's latest output line (read from the end of its output file), and tells its
 * listeners when anything they show changed. While nobody listens it does nothing.
 *
 * Shell output goes straight from the process into a file, with no event to wait on, so while the
 * view is open the board re-reads the list and the files' last lines every `refreshMs`.
 */
import { lastOutputLine } from './shell-tail';

export type TaskStatus = 'pending' | 'running' | 'completed' | 'failed' | 'killed';

/** One task as a source reports it. */
export type TaskSnapshot = {
  id: string;
  /** `shell`, `agent`, …: shown as is. */
  kind: string;
  /** What the task is doing, one line (a description or the head of a command). */
  title: string;
  status: TaskStatus;
  /** The status in words ("completed with exit code 0"). */
  statusText: string;
  startedAt: number;
  endedAt?: number;
  /** A summary the source keeps itself (an agent's progress); wins over the output's last line. */
  summary?: string;
  outputPath: string;
};

export interface TaskSource {
  list(): readonly TaskSnapshot[];
  /** Called when the source's tasks change; sources without one are re-read on the board's tick. */
  subscribe?(listener: () => void): () => void;
  /** Stops a running task; resolves once it has ended. */
  stop(id: string): Promise<unknown>;
}

/** A board row: the snapshot and the latest thing it said. */
export type TaskRow = TaskSnapshot & { latest: string };

const DEFAULT_REFRESH_MS = 500;

export class TaskBoard {
  private rows: readonly TaskRow[] = [];
  private readonly listeners = new Set<() => void>();
  private unsubscribers: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private reading: Promise<void> | undefined;
  private following: Promise<void> | undefined;

  constructor(
    private readonly sources: () => readonly TaskSource[],
    private readonly refreshMs = DEFAULT_REFRESH_MS,
  ) {}

  getRows = (): readonly TaskRow[] => this.rows;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.startWatching();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stopWatching();
    };
  };

  /** Reads every source and output tail; resolves once a read begun after this call has finished. */
  refresh(): Promise<void> {
    if (!this.reading) {
      this.reading = this.read().finally(() => {
        this.reading = undefined;
      });
      return this.reading;
    }
    // A read is under way, begun before this call (it may miss a change just made): one more
    // follows it, shared by every call that arrives meanwhile.
    this.following ??= this.reading.then(() => {
      this.following = undefined;
      return this.refresh();
    });
    return this.following;
  }

  /** Stops the task with this id (of whichever source has it), then refreshes the rows. */
  async stop(id: string): Promise<boolean> {
    for (const source of this.sources()) {
      if (source.list().some((task) => task.id === id && task.status === 'running')) {
        await source.stop(id);
        await this.refresh();
        return true;
      }
    }
    return false;
  }

  private async read(): Promise<void> {
    const tasks = this.sources().flatMap((source) => source.list());
    const rows = await Promise.all(
      tasks.map(async (task) => ({
        ...task,
        latest: task.summary ?? (await lastOutputLine(task.outputPath)),
      })),
    );
    const changed =
      rows.length !== this.rows.length ||
      rows.some((row, i) => {
        const old = this.rows[i];
        return !old || old.id !== row.id || old.status !== row.status || old.latest !== row.latest;
      });
    this.rows = rows;
    if (changed) for (const listener of this.listeners) listener();
  }

  private startWatching(): void {
    for (const source of this.sources()) {
      const unsubscribe = source.subscribe?.(() => void this.refresh());
      if (unsubscribe) this.unsubscribers.push(unsubscribe);
    }
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.refreshMs);
    this.timer.unref();
  }

  private stopWatching(): void {
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** Running time as the task views show it: `42s`, `3m 5s`, `1h 2m`. */
export function formatTaskElapsed(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60
    ? `${s}s`
    : s < 3600
      ? `${Math.floor(s / 60)}m ${s % 60}s`
      : `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}
