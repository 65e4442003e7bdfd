/**
 * Wraps any fetch with the first-byte and between-chunks deadlines. The first-byte wait lasts
 * until the first chunk of the body, not just the headers: some servers (vLLM, llama.cpp) send
 * headers at once and the first chunk only after processing the prompt, and that is the wait a
 * slow or loading model makes long. After that, every read that waits longer than `idleMs` for
 * the next chunk fails the body with a TransportDeadlineError and closes the connection.
 */
import { TransportDeadlineError, type TransportTimeouts, timerDelay } from './deadline';

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Statuses whose Response must have a null body. */
const NULL_BODY = new Set([101, 204, 205, 304]);

export function withDeadlines(
  base: FetchLike,
  timeouts: Pick<TransportTimeouts, 'firstByteMs' | 'idleMs'>,
): FetchLike {
  return async (input, init = {}) => {
    const controller = new AbortController();
    const outer = init.signal;
    const forward = () => controller.abort(outer?.reason);
    if (outer?.aborted) forward();
    else outer?.addEventListener('abort', forward, { once: true });
    let expired: TransportDeadlineError | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (phase: 'first_byte' | 'idle', ms: number) => {
      timer = setTimeout(() => {
        expired = new TransportDeadlineError(phase, ms);
        controller.abort(expired);
      }, timerDelay(ms));
    };
    const disarm = () => clearTimeout(timer);
    const release = () => {
      disarm();
      outer?.removeEventListener('abort', forward);
    };

    arm('first_byte', timeouts.firstByteMs);
    let response: Response;
    try {
      response = await base(input, { ...init, signal: controller.signal });
    } catch (error) {
      release();
      throw expired ?? error;
    }
    const source = response.body;
    if (!source || NULL_BODY.has(response.status)) {
      release();
      return response;
    }
    const reader = source.getReader();
    let started = false;
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(stream) {
          // The first read still runs under the first-byte timer armed with the request.
          if (started) arm('idle', timeouts.idleMs);
          let chunk: Awaited<ReturnType<typeof reader.read>>;
          try {
            chunk = await reader.read();
          } catch (error) {
            release();
            stream.error(expired ?? error);
            return;
          }
          disarm();
          started = true;
          if (chunk.done) {
            release();
            stream.close();
            return;
          }
          stream.enqueue(chunk.value);
        },
        cancel(reason) {
          release();
          return reader.cancel(reason);
        },
      },
      // No read-ahead: a chunk is fetched when the consumer asks, so a slow consumer is never
      // mistaken for a silent server.
      { highWaterMark: 0 },
    );
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
