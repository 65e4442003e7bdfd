/**
 * The context pipeline: the first step of every pass of the query loop, run before each model
 * call (seed 000 §3.2 describes these stages), after the attachments stage (attachments.ts):
 * 1. tool-result budget (always)     2. snip (opt-in)     3. microcompact (always)
 * 4. collapse (opt-in)               5. auto-compact (default on, at 80 % of the window)
 * plus, when the API still says prompt-too-long, the loop's two recoveries in this order: the
 * collapse drain (commits every staged collapse at once) and then one reactive compact.
 * Later stages see the savings of earlier ones, so a collapse that frees enough makes the
 * auto-compact a no-op. Token figures are the last response's reported usage plus estimates of
 * what was added since (less what this pass freed), or a pure estimate when there is no usage.
 */
import type { HookRunner } from '../../hooks/types';
import { contextWindowFor } from '../../model/models';
import type { SideCallClient } from '../../model/side-call';
import { estimateToolSchemaTokens } from '../../model/tokens';
import type { Message } from '../../session/messages';
import type { AppState, ToolUseContext } from '../../tools/context';
import type { ReadFileState } from '../../tools/read-file-state';
import { toolSchemas } from '../../tools/registry';
import type { AnyTool } from '../../tools/tool';
import type { CollapseDrain, ContextPipeline, ReactiveCompact } from '../query-types';
import { ContextCollapse } from './collapse';
import { type CompactTrigger, compactMessages } from './compact';
import { messagesTokens, pinnedPrefixLength } from './context-messages';
import type { EssentialsSource } from './essentials';
import { microcompact } from './microcompact';
import { snipHistory } from './snip';
import { type ContentReplacementCallback, ToolResultBudget } from './tool-result-budget';

export type ContextPipelineOptions = Omit<EssentialsSource, 'getAppState' | 'readFileState'> & {
  /** The session's side calls, for the compaction summary. */
  sideCalls: SideCallClient;
  /** The model for compaction calls and the window size; a function follows model switches. */
  model: string | (() => string);
  hooks: HookRunner;
  getAppState: () => AppState;
  readFileState: ReadFileState;
  /** Where over-budget tool results are written. */
  sessionDir: string;
  /** Default true. Off: the loop ends with `blocking_limit` once the context is full. */
  autoCompact?: boolean;
  /** Share of the window at which auto-compact fires (0–1, default 0.8). */
  autoCompactThreshold?: number;
  /** Overrides the model's context window (tests, proxies with smaller limits). */
  contextWindow?: number;
  /** The session's context window for a model (settings, server, table); the table's when absent. */
  contextWindowFor?: (model: string) => number;
  /**
   * Off unless given; `true` takes SNIP_DEFAULTS. With the fractions (of the window) it cuts by
   * tokens, from the trigger down to the target; without them by rounds. The newest `keepTurns`
   * rounds always stay.
   */
  snip?: boolean | { keepTurns: number; triggerFraction?: number; targetFraction?: number };
  /** Off unless given; `true` takes the defaults below. Fractions are of the window. */
  collapse?: boolean | CollapseSettings;
  budgets?: { perResultTokens?: number; perTurnTokens?: number };
  microcompact?: { triggerFraction?: number; keepRecent?: number; minClearFraction?: number };
  summaryMaxTokens?: number;
  onContentReplacement?: ContentReplacementCallback;
};

export type CollapseSettings = {
  /** Where runs are staged (default 0.5). */
  stageFraction?: number;
  /** Where staged runs replace the rounds (default 0.7). */
  commitFraction?: number;
  keepRecentRounds?: number;
  minRounds?: number;
};

/** What settings `context.snip: true` turns on: cut from 60 % down to 35 % of the window. */
const SNIP_DEFAULTS: { keepTurns: number; triggerFraction?: number; targetFraction?: number } = {
  keepTurns: 6,
  triggerFraction: 0.6,
  targetFraction: 0.35,
};
const COLLAPSE_DEFAULTS = { stageFraction: 0.5, commitFraction: 0.7, keepRecentRounds: 10, minRounds: 5 };

