/**
 * Is the configured provider reachable with these credentials? One request of a single output
 * token, cut off as soon as the stream starts, under a short deadline. A retry the transport
 * announces counts as the answer: /doctor reports the first failure instead of waiting out the
 * retry schedule.
 */
import { isAbortError } from '../model/errors';
import type { Provider } from '../model/types';

/** The result of a cheap request to the configured provider, for /doctor. */
export type ProviderProbe =
  | { ok: true; provider: string; model: string; latencyMs: number }
  | { ok: false; provider: string; reason: string };

export const PROBE_DEADLINE_MS = 8_000;

export type ProbeOptions = {
  provider: Provider;
  model: string;
  signal: AbortSignal;
  deadlineMs?: number;
};

export async function probeProvider(options: ProbeOptions): Promise<ProviderProbe> {
  const { provider, model } = options;
  const deadlineMs = options.deadlineMs ?? PROBE_DEADLINE_MS;
  const stop = new AbortController();
  const deadline = AbortSignal.timeout(deadlineMs);
  const signal = AbortSignal.any([options.signal, deadline, stop.signal]);
  const started = performance.now();
  try {
    const stream = provider.stream(
      { model, system: [], messages: [{ role: 'user', content: 'ping' }], maxTokens: 1 },
      signal,
    );
    for await (const event of stream) {
      if (event.type === 'retry') {
        return { ok: false, provider: provider.name, reason: event.error.message };
      }
      if (event.type === 'message_start' || event.type === 'message_stop') {
        const latencyMs = Math.round(performance.now() - started);
        return { ok: true, provider: provider.name, model, latencyMs };
      }
    }
    return { ok: false, provider: provider.name, reason: 'the stream ended without a message' };
  } catch (error) {
    if (deadline.aborted)
      return { ok: false, provider: provider.name, reason: `no answer within ${deadlineMs / 1000}s` };
    if (options.signal.aborted || isAbortError(error))
      return { ok: false, provider: provider.name, reason: 'the check was cancelled' };
    return { ok: false, provider: provider.name, reason: (error as Error).message };
  } finally {
    // Ends the request the loop left open (the probe reads only the start of the stream).
    stop.abort();
  }
}
