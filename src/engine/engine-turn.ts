/**
 * One turn of a QueryEngine, from `system/init` to its one `result`: the turn's tools, the opening
 * (input processing, UserPromptSubmit hooks, context), the query loop with the session's settings,
 * and the result frame. The engine owns the conversation; a turn reads and extends it through
 * `TurnHost` and hands the loop's final history back with `adopt`.
 */
import type { HookRunner } from '../hooks/types';
import type { ModelCatalog } from '../model/catalog';
import type { CostTracker } from '../model/cost';
import { withEffortOverride } from '../model/effort';
import type { SystemPart, ThinkingConfig } from '../model/types';
import { createUserMessage, type Message } from '../session/messages';
import type { ToolUseContext } from '../tools/context';
import type { AnyTool } from '../tools/tool';
import { withAllowRules } from '../tools/with-allow-rules';
import type { EngineContext } from './engine-context';
import { inputWithFrames } from './input-progress';
import type { LivePoolMessages } from './live-pool-messages';
import type { ModeAndPool } from './mode-and-pool';
import { query } from './query';
import type { QueryEngineConfig } from './query-engine-config';
import type { Terminal } from './query-types';
import { buildResultMessage, commandErrorResult, hookStopNotices, type ResultInput } from './result-message';
import type { SDKMessage, SDKPermissionDenial } from './sdk-messages';
import type { SessionDescription } from './session-description';
import type { StructuredOutputCapture } from './structured-output';
import { withTranscriptSync } from './transcript-sync';
import { TurnConverter } from './turn-converter';
import { runLoop } from './turn-ledger';
import { openingMessages, openTurn, type TurnOpening } from './turn-opening';

/** The engine's state and services as a turn uses them; functions read the engine's state now. */
export type TurnHost = {
  readonly sessionId: string;
  readonly config: QueryEngineConfig;
  readonly hooks: HookRunner;
  readonly modes: ModeAndPool;
  readonly description: SessionDescription;
  readonly context: EngineContext;
  readonly costTracker: CostTracker;
  readonly models: ModelCatalog;
  readonly permissionDenials: SDKPermissionDenial[];
  readonly liveMessages: LivePoolMessages | undefined;
  model(): string;
  thinking(): ThinkingConfig | undefined;
  messages(): Message[];
  /** SessionStart hook context not yet recorded. */
  sessionContext(): readonly string[];
  clearSessionContext(): void;
  /** The system prompt the turn sends, for `/context`. */
  noteSystemPrompt(parts: readonly SystemPart[]): void;
  /** Adds a message to history and to the transcript. */
  record(message: Message): void;
  toolUseContext(tools: readonly AnyTool[], signal: AbortSignal): ToolUseContext;
  /** Hook frames queued since the last call. */
  hookFrames(): Iterable<SDKMessage>;
  /** The loop's final history (it may have compacted or recovered), cwd and project root. */
  adopt(terminal: Terminal): void;
};

type TurnFacts = Pick<
  ResultInput,
  'startedAt' | 'costAtStart' | 'lastAssistantText' | 'numTurns' | 'structuredOutput'
>;