export type ContextManager = {
  contextPipeline: ContextPipeline;
  reactiveCompact: ReactiveCompact;
  /** Present when collapse is on: the loop's first answer to prompt-too-long. */
  collapseDrain?: CollapseDrain;
  /** A manual compaction (`/compact [instructions]`); throws when the summary call fails. */
  compact(
    messages: readonly Message[],
    instructions?: string,
    signal?: AbortSignal,
  ): Promise<{ messages: Message[]; events: Message[] }>;
};

/** After this many auto-compactions fail in a row, stop trying until one succeeds manually. */
const MAX_AUTO_FAILURES = 3;

// Process-wide on purpose: keyed by a tool pool (never changed once assembled), weakly.
const toolTokenCache = new WeakMap<readonly AnyTool[], number>();
function toolTokens(context: ToolUseContext, contextWindow: number): number {
  const { tools } = context;
  // With deferred tools the request carries their names, not their schemas (tools/deferral).
  const sent = context.services.deferredTools.sentToolTokens(tools, contextWindow);
  if (sent !== undefined) return sent;
  const cached = toolTokenCache.get(tools);
  if (cached !== undefined) return cached;
  let sum = 0;
  for (const t of toolSchemas(tools).tools) sum += estimateToolSchemaTokens(t);
  toolTokenCache.set(tools, sum);
  return sum;
}

/** Context size: the newest reported usage plus what came after it, else a pure estimate. */
export function contextTokens(messages: readonly Message[], overhead: number, freedBeforeAnchor = 0): number {
  const estimate = messagesTokens(messages) + overhead;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as Message;
    if (m.type !== 'assistant' || m.apiError !== undefined) continue;
    const u = m.message.usage;
    const reported = u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens + u.outputTokens;
    if (reported === 0) continue;
    return Math.max(estimate, reported - freedBeforeAnchor + messagesTokens(messages, i + 1));
  }
  return estimate;
}

