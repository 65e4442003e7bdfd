/**
 * How long Yoke waits on a model API, from settings and the environment. Four numbers, all in
 * milliseconds (settings key `apiTimeouts`):
 *
 * | setting        | default                                   | what                                   |
 * |----------------|-------------------------------------------|----------------------------------------|
 * | `connectMs`    | 10 s                                      | to open the connection (DNS, TCP, TLS) |
 * | `firstByteMs`  | 120 s; 600 s for a loopback/private host  | from sending to the first byte of the answer; `API_TIMEOUT_MS` sets it too |
 * | `streamIdleMs` | 60 s                                      | between two chunks of a streamed answer |
 * | `totalMs`      | 5 min, or twice `firstByteMs` if longer    | how long a request may go without progress, retries included, before the error is reported |
 *
 * A local server gets the long first-byte wait because loading a model into memory can take
 * minutes before it answers the first request.
 */
import { isLocalBaseUrl } from './endpoint';
import type { TransportTimeouts } from './http/deadline';
import type { Env } from './types';

export type ApiTimeouts = TransportTimeouts & {
  /** The bound on one request's waiting, retries included (see the file comment). */
  totalMs: number;
};

/** The settings' `apiTimeouts` object, every field optional. */
export type ApiTimeoutSettings = {
  connectMs?: number | undefined;
  firstByteMs?: number | undefined;
  streamIdleMs?: number | undefined;
  totalMs?: number | undefined;
};

export const DEFAULT_CONNECT_MS = 10_000;
export const DEFAULT_FIRST_BYTE_MS = 120_000;
export const DEFAULT_LOCAL_FIRST_BYTE_MS = 600_000;
export const DEFAULT_STREAM_IDLE_MS = 60_000;
export const DEFAULT_TOTAL_MS = 300_000;

/** The environment variable (Claude Code's) that sets the first-byte wait. */
export const API_TIMEOUT_VARIABLE = 'API_TIMEOUT_MS';

export type ResolvedTimeouts = { timeouts: ApiTimeouts; warnings: string[] };

export function resolveApiTimeouts(input: {
  baseUrl: string;
  settings?: ApiTimeoutSettings | undefined;
  env: Env;
}): ResolvedTimeouts {
  const warnings: string[] = [];
  const settings = input.settings ?? {};
  const local = isLocalBaseUrl(input.baseUrl);
  const fromEnv = parseMs(input.env[API_TIMEOUT_VARIABLE]);
  if (fromEnv === 'invalid') {
    warnings.push(
      `${API_TIMEOUT_VARIABLE}=${JSON.stringify(input.env[API_TIMEOUT_VARIABLE])} is not a positive number ` +
        'of milliseconds; it is ignored.',
    );
  }
  const firstByteMs =
    (typeof fromEnv === 'number' ? fromEnv : undefined) ??
    settings.firstByteMs ??
    (local ? DEFAULT_LOCAL_FIRST_BYTE_MS : DEFAULT_FIRST_BYTE_MS);
  return {
    timeouts: {
      connectMs: settings.connectMs ?? DEFAULT_CONNECT_MS,
      firstByteMs,
      idleMs: settings.streamIdleMs ?? DEFAULT_STREAM_IDLE_MS,
      totalMs: settings.totalMs ?? Math.max(DEFAULT_TOTAL_MS, 2 * firstByteMs),
    },
    warnings,
  };
}

function parseMs(value: string | undefined): number | 'invalid' | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value.trim());
  return Number.isFinite(n) && n > 0 ? Math.round(n) : 'invalid';
}
