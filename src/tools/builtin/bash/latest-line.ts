/**
 * The latest complete line a running command printed, for the REPL's "long tools show their latest
 * output line": after a quiet second, then at most every `intervalMs`, as plain text (escape sequences and control
 * characters dropped, so a colour or a cursor movement in it cannot disturb the screen). A line
 * redrawn with carriage returns (a progress bar) counts as its last state.
 */
const ESCAPES = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]/g;
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f]/g;

export class LatestLine {
  private tail = '';
  private latest: string | undefined;
  private reported: string | undefined;
  private lastReport = Number.NEGATIVE_INFINITY;
  private readonly startedAt: number;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * Nothing is reported in the first `quietMs` (a quick command makes no progress to show); then
   * the latest line, and after that at most every `intervalMs` — a line held back by either is
   * reported when the wait is over, unless a newer one came or the command ended.
   */
  constructor(
    private readonly report: (line: string) => void,
    private readonly options: { intervalMs?: number; quietMs?: number; now?: () => number } = {},
  ) {
    this.startedAt = this.now();
  }

  push(chunk: string): void {
    const text = this.tail + chunk;
    const end = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
    if (end < 0) {
      this.tail = text.slice(-4096);
      return;
    }
    this.tail = text.slice(end + 1);
    const complete = text.slice(0, end).split(/\r\n|\n|\r/);
    for (let i = complete.length - 1; i >= 0; i--) {
      const line = (complete[i] as string).replace(ESCAPES, '').replace(CONTROLS, '').trimEnd();
      if (line.trim() === '') continue;
      this.latest = line.length > 500 ? line.slice(0, 500) : line;
      this.send();
      return;
    }
  }

  /** The command ended: nothing more is reported. */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.latest = undefined;
  }

  private now(): number {
    return (this.options.now ?? (() => performance.now()))();
  }

  /** Reports the latest line now, or sets a timer for when it may (the quiet second, the interval). */
  private send(): void {
    if (this.latest === undefined || this.latest === this.reported) return;
    const at = this.now();
    const wait = Math.max(
      (this.options.quietMs ?? 1000) - (at - this.startedAt),
      (this.options.intervalMs ?? 100) - (at - this.lastReport),
    );
    if (wait > 0) {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.send();
      }, wait);
      this.timer.unref?.();
      return;
    }
    this.lastReport = at;
    this.reported = this.latest;
    this.report(this.latest);
  }
}
