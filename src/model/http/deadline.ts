/**
 * The three waits Yoke bounds on every model API request, and the error a transport throws when
 * one runs out. The error is its own class so the providers can tell "the server went quiet" from
 * the caller's abort, whatever the SDK wraps it in (it keeps it as the `cause`).
 */

export type DeadlinePhase = 'connect' | 'first_byte' | 'idle';

/** Milliseconds for each wait; see src/model/timeouts.ts for the defaults and the settings. */
export type TransportTimeouts = {
  /** TCP (and TLS) connection set-up, DNS included. */
  connectMs: number;
  /** From sending the request to the first byte of the response body. */
  firstByteMs: number;
  /** Between two chunks of a response body once it has started. */
  idleMs: number;
};

/**
 * Thrown (or used as the abort reason) when a wait runs out. Neither its name nor its message may
 * contain "timeout" / "timed out": the SDKs test for those words and would replace this error by
 * one without the cause, losing which wait it was.
 */
export class TransportDeadlineError extends Error {
  override name = 'TransportDeadlineError';
  constructor(
    readonly phase: DeadlinePhase,
    readonly waitedMs: number,
  ) {
    super(deadlineText(phase, waitedMs));
  }
}

function deadlineText(phase: DeadlinePhase, ms: number): string {
  const wait = formatDuration(ms);
  switch (phase) {
    case 'connect':
      return `could not connect within ${wait}`;
    case 'first_byte':
      return `connected, but no response within ${wait}`;
    case 'idle':
      return `the response stalled: nothing received for ${wait}`;
  }
}

/**
 * The longest delay a Node timer takes; a longer one fires at once (with a warning). A wait set to
 * more than this — some 24 days — is as good as no limit.
 */
export const MAX_TIMER_MS = 2_147_483_647;

export function timerDelay(ms: number): number {
  return Math.min(Math.max(0, ms), MAX_TIMER_MS);
}

/** "850 ms", "12 s", "2.5 min": short and exact enough for a status line. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${trim(ms / 1000)} s`;
  if (ms < 3_600_000) return `${trim(ms / 60_000)} min`;
  return `${trim(ms / 3_600_000)} h`;
}

function trim(value: number): string {
  return value >= 10 ? String(Math.round(value)) : String(Math.round(value * 10) / 10);
}

/**
 * The server closed the connection before the response body was complete. Its own class, like
 * the deadline error, so the failure policy knows it for a dropped connection without a socket
 * code to go by.
 */
export class ConnectionClosedError extends Error {
  override name = 'ConnectionClosedError';
  constructor() {
    super('the connection closed mid-response');
  }
}

/** An error the transport itself threw for a connection that went away or went quiet. */
export function isTransportFailure(error: unknown): boolean {
  return error instanceof ConnectionClosedError || error instanceof TransportDeadlineError;
}

/** The deadline error anywhere in an error's cause chain (SDKs wrap what fetch threw). */
export function findDeadline(error: unknown): TransportDeadlineError | undefined {
  for (let current = error, depth = 0; depth < 6 && current instanceof Error; depth++) {
    if (current instanceof TransportDeadlineError) return current;
    current = current.cause;
  }
  return undefined;
}
