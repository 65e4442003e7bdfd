/**
 * The context pipeline (seed 000 §3.2, phase 1), run before every model call in this order:
 * 1. tool-result budget (always)     2. snip (opt-in)     3. microcompact (always)
 * 4. collapse (opt-in)               5. auto-compact (default on, at 80 % of the window)
 * plus 6. reactive compact, which the loop calls once when the API still says prompt-too-long.
 * Later stages see the savings of earlier ones, so a collapse that frees enough makes the
 * auto-compact a no-op. Token figures are the last response's reported usage plus estimates of
 * what was added since (less what this pass freed), or a pure estimate when there is no usage.
 */
import type { HookRunner } from '../../hooks/types';
import { contextWindowFor } from '../../model/models';
import type { SideCallClient } from '../../model/side-call';
import { estimateTextTokens, TOOL_OVERHEAD_TOKENS } from '../../model/tokens';
import type { Message } from '../../session/messages';
import type { AppState } from '../../tools/context';
import type { ReadFileState } from '../../tools/read-file-state';
import { toolSchemas } from '../../tools/registry';
import type { AnyTool } from '../../tools/tool';
import type { ContextPipeline, ReactiveCompact } from '../query-types';
import { collapseToolRuns } from './collapse';
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
  /** Off unless given. */
  snip?: { keepTurns: number };
  /** Off unless true. */
  collapse?: boolean;
  budgets?: { perResultTokens?: number; perTurnTokens?: number };
  microcompact?: { triggerFraction?: number; keepRecent?: number; minClearFraction?: number };
  summaryMaxTokens?: number;
  onContentReplacement?: ContentReplacementCallback;
};

export type ContextManager = {
  contextPipeline: ContextPipeline;
  reactiveCompact: ReactiveCompact;
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
function toolTokens(tools: readonly AnyTool[]): number {
  const cached = toolTokenCache.get(tools);
  if (cached !== undefined) return cached;
  let sum = 0;
  for (const t of toolSchemas(tools).tools)
    sum += TOOL_OVERHEAD_TOKENS + estimateTextTokens(t.name + t.description + JSON.stringify(t.input_schema));
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

  const compact = async (
    messages: readonly Message[],
    trigger: CompactTrigger,
    signal: AbortSignal,
    extra: { instructions?: string; preTokens?: number; overheadTokens?: number } = {},
  ) => compactMessages(messages, { trigger, signal, ...extra }, deps);

  const contextPipeline: ContextPipeline = async ({ messages, state, signal }) => {
    const window = windowFor();
    const overhead = toolTokens(state.toolUseContext.tools);
    const events: Message[] = [];
    let freed = 0;
    let current = (await budget.apply(messages)).messages;

    if (options.snip) {
      const before = messagesTokens(current);
      const snipped = snipHistory(current, options.snip);
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

    if (options.collapse) {
      const before = messagesTokens(current);
      const collapsed = collapseToolRuns(current, contextTokens(current, overhead, freed), {
        triggerTokens: 0.7 * window,
        keepRecentRounds: 10,
        minRounds: 5,
      });
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
          return { messages: [...outcome.messages], events: [...events, ...outcome.messages] };
        }
        autoFailures++;
        events.push(outcome.warning);
      }
    }
    return { messages: current, events };
  };

  const reactiveCompact: ReactiveCompact = async ({ messages, signal }) => {
    const outcome = await compact(messages, 'auto', signal);
    if (!outcome.ok) return undefined;
    return { messages: [...outcome.messages], events: [...outcome.messages] };
  };

  return {
    contextPipeline,
    reactiveCompact,
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
