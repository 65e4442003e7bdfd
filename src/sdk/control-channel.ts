/**
 * Yoke's own control requests to the host (`can_use_tool`, `hook_callback`, `mcp_message`): each
 * gets a fresh id and waits for the `control_response` with that id. Answers to ids we no longer
 * wait for (cancelled, or never ours) are ignored, as the protocol requires (agent-sdk-protocol §5.8).
 */
import { randomUUID } from 'node:crypto';
import type { JsonObject } from './ndjson';
import type { ControlCancelRequest, ControlRequest, ControlResponse } from './protocol';

/** The host answered a request with `subtype: 'error'`. */
export class ControlRequestError extends Error {
  override name = 'ControlRequestError';
}

type Pending = { resolve: (payload: JsonObject) => void; reject: (error: Error) => void };

export class ControlChannel {
  private readonly pending = new Map<string, Pending>();
  private closedReason: string | undefined;

  constructor(
    private readonly send: (message: ControlRequest | ControlCancelRequest) => void,
    private readonly newId: () => string = randomUUID,
  ) {}

  /** Sends a request and resolves with the success payload (`{}` when the host sent none). */
  request(request: { subtype: string } & JsonObject, signal?: AbortSignal): Promise<JsonObject> {
    if (this.closedReason !== undefined) return Promise.reject(new ControlRequestError(this.closedReason));
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const requestId = this.newId();
    return new Promise<JsonObject>((resolve, reject) => {
      const onAbort = () => {
        if (!this.pending.delete(requestId)) return;
        // Withdraw the question so the host stops asking its user; a late answer is then ignored.
        this.send({ type: 'control_cancel_request', request_id: requestId });
        reject(abortError(signal));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = () => signal?.removeEventListener('abort', onAbort);
      this.pending.set(requestId, {
        resolve: (payload) => {
          settle();
          resolve(payload);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      this.send({ type: 'control_request', request_id: requestId, request });
    });
  }

  /** Routes a `control_response`; returns false when no request of ours was waiting for it. */
  handleResponse(response: ControlResponse['response']): boolean {
    const waiting = this.pending.get(response.request_id);
    if (!waiting) return false;
    this.pending.delete(response.request_id);
    if (response.subtype === 'success') waiting.resolve(response.response ?? {});
    else waiting.reject(new ControlRequestError(response.error));
    return true;
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /**
   * After stdin ends no answer can arrive: fail what is waiting and every later request at once,
   * so a permission question or hook does not hang the session forever (agent-sdk-protocol §6).
   */
  close(reason: string): void {
    this.closedReason = reason;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const entry of waiting) entry.reject(new ControlRequestError(reason));
  }
}

function abortError(signal: AbortSignal | undefined): Error {
  const reason = signal?.reason;
  return reason instanceof Error ? reason : new DOMException('The request was cancelled.', 'AbortError');
}
