/**
 * A session's knowledge of its models: the built-in table (src/model/models.ts), what the settings
 * declare under `models`, and the context length an OpenAI-compatible server reports. One per
 * session, never a module global, because each session has its own settings and server.
 *
 * Precedence. Context window: the settings (a proxy may allow less than the model), then the
 * table, then the server, then a conservative default. Prices: the table for models it knows —
 * a project's settings file must not be able to make a known model look free and so defeat
 * `--max-budget-usd` — then the settings. Prices are USD per million tokens; cache reads and
 * writes of a declared model cost its input price.
 */

import { nearestName } from '../lib/edit-distance';
import { groupDigits } from '../lib/group-digits';
import { type EffortLevel, wireEffort } from './effort';
import {
  getModelInfo,
  listKnownModels,
  MODEL_ALIASES,
  type ModelInfo,
  resolveModelAlias,
  UNKNOWN_MODEL_LIMITS,
} from './models';
import type { ProviderName } from './types';

export type ModelDeclaration = {
  contextWindow?: number | undefined;
  /** USD per million input tokens. */
  inputPrice?: number | undefined;
  /** USD per million output tokens. */
  outputPrice?: number | undefined;
};

export type ModelPrice = ModelInfo['price'];

/** Asks the server for a model's context length; undefined when it does not say. */
export type ContextLengthLookup = (model: string, signal: AbortSignal) => Promise<number | undefined>;

/** What Yoke has no figure for, for the unknown-model warning. */
export type Unknowns = { contextWindow: boolean; price: boolean };

/**
 * The warning for a model Yoke lacks figures for, or undefined when it knows both. `asking` says
 * the server is being asked for the context length.
 */
export function unknownModelWarning(model: string, unknowns: Unknowns, asking: boolean): string | undefined {
  if (!unknowns.contextWindow && !unknowns.price) return undefined;
  const window = groupDigits(UNKNOWN_MODEL_LIMITS.contextWindow);
  const parts: string[] = [];
  if (unknowns.price) parts.push('its cost is not counted (reported as $0)');
  if (unknowns.contextWindow) {
    parts.push(
      `its context window is taken as ${window} tokens${asking ? ' unless the server reports its own' : ''}`,
    );
  }
  const keys = [
    ...(unknowns.contextWindow ? ['"contextWindow": <tokens>'] : []),
    ...(unknowns.price ? ['"inputPrice": <USD>', '"outputPrice": <USD>'] : []),
  ];
  // A near miss of an alias or a table id is most likely a typo, which the first request would
  // only report as a model the server does not know.
  const near = nearestName(model, [...Object.keys(MODEL_ALIASES), ...listKnownModels().map((m) => m.id)]);
  const typo = near === undefined ? '' : ` (did you mean ${near}?)`;
  return (
    `model "${model}" is unknown to Yoke${typo}: ${parts.join(', and ')}. Declare it in settings: ` +
    `"models": {"${model}": {${keys.join(', ')}}} (prices per million tokens). This is said once per model.`
  );
}

export class ModelCatalog {
  private readonly reported = new Map<string, number>();
  private readonly asked = new Map<string, Promise<void>>();
  private readonly lookups = new AbortController();
  private settledOnce = false;
  private readonly effortNotes = new Set<string>();

  constructor(
    private readonly declared: Readonly<Record<string, ModelDeclaration>> = {},
    private readonly lookup?: ContextLengthLookup,
    private readonly onLookupError?: (model: string, error: unknown) => void,
  ) {}

  contextWindow(model: string): number {
    return (
      this.declaration(model)?.contextWindow ??
      getModelInfo(model)?.contextWindow ??
      this.reported.get(resolveModelAlias(model)) ??
      UNKNOWN_MODEL_LIMITS.contextWindow
    );
  }

  maxOutputTokens(model: string): number {
    return getModelInfo(model)?.maxOutputTokens ?? UNKNOWN_MODEL_LIMITS.maxOutputTokens;
  }

  /** The price, or undefined when neither the table nor the settings give both figures. */
  price(model: string): ModelPrice | undefined {
    const known = getModelInfo(model)?.price;
    if (known) return known;
    const declared = this.declaration(model);
    if (declared?.inputPrice === undefined || declared.outputPrice === undefined) return undefined;
    const input = declared.inputPrice;
    return { input, output: declared.outputPrice, cacheRead: input, cacheWrite: input };
  }

  /** What is unknown about a model once the settings are taken into account. */
  unknowns(model: string): Unknowns {
    const info = getModelInfo(model);
    const declared = this.declaration(model);
    return {
      contextWindow: info === undefined && declared?.contextWindow === undefined,
      price: this.price(model) === undefined,
    };
  }

  /** Declarations the catalog does not follow, one line each (prices of models in the table). */
  ignoredDeclarations(): string[] {
    return Object.entries(this.declared)
      .filter(([id, d]) => getModelInfo(id) && (d.inputPrice !== undefined || d.outputPrice !== undefined))
      .map(
        ([id]) =>
          `settings: models["${id}"]: Yoke's own prices for ${resolveModelAlias(id)} are kept; declared prices ` +
          'apply only to models Yoke does not know.',
      );
  }

  /** True when the server will be asked for this model's context length (see `learn`). */
  canLearn(model: string): boolean {
    return this.lookup !== undefined && this.unknowns(model).contextWindow;
  }

  /**
   * Asks the server for the model's context length in the background, once, when nothing else
   * gives it. Never awaited by a request: until the answer comes, the default window applies.
   */
  learn(model: string): Promise<void> {
    const id = resolveModelAlias(model);
    const lookup = this.lookup;
    const pending = this.asked.get(id);
    if (pending) return pending;
    if (!lookup || !this.canLearn(id)) return Promise.resolve();
    const learning = lookup(id, this.lookups.signal).then(
      (length) => {
        if (length !== undefined && Number.isInteger(length) && length > 0) this.reported.set(id, length);
      },
      (error: unknown) => {
        if (!this.lookups.signal.aborted) this.onLookupError?.(id, error);
      },
    );
    this.asked.set(id, learning);
    return learning;
  }

  /**
   * Before a model call: the first call of the session goes at once; later ones wait for a
   * lookup still in flight (by then it has almost always answered), so from the second call on
   * the window the server reports is the one in force.
   */
  async settle(model: string): Promise<void> {
    if (!this.settledOnce) {
      this.settledOnce = true;
      return;
    }
    await this.asked.get(resolveModelAlias(model));
  }

  /**
   * What to tell the user about `level` on this model (not sent, or sent lower), the first time
   * only: every request of a loop carries the effort, the notice is said once per model and level.
   */
  effortNote(wire: ProviderName, model: string, level: EffortLevel): string | undefined {
    const { note } = wireEffort(wire, model, level);
    const key = `${resolveModelAlias(model)}\0${level}`;
    if (note === undefined || this.effortNotes.has(key)) return undefined;
    this.effortNotes.add(key);
    return note;
  }

  /** Ends lookups still in flight (at the end of the session, so nothing holds the process). */
  dispose(): void {
    this.lookups.abort();
  }

  private declaration(model: string): ModelDeclaration | undefined {
    return this.declared[model] ?? this.declared[resolveModelAlias(model)];
  }
}
