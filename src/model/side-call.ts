/**
 * The session's side calls: model requests outside the conversation — a compaction summary,
 * WebFetch's answer about a page, the auto-mode classifier's verdict, and later titles and
 * progress summaries. `complete()` sits beside the provider's `stream()`: it sends on the
 * session's provider (its base URL, key, transport waits and retry policy), reads the whole
 * answer, drops what a failed attempt had streamed when the retry layer resets the stream, and
 * adds what the call cost to the session's usage sink, so `total_cost_usd`, `modelUsage` and
 * `--max-budget-usd` count it.
 *
 * Retries are reported through `onRetry`, never as events of the conversation's stream: a side
 * call may run while the main response streams (WebFetch, the classifier), and its retry must not
 * land between that response's frames.
 *
 * One client per session, made by the composition root and handed to whoever makes side calls.
 */
import { ConnectionError, isAbortError } from './errors';
import { isRetrying } from './retry';
import type {
  MessageParam,
  ModelRequest,
  Provider,
  RetryEvent,
  StopReason,
  SystemPart,
  Usage,
} from './types';

/** The session has no model for side calls (services made for a tool test): callers fall back. */
export class NoSideCallModelError extends Error {
  override name = 'NoSideCallModelError';
  constructor() {
    super('this session has no model for side calls');
  }
}

/** What a side call is for; names it in retry notices. */
export type SideCallPurpose = 'compaction' | 'web_fetch' | 'classifier' | 'progress_summary';

export const SIDE_CALL_LABELS: Record<SideCallPurpose, string> = {
  compaction: 'compaction summary',
  web_fetch: "WebFetch's reading of the page",
  classifier: 'auto-mode classifier',
  progress_summary: "a background agent's progress summary",
};

/** Where a side call's spending goes: the session's cost tracker. Returns the cost in USD. */
export type UsageSink = { add(model: string, usage: Usage, apiDurationMs?: number): number };

export type SideCallRequest = {
  purpose: SideCallPurpose;
  /** The model to ask; the session's fast model when absent. */
  model?: string;
  system: SystemPart[];
  messages: MessageParam[];
  maxTokens: number;
  temperature?: number;
  /** Fewer retries than the session's, for a call that must answer soon (a permission check). */
  maxRetries?: number;
};

export type SideCallResult = {
  /** The answer's text blocks, joined by newlines. */
  text: string;
  model: string;
  stopReason: StopReason;
  usage: Usage;
  /** What the call added to the session's cost. */
  costUsd: number;
};

export type SideCallRetry = { purpose: SideCallPurpose; event: RetryEvent };

export type SideCallClientOptions = {
  provider: Provider;
  /** The session's fast model; a function, because it may be the main model, which can change. */
  fastModel: () => string;
  usage: UsageSink;
  /** Each retry of a side call, announced before its wait. */
  onRetry?: (retry: SideCallRetry) => void;
};

export type SideCallClient = {
  /** The model a side call uses unless it names another. */
  fastModel(): string;
  complete(request: SideCallRequest, signal: AbortSignal): Promise<SideCallResult>;
};

export function createSideCallClient(options: SideCallClientOptions): SideCallClient {
  const providerFor = (maxRetries: number | undefined): Provider =>
    maxRetries !== undefined && isRetrying(options.provider)
      ? options.provider.withRetryOptions({ maxRetries })
      : options.provider;

  return {
    fastModel: options.fastModel,
    async complete(request, signal) {
      const model = request.model ?? options.fastModel();
      const modelRequest: ModelRequest = {
        model,
        system: request.system,
        messages: request.messages,
        maxTokens: request.maxTokens,
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      };
      const startedAt = Date.now();
      let texts: string[] = [];
      let started: Usage | undefined;
      let stop: { reason: StopReason; usage: Usage } | undefined;
      try {
        for await (const event of providerFor(request.maxRetries).stream(modelRequest, signal)) {
          if (event.type === 'message_start') started = event.usage;
          else if (event.type === 'stream_reset') {
            // The retry starts over: what the failed attempt said is not part of the answer.
            texts = [];
            started = undefined;
          } else if (event.type === 'retry') options.onRetry?.({ purpose: request.purpose, event });
          else if (event.type === 'block_stop' && event.block.type === 'text') texts.push(event.block.text);
          else if (event.type === 'message_stop') stop = { reason: event.stopReason, usage: event.usage };
        }
      } catch (error) {
        // As for the conversation: an answer cut short by the caller was billed for its input.
        if (started && (signal.aborted || isAbortError(error))) {
          options.usage.add(model, started, Date.now() - startedAt);
        }
        throw error;
      }
      if (!stop) throw new ConnectionError('The model stream ended before the answer was complete.', true);
      const costUsd = options.usage.add(model, stop.usage, Date.now() - startedAt);
      return { text: texts.join('\n'), model, stopReason: stop.reason, usage: stop.usage, costUsd };
    },
  };
}