export function createContextPipeline(options: ContextPipelineOptions): ContextManager {
  const model = typeof options.model === 'function' ? options.model : () => options.model as string;
  const windowFor = () => options.contextWindow ?? (options.contextWindowFor ?? contextWindowFor)(model());
  const budget = new ToolResultBudget({
    perResultTokens: options.budgets?.perResultTokens ?? 25_000,
    perTurnTokens: options.budgets?.perTurnTokens ?? 50_000,
    sessionDir: options.sessionDir,
    onContentReplacement: options.onContentReplacement,
  });
  const deps = { ...options, model };
  let autoFailures = 0;
  const collapse = collapseStage(options.collapse, windowFor);
  const snip = options.snip === true ? SNIP_DEFAULTS : options.snip || undefined;

  const compact = async (
    messages: readonly Message[],
    trigger: CompactTrigger,
    signal: AbortSignal,
    extra: { instructions?: string; preTokens?: number; overheadTokens?: number } = {},
  ) => compactMessages(messages, { trigger, signal, ...extra }, deps);

  const contextPipeline: ContextPipeline = async ({ messages, state, signal }) => {
    const window = windowFor();
    const overhead = toolTokens(state.toolUseContext, window);
    const events: Message[] = [];
    let freed = 0;
    let current = (await budget.apply(messages)).messages;

    if (snip) {
      const before = messagesTokens(current);
      const { triggerFraction, targetFraction } = snip;
      const snipBudget =
        triggerFraction === undefined
          ? undefined
          : {
              contextTokens: contextTokens(current, overhead, freed),
              triggerTokens: triggerFraction * window,
              targetTokens: (targetFraction ?? triggerFraction / 2) * window,
            };
      const snipped = snipHistory(current, snip, snipBudget);
      if (snipped.event) {
        current = snipped.messages;
        events.push(snipped.event);
        freed += before - messagesTokens(current);
      }
    }

    const mc = options.microcompact ?? {};
    const micro = microcompact(current, contextTokens(current, overhead, freed), {
      triggerTokens: (mc.triggerFraction ?? 0.6) * window,
      keepRecent: mc.keepRecent ?? 8,
      minClearTokens: (mc.minClearFraction ?? 0.05) * window,
      onContentReplacement: options.onContentReplacement,
    });
    current = micro.messages;
    freed += micro.freedTokens;

    if (collapse) {
      const before = messagesTokens(current);
      const collapsed = collapse().apply(current, contextTokens(current, overhead, freed));
      if (collapsed.event) {
        current = collapsed.messages;
        events.push(collapsed.event);
        freed += before - messagesTokens(current);
      }
    }

    const threshold = (options.autoCompactThreshold ?? 0.8) * window;
    const tokens = contextTokens(current, overhead, freed);
    if (options.autoCompact !== false && autoFailures < MAX_AUTO_FAILURES && tokens >= threshold) {
      // Right after a compaction only the summary and a prompt are left: compacting again cannot help.
      const live = current.slice(pinnedPrefixLength(current));
      if (live.some((m) => m.type === 'assistant')) {
        const outcome = await compact(current, 'auto', signal, {
          preTokens: tokens,
          overheadTokens: overhead,
        });
        if (outcome.ok) {
          autoFailures = 0;
          return {
            messages: [...outcome.messages],
            events: [...events, ...outcome.messages],
            madeSideCall: true,
          };
        }
        autoFailures++;
        events.push(outcome.warning);
        return { messages: current, events, madeSideCall: true };
      }
    }
    return { messages: current, events };
  };

  const reactiveCompact: ReactiveCompact = async ({ messages, signal }) => {
    const outcome = await compact(messages, 'auto', signal);
    if (!outcome.ok) return undefined;
    return { messages: [...outcome.messages], events: [...outcome.messages] };
  };

  const collapseDrain: CollapseDrain | undefined = collapse
    ? async ({ messages }) => {
        const drained = collapse().drain(messages);
        if (!drained.event) return undefined;
        return { messages: drained.messages, events: [drained.event], folded: drained.folded };
      }
    : undefined;

  return {
    contextPipeline,
    reactiveCompact,
    ...(collapseDrain ? { collapseDrain } : {}),
    async compact(messages, instructions, signal = new AbortController().signal) {
      const outcome = await compact(messages, 'manual', signal, { instructions });
      if (!outcome.ok) throw new Error(outcome.warning.content);
      autoFailures = 0;
      return { messages: [...outcome.messages], events: [...outcome.messages] };
    },
  };
}

/** What QueryEngine's `contextManagement` config sets; the engine supplies the rest. */
export type ContextManagementConfig = Partial<
  Omit<
    ContextPipelineOptions,
    'sideCalls' | 'model' | 'hooks' | 'getAppState' | 'readFileState' | 'sessionDir'
  >
>;

/**
 * The conversation's collapse state, or undefined when collapse is off. Its marks follow the
 * window, which may change with the model, so the state is rebuilt when the window does (what was
 * staged under the old marks is simply staged again).
 */
function collapseStage(
  setting: ContextPipelineOptions['collapse'],
  windowFor: () => number,
): (() => ContextCollapse) | undefined {
  if (!setting) return undefined;
  const c = { ...COLLAPSE_DEFAULTS, ...(setting === true ? {} : setting) };
  let built: { window: number; stage: ContextCollapse } | undefined;
  return () => {
    const window = windowFor();
    if (built?.window !== window) {
      built = {
        window,
        stage: new ContextCollapse({
          stageTokens: c.stageFraction * window,
          commitTokens: c.commitFraction * window,
          keepRecentRounds: c.keepRecentRounds,
          minRounds: c.minRounds,
        }),
      };
    }
    return built.stage;
  };
}