/** One turn; without `opening` it starts from the queued notices alone (submitQueuedNotices). */
export async function* runEngineTurn(
  host: TurnHost,
  opening: TurnOpening | undefined,
  signal: AbortSignal,
  startedAt: number,
): AsyncGenerator<SDKMessage, void> {
  const { config, hooks } = host;
  // Tools of this turn alone (StructuredOutput), kept when the pool is refreshed.
  const turnTools: AnyTool[] = [];
  // Its module brings classic zod, so it loads only for a turn with a JSON schema.
  const schema = config.jsonSchema;
  let capture: StructuredOutputCapture | undefined;
  if (schema) {
    capture = { value: undefined, provided: false };
    turnTools.push((await import('./structured-output')).createStructuredOutputTool(schema, capture));
  }
  // Read again at each request: a mode switched mid-turn (ExitPlanMode) or an MCP server that
  // connected or dropped meanwhile changes the offer.
  const { initial: tools, refresh: refreshTools } = host.modes.turnTools(turnTools);
  const converter = new TurnConverter(
    host.sessionId,
    config.includePartialMessages ?? false,
    null,
    undefined,
    config.toolStartFrames ?? false,
  );
  const costAtStart = host.costTracker.total();

  yield host.description.initMessage(tools, config.livePool?.initExtras());
  // The turn's start is several ms of cold work before the query's own pauses (the REPL lets
  // typed keys in at each): the tool offer and init frame, the system prompt and the input, then
  // the opening messages recorded to the transcript.
  await config.letInputIn?.();

  // Recorded before the input is processed, so a `/context` that is this turn's input counts it.
  host.noteSystemPrompt(await host.description.systemPrompt(tools));
  const opened = yield* inputWithFrames(converter, (onProgress) =>
    openTurn(opening, {
      processInput: config.processInput,
      context: () => host.toolUseContext(tools, signal),
      hooks,
      signal,
      onProgress,
    }),
  );
  yield* host.hookFrames();
  if (opened.kind === 'answered') {
    for (const { content, isMeta } of opened.conversation ?? [])
      host.record(createUserMessage(content, { isMeta }));
    const turn = { startedAt, costAtStart, lastAssistantText: opened.text, numTurns: 0 };
    const completed: Terminal = { reason: 'completed', turnCount: 0, messages: host.messages() };
    yield* finishTurn(host, completed, turn, opened.isError ? opened.text : undefined);
    return;
  }
  if (opened.kind === 'blocked') {
    const blocked: Terminal = {
      reason: 'hook_stopped',
      turnCount: 0,
      message: opened.reason,
      messages: host.messages(),
    };
    yield* finishTurn(host, blocked, { startedAt, costAtStart, lastAssistantText: '', numTurns: 0 });
    return;
  }
  const sources = {
    sessionContext: host.sessionContext(),
    liveMessages: host.liveMessages,
    skillListing: config.skillListing,
  };
  const openingContext = await openingMessages(opened, opening, sources, signal);
  host.clearSessionContext();
  for (const message of openingContext) host.record(message);
  await config.letInputIn?.();
  const turnModel = opened.input?.model ?? host.model();

  // Again: the input may have changed what it is built from (a command that switched the model).
  const systemPrompt = await host.description.systemPrompt(tools);
  host.noteSystemPrompt(systemPrompt);
  const loop = query({
    messages: host.messages(),
    systemPrompt,
    // A command's allowed-tools hold for this turn only.
    toolUseContext: withAllowRules(
      withEffortOverride(
        { ...host.toolUseContext(tools, signal), model: turnModel },
        opened.input?.effort,
        'skill',
      ),
      opened.input?.allowRules ?? [],
    ),
    refreshTools,
    canUseTool: config.canUseTool,
    provider: config.provider,
    model: turnModel,
    fallback: config.fallback,
    hooks,
    maxTurns: config.maxTurns,
    maxOutputTokens: config.maxOutputTokens,
    thinking: host.thinking(),
    contextPipeline: withTranscriptSync(config.transcript, host.context.pipeline()),
    reactiveCompact: host.context.reactiveCompact(),
    collapseDrain: host.context.collapseDrain(),
    taskBudget: config.taskBudget,
    contextWindowFor: (model) => host.models.contextWindow(model),
    isBudgetExhausted: () =>
      config.maxBudgetUsd !== undefined && host.costTracker.total().costUsd >= config.maxBudgetUsd,
    querySource: 'main',
    stopHookBlockCap: config.stopHookBlockCap,
    structuredOutput: capture,
    letInputIn: config.letInputIn,
  });
  const terminal = yield* runLoop(loop, {
    ledger: {
      costTracker: host.costTracker,
      transcript: config.transcript,
      hooks,
      permissionDenials: host.permissionDenials,
      onNotification: config.onNotification,
    },
    converter,
    hookFrames: () => host.hookFrames(),
    signal,
  });
  host.adopt(terminal);

  yield* finishTurn(host, terminal, {
    startedAt,
    costAtStart,
    lastAssistantText: converter.lastAssistantText,
    numTurns: converter.responses,
    structuredOutput: capture,
  });
}

/** The end of a turn: hook frames still queued, the notice of a hook's stop, the result. */
function* finishTurn(
  host: TurnHost,
  terminal: Terminal,
  turn: TurnFacts,
  /** A command answered without the model failed (it needs the interactive UI, a `!` was refused…). */
  commandError?: string,
): Generator<SDKMessage> {
  yield* host.hookFrames();
  yield* hookStopNotices(terminal, host.sessionId);
  const result = buildResultMessage({
    ...turn,
    sessionId: host.sessionId,
    terminal,
    cost: host.costTracker,
    denials: host.permissionDenials,
    maxBudgetUsd: host.config.maxBudgetUsd,
  });
  yield commandError === undefined ? result : commandErrorResult(result, commandError);
}
