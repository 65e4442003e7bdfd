/**
 * How a headless run ends when it is asked to stop: SIGINT (Ctrl-C), SIGTERM (the Agent SDK's
 * `abort()`, a supervisor), SIGHUP (the terminal went away) or a closed output pipe all end it the
 * same way — the running turn is interrupted through the engine's normal abort path, so running
 * commands and background shells are killed with their process groups, the transcript gets the
 * interrupted turn and the result is written; then the process exits with 128 + the signal's
 * number, as a shell reports a process a signal ended (130 for SIGINT, 143 for SIGTERM, 129 for
 * SIGHUP, 141 for a closed pipe).
 *
 * A second signal, or a clean-up that takes longer than the deadline, exits at once: the exit
 * handlers still kill every process group and remove in-flight temp files (see
 * tools/builtin/bash/process-groups.ts, config/write-journal.ts). The deadline is shorter than
 * the SDK's 5 s between SIGTERM and SIGKILL, since a SIGKILL would leave the children running.
 */
import type { StdStream } from './std-streams';

export const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type ShutdownSignal = (typeof SHUTDOWN_SIGNALS)[number];
/** `SIGPIPE`: the reader of stdout went away (EPIPE); Node ignores the signal itself. */
export type ShutdownReason = ShutdownSignal | 'SIGPIPE';

const SIGNAL_NUMBERS: Record<ShutdownReason, number> = { SIGHUP: 1, SIGINT: 2, SIGPIPE: 13, SIGTERM: 15 };

export function exitCodeForSignal(reason: ShutdownReason): number {
  return 128 + SIGNAL_NUMBERS[reason];
}

/** How long the clean-up after the first signal may take before the process exits anyway. */
export const SHUTDOWN_DEADLINE_MS = 3_000;

export type ShutdownOptions = {
  deadlineMs?: number;
  /** Where the signals arrive and the forced exit goes; the real process by default. */
  target?: Pick<NodeJS.Process, 'on' | 'off' | 'exit'>;
  /** Output whose closing ends the run as SIGPIPE would. */
  outputs?: readonly StdStream[];
};

export class Shutdown {
  private readonly controller = new AbortController();
  private received: ShutdownReason | undefined;
  private deadline: NodeJS.Timeout | undefined;
  private readonly target: NonNullable<ShutdownOptions['target']>;
  private readonly deadlineMs: number;
  private readonly stopWatchingOutputs: (() => void)[];
  private readonly onSignal = (signal: ShutdownSignal) => this.trigger(signal);

  constructor(options: ShutdownOptions = {}) {
    this.target = options.target ?? process;
    this.deadlineMs = options.deadlineMs ?? SHUTDOWN_DEADLINE_MS;
    for (const signal of SHUTDOWN_SIGNALS) this.target.on(signal, this.onSignal);
    this.stopWatchingOutputs = (options.outputs ?? []).map((output) =>
      output.onClosed(() => this.trigger('SIGPIPE')),
    );
  }

  /** Aborted at the first signal: what the run hands its engine as "stop now". */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get reason(): ShutdownReason | undefined {
    return this.received;
  }

  /** The exit code: 128 + the signal's number once one arrived, else the run's own. */
  exitCode(runExitCode: number): number {
    return this.received ? exitCodeForSignal(this.received) : runExitCode;
  }

  trigger(reason: ShutdownReason): void {
    if (this.received) {
      // Asked twice: the user (or the host) does not want to wait for the clean-up.
      if (reason !== 'SIGPIPE') this.force();
      return;
    }
    this.received = reason;
    this.deadline = setTimeout(() => this.force(), this.deadlineMs);
    // The timer must not keep a process alive whose clean-up is already done.
    this.deadline.unref();
    this.controller.abort(reason);
  }

  /**
   * Stops listening; the process's default signal handling applies again. A deadline already
   * running stays: should anything keep the process alive after the run, it still ends then.
   */
  dispose(): void {
    for (const signal of SHUTDOWN_SIGNALS) this.target.off(signal, this.onSignal);
    for (const stop of this.stopWatchingOutputs) stop();
  }

  private force(): void {
    this.target.exit(this.exitCode(1));
  }
}
