/**
 * What a conversation cost: USD from the model table, accumulated per model in the shape of the
 * SDK result's `modelUsage` so the engine can hand it over unchanged.
 */

import { ModelCatalog, type ModelPrice } from './catalog';
import { getModelInfo, resolveModelAlias } from './models';
import { addUsage, emptyUsage, type Usage } from './types';

const PER_MILLION = 1_000_000;

/** True when the model table knows this model's prices (local and unknown models are not). */
export function isPriced(model: string): boolean {
  return getModelInfo(model) !== undefined;
}

/**
 * USD for one usage record. Cache writes use the 5-minute write price, which is what Yoke's
 * cache breakpoints request. Unknown models cost 0; use `isPriced` to tell "free" from "unknown".
 */
export function costOfUsage(model: string, usage: Usage): number {
  return costAt(getModelInfo(model)?.price, usage);
}

function costAt(p: ModelPrice | undefined, usage: Usage): number {
  if (!p) return 0;
  return (
    (usage.inputTokens * p.input +
      usage.outputTokens * p.output +
      usage.cacheReadInputTokens * p.cacheRead +
      usage.cacheCreationInputTokens * p.cacheWrite) /
    PER_MILLION
  );
}

/** One entry of the SDK result's `modelUsage`, field for field. */
export type ModelUsage = {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  webSearchRequests: number;
  costUSD: number;
  contextWindow: number;
  maxOutputTokens: number;
};

export type CostTotal = {
  usage: Usage;
  costUsd: number;
  apiDurationMs: number;
  /** Number of `add` calls, i.e. API requests. */
  requests: number;
};

/**
 * What a resumed session's earlier runs spent, summed from its transcript's cost lines: the REPL
 * adds it to this run's tracker so the status line and /cost show the session's total.
 */
export type EarlierSpend = Omit<CostTotal, 'apiDurationMs'>;

/** The model facts a tracker needs; a session's ModelCatalog, or the built-in table alone. */
export type ModelFacts = Pick<ModelCatalog, 'price' | 'contextWindow' | 'maxOutputTokens'>;

/** One request as `add` recorded it. */
export type CostEntry = { model: string; usage: Usage; costUsd: number };

/**
 * Per-session accumulator: call `add` once per completed API request, the conversation's and the
 * side calls' alike (compaction summaries, WebFetch's answers, the auto-mode classifier).
 */
export class CostTracker {
  private readonly models = new Map<string, ModelUsage>();
  private readonly listeners = new Set<(entry: CostEntry) => void>();
  private usage: Usage = emptyUsage();
  private costUsd = 0;
  private apiDurationMs = 0;
  private requests = 0;

  constructor(private readonly facts: ModelFacts = new ModelCatalog()) {}

  /**
   * Records one request and returns its cost in USD. `webSearchRequests` counts server-side web
   * searches the API billed for this request, reported through to `modelUsage`.
   */
  add(model: string, usage: Usage, apiDurationMs = 0, webSearchRequests = 0): number {
    const id = resolveModelAlias(model);
    const cost = costAt(this.facts.price(id), usage);
    this.usage = addUsage(this.usage, usage);
    this.costUsd += cost;
    this.apiDurationMs += apiDurationMs;
    this.requests++;

    let entry = this.models.get(id);
    if (!entry) {
      entry = {
        inputTokens: 0,
        outputTokens: 0,
        cacheReadInputTokens: 0,
        cacheCreationInputTokens: 0,
        webSearchRequests: 0,
        costUSD: 0,
        contextWindow: this.facts.contextWindow(id),
        maxOutputTokens: this.facts.maxOutputTokens(id),
      };
      this.models.set(id, entry);
    }
    entry.inputTokens += usage.inputTokens;
    entry.outputTokens += usage.outputTokens;
    entry.cacheReadInputTokens += usage.cacheReadInputTokens;
    entry.cacheCreationInputTokens += usage.cacheCreationInputTokens;
    entry.webSearchRequests += webSearchRequests;
    entry.costUSD += cost;
    for (const listener of this.listeners) listener({ model: id, usage, costUsd: cost });
    return cost;
  }

  /** Calls `listener` after every `add` (the transcript's cost lines); returns the unsubscribe. */
  onAdd(listener: (entry: CostEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  total(): CostTotal {
    return {
      usage: { ...this.usage },
      costUsd: this.costUsd,
      apiDurationMs: this.apiDurationMs,
      requests: this.requests,
    };
  }

  /**
   * A copy keyed by resolved model id, ready to serialize as `modelUsage`. The limits are read
   * now: a context window the server reported after the first request counts.
   */
  byModel(): Record<string, ModelUsage> {
    const out: Record<string, ModelUsage> = {};
    for (const [id, entry] of this.models) {
      out[id] = {
        ...entry,
        contextWindow: this.facts.contextWindow(id),
        maxOutputTokens: this.facts.maxOutputTokens(id),
      };
    }
    return out;
  }

  /** Models used in this session that the price table does not know (their cost counts as 0). */
  unpricedModels(): string[] {
    return [...this.models.keys()].filter((id) => this.facts.price(id) === undefined);
  }
}
