/**
 * The time source of background agents: progress summaries every ~30 s and the `-p` wait's limit
 * run on it, so tests drive them with a manual clock instead of waiting (or flaking).
 */

export type Clock = {
  now(): number;
  /** Calls `fn` every `ms` until the returned function is called. */
  every(ms: number, fn: () => void): () => void;
  /** Calls `fn` once after `ms` unless the returned function is called first. */
  after(ms: number, fn: () => void): () => void;
};

/** Real time; its timers never keep the process alive on their own. */
export const systemClock: Clock = {
  now: () => Date.now(),
  every(ms, fn) {
    const timer = setInterval(fn, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/** A clock that moves only when told: `advance(ms)` fires every timer that falls due, in order. */
export class ManualClock implements Clock {
  private time = 0;
  private timers: { at: number; every?: number; fn: () => void; id: number }[] = [];
  private nextId = 0;

  now(): number {
    return this.time;
  }

  every(ms: number, fn: () => void): () => void {
    return this.add({ at: this.time + ms, every: ms, fn });
  }

  after(ms: number, fn: () => void): () => void {
    return this.add({ at: this.time + ms, fn });
  }

  private add(timer: { at: number; every?: number; fn: () => void }): () => void {
    const id = ++this.nextId;
    this.timers.push({ ...timer, id });
    return () => {
      this.timers = this.timers.filter((t) => t.id !== id);
    };
  }

  /** How many timers are set (a stopped agent must leave none behind). */
  get pending(): number {
    return this.timers.length;
  }

  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.time = due.at;
      if (due.every !== undefined) due.at += due.every;
      else this.timers = this.timers.filter((t) => t.id !== due.id);
      due.fn();
    }
    this.time = end;
  }
}
