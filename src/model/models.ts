/**
 * The one table of known models: aliases, prices and limits. Prices are USD per million tokens.
 */
import type { EffortLevel } from './effort';

export type ModelInfo = {
  id: string;
  provider: 'anthropic' | 'openai';
  /** USD per million tokens. */
  price: { input: number; output: number; cacheWrite: number; cacheRead: number };
  contextWindow: number;
  maxOutputTokens: number;
  /** Default max_tokens for a request before any escalation. */
  defaultMaxTokens: number;
  supportsThinking: boolean;
  /**
   * The effort levels the model takes (src/model/effort.ts); absent: it takes none, and a request
   * carrying one would be refused.
   */
  effortLevels?: readonly EffortLevel[];
};

const ALL_EFFORT_LEVELS: readonly EffortLevel[] = ['low', 'medium', 'high', 'xhigh', 'max'];

const MODELS: readonly ModelInfo[] = [
  {
    id: 'claude-opus-5-5',
    provider: 'anthropic',
    price: { input: 4, output: 20, cacheWrite: 5, cacheRead: 0.4 },
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    defaultMaxTokens: 32_000,
    supportsThinking: true,
    effortLevels: ALL_EFFORT_LEVELS,
  },
  {
    id: 'claude-sonnet-5-5',
    provider: 'anthropic',
    price: { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 },
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    defaultMaxTokens: 32_000,
    supportsThinking: true,
    effortLevels: ALL_EFFORT_LEVELS,
  },
  {
    id: 'claude-haiku-5-5',
    provider: 'anthropic',
    price: { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 },
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    defaultMaxTokens: 32_000,
    supportsThinking: true,
    effortLevels: ALL_EFFORT_LEVELS,
  },
  {
    id: 'claude-opus-4-5',
    provider: 'anthropic',
    price: { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 },
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    defaultMaxTokens: 32_000,
    supportsThinking: true,
    // Opus 4.5 predates `xhigh` and `max`.
    effortLevels: ['low', 'medium', 'high'],
  },
  {
    id: 'claude-sonnet-4-5',
    provider: 'anthropic',
    price: { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 },
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    defaultMaxTokens: 32_000,
    supportsThinking: true,
  },
  {
    id: 'claude-haiku-4-5',
    provider: 'anthropic',
    price: { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 },
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    defaultMaxTokens: 32_000,
    supportsThinking: true,
  },
  {
    id: 'gpt-4.1',
    provider: 'openai',
    price: { input: 2, output: 8, cacheWrite: 2, cacheRead: 0.5 },
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    defaultMaxTokens: 16_384,
    supportsThinking: false,
  },
  {
    id: 'gpt-4.1-mini',
    provider: 'openai',
    price: { input: 0.4, output: 1.6, cacheWrite: 0.4, cacheRead: 0.1 },
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    defaultMaxTokens: 16_384,
    supportsThinking: false,
  },
  {
    id: 'gpt-4o',
    provider: 'openai',
    price: { input: 2.5, output: 10, cacheWrite: 2.5, cacheRead: 1.25 },
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    defaultMaxTokens: 16_384,
    supportsThinking: false,
  },
  {
    id: 'gpt-4o-mini',
    provider: 'openai',
    price: { input: 0.15, output: 0.6, cacheWrite: 0.15, cacheRead: 0.075 },
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    defaultMaxTokens: 16_384,
    supportsThinking: false,
  },
];

/** Short names a user may type for `--model`. */
export const MODEL_ALIASES: Readonly<Record<string, string>> = {
  opus: 'claude-opus-5-5',
  sonnet: 'claude-sonnet-5-5',
  haiku: 'claude-haiku-5-5',
};

export const DEFAULT_ANTHROPIC_MODEL = MODEL_ALIASES.sonnet as string;
/** The cheap, fast model for side calls (WebFetch summaries, classifiers, titles). */
export const DEFAULT_FAST_ANTHROPIC_MODEL = MODEL_ALIASES.haiku as string;

export function resolveModelAlias(model: string): string {
  return MODEL_ALIASES[model.toLowerCase()] ?? model;
}

/**
 * Looks a model up by id. Dated snapshots (`claude-sonnet-4-5-20250929`) and provider prefixes
 * (`anthropic/claude-…`) resolve to their base entry.
 */
export function getModelInfo(model: string): ModelInfo | undefined {
  const id = resolveModelAlias(model);
  const exact = MODELS.find((m) => m.id === id);
  if (exact) return exact;
  const bare = id.includes('/') ? id.slice(id.lastIndexOf('/') + 1) : id;
  return MODELS.filter((m) => bare === m.id || bare.startsWith(`${m.id}-`)).sort(
    (a, b) => b.id.length - a.id.length,
  )[0];
}

/** Limits for an unknown model (e.g. a local Ollama model): conservative, never free of cost data. */
export const UNKNOWN_MODEL_LIMITS = {
  contextWindow: 128_000,
  maxOutputTokens: 8_192,
  defaultMaxTokens: 8_192,
};

export function contextWindowFor(model: string): number {
  return getModelInfo(model)?.contextWindow ?? UNKNOWN_MODEL_LIMITS.contextWindow;
}

export function maxOutputTokensFor(model: string): number {
  return getModelInfo(model)?.maxOutputTokens ?? UNKNOWN_MODEL_LIMITS.maxOutputTokens;
}

export function defaultMaxTokensFor(model: string): number {
  return getModelInfo(model)?.defaultMaxTokens ?? UNKNOWN_MODEL_LIMITS.defaultMaxTokens;
}

export function listKnownModels(): readonly ModelInfo[] {
  return MODELS;
}
