/**
 * One QueryEngine per conversation (seed 000 §3.1). `submitMessage` runs one user turn through the
 * query loop and yields SDK messages: `system/init`, the turn's assistant/user/system frames, and
 * exactly one `result`.
 */
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HookRunner, noopHooks } from '../hooks/types';
import { ModelCatalog } from '../model/catalog';
import { CostTracker } from '../model/cost';
import type { SystemPart, ThinkingConfig, UserContentBlock } from '../model/types';
import type { PermissionMode, ToolPermissionContext } from '../permissions/types';
import { emptyPermissionContext } from '../permissions/types';
import { createUserMessage, lastUserPromptText, type Message } from '../session/messages';
import { type AppState, initialAppState, type ToolUseContext } from '../tools/context';
import { ReadFileState } from '../tools/read-file-state';
import type { AnyTool } from '../tools/tool';
import { apiNotices } from './api-notices';
import { EngineContext } from './engine-context';
import { gatherEnvironment } from './environment';
import { buildInitMessage } from './init-message';
import { MessageQueue } from './message-queue';
import { settleModelFacts } from './model-facts';
import { notifier } from './notifier';
import { query } from './query';
import type { QueryEngineConfig } from './query-engine-config';
import type { Terminal } from './query-types';
import { buildResultMessage, hookStopNotices, type ResultInput } from './result-message';
import type { SDKMessage, SDKPermissionDenial, SDKSystemInitMessage } from './sdk-messages';
import { endSession, startSession } from './session-lifecycle';
import type { StructuredOutputCapture } from './structured-output';
import { buildSystemPrompt, type EnvironmentFacts } from './system-prompt';
import { withTranscriptSync } from './transcript-sync';
import { TurnConverter } from './turn-converter';

export type { QueryEngineConfig };

/** Turns that ended on an API failure rather than a normal stop: `StopFailure` hooks fire. */
const STOP_FAILURE_REASONS = new Set(['model_error', 'prompt_too_long', 'image_error']);

/** How many times the model is reminded to call StructuredOutput before the turn fails. */
const MAX_STRUCTURED_OUTPUT_NUDGES = 2;

export class QueryEngine {
  readonly sessionId: string;
  private readonly config: QueryEngineConfig;
  private mutableMessages: Message[];
  private readonly readFileState = new ReadFileState();
  /** Notices and mid-turn prompts waiting for the model's next turn boundary. */
  private readonly queue = new MessageQueue();
  private appState: AppState = initialAppState();
  /** Prices and context windows (settings, server, table), for cost and compaction. */
  private readonly models: ModelCatalog;
  private readonly costTracker: CostTracker;
  private readonly permissionDenials: SDKPermissionDenial[] = [];
  private model: string;
  private permissionContext: ToolPermissionContext;
  private cwd: string;
  private environment: EnvironmentFacts | undefined;
  private turnAbort: AbortController | undefined;
  private thinkingOverride: ThinkingConfig | undefined;
  private readonly sessionDir: string;
  private readonly context: EngineContext;
  private started = false;
  private closed = false;
  /** SessionStart hook context, recorded just before the first prompt that is not blocked. */
  private sessionContext: string[] = [];

  constructor(config: QueryEngineConfig) {
    this.config = config;
    this.models = config.models ?? new ModelCatalog();
    this.costTracker = new CostTracker(this.models);
    this.sessionId = config.sessionId ?? randomUUID();
    this.mutableMessages = [...(config.initialMessages ?? [])];
    this.model = config.model;
    this.cwd = config.cwd;
    this.permissionContext = config.permissionContext ?? emptyPermissionContext();
    this.environment = config.environment;
    this.sessionDir = config.sessionDir ?? join(tmpdir(), 'yoke-sessions', this.sessionId);
    this.context = new EngineContext({
      config,
      provider: config.provider,
      model: () => this.model,
      hooks: this.hooks,
      getAppState: () => this.appState,
      readFileState: this.readFileState,
      queue: this.queue,
      sessionDir: this.sessionDir,
      contextWindowFor: (model) => this.models.contextWindow(model),
      settleModelFacts: (stages) => settleModelFacts(this.models, () => this.model, stages),
    });
  }

  private get hooks(): HookRunner {
    return this.config.hooks ?? noopHooks;
  }

  get messages(): readonly Message[] {
    return this.mutableMessages;
  }

  get currentModel(): string {
    return this.model;
  }

  get permissionMode(): PermissionMode {
    return this.permissionContext.mode;
  }

  /** The live permission context (its mode follows `setPermissionMode`). */
  get currentPermissionContext(): ToolPermissionContext {
    return this.permissionContext;
  }

  /** Where tools run now: the project root, or wherever Bash last `cd`-ed inside it. */
  get currentCwd(): string {
    return this.cwd;
  }

  /** The text of the latest prompt the user typed (for the auto-mode classifier). */
  get lastUserPrompt(): string {
    return lastUserPromptText(this.mutableMessages);
  }

  get totalCostUsd(): number {
    return this.costTracker.total().costUsd;
  }

  /**
   * The SDK's `set_max_thinking_tokens`: a budget enables thinking with it, 0 turns it off, null
   * goes back to the configured setting. Applies from the next model call.
   */
  setMaxThinkingTokens(tokens: number | null): void {
    this.thinkingOverride =
      tokens === null
        ? undefined
        : tokens === 0
          ? { type: 'disabled' }
          : { type: 'enabled', budgetTokens: tokens };
  }

  setModel(model: string): void {
    this.model = model;
    void this.models.learn(model);
  }

  setPermissionMode(mode: PermissionMode): void {
    this.permissionContext = { ...this.permissionContext, mode };
  }

  /**
   * A prompt the user sent while a turn runs: the model reads it at the turn's next boundary
   * (after the tool results it is working on), as the user's own message. A prompt the turn had
   * no boundary left for is handed back by `takeQueuedPrompts` once `submitMessage` ends.
   */
  enqueuePrompt(content: string | UserContentBlock[], options: { clientUuid?: string } = {}): void {
    this.queue.enqueue({
      kind: 'prompt',
      content,
      ...(options.clientUuid ? { clientUuid: options.clientUuid } : {}),
    });
  }

  /** Prompts queued during the turn that ended before reading them, for the caller to run next. */
  takeQueuedPrompts(): { content: string | UserContentBlock[]; clientUuid?: string }[] {
    return this.queue.takePrompts().map(({ kind: _kind, ...prompt }) => prompt);
  }

  /** The client ids of the prompts `enqueuePrompt` holds for the running turn. */
  queuedPromptIds(): string[] {
    return this.queue.promptIds();
  }

  /** Aborts the running turn, if any. */
  interrupt(): void {
    this.turnAbort?.abort();
  }

  /**
   * Ends the session: SessionEnd hooks run, background shells die with their process groups,
   * and the transcript file is closed. Safe to call more than once.
   */
  async close(reason = 'other'): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.turnAbort?.abort();
    this.models.dispose();
    await endSession({
      hooks: this.hooks,
      sessionId: this.sessionId,
      started: this.started,
      reason,
      transcript: this.config.transcript,
      // A session that is not kept (no sessionDir given) leaves no folder behind.
      ownedDir: this.config.sessionDir === undefined ? this.sessionDir : undefined,
    });
  }

  async *submitMessage(
    prompt: string | UserContentBlock[],
    options: { clientUuid?: string; signal?: AbortSignal } = {},
  ): AsyncGenerator<SDKMessage, void> {
    const startedAt = Date.now();
    const abort = new AbortController();
    this.turnAbort = abort;
    const onOuterAbort = () => abort.abort();
    // A stop that came before the turn began still counts: the turn ends as interrupted.
    if (options.signal?.aborted) abort.abort();
    else options.signal?.addEventListener('abort', onOuterAbort, { once: true });
    try {
      if (!this.started) {
        this.started = true;
        const source = this.mutableMessages.length > 0 ? 'resume' : 'startup';
        const input = { source, model: this.model } as const;
        this.sessionContext = await startSession(this.hooks, input, abort.signal, this.config.onNotification);
        yield* this.hookFrames();
      }
      yield* this.runTurn(prompt, options.clientUuid, abort.signal, startedAt);
    } finally {
      options.signal?.removeEventListener('abort', onOuterAbort);
      if (this.turnAbort === abort) this.turnAbort = undefined;
    }
  }

  private async *runTurn(
    prompt: string | UserContentBlock[],
    clientUuid: string | undefined,
    signal: AbortSignal,
    startedAt: number,
  ): AsyncGenerator<SDKMessage, void> {
    const capture: StructuredOutputCapture = { value: undefined, provided: false };
    const tools = [...this.config.tools];
    // Its module brings classic zod, so it loads only for a turn with a JSON schema.
    const schema = this.config.jsonSchema;
    if (schema) tools.push((await import('./structured-output')).createStructuredOutputTool(schema, capture));
    const hooks = this.hooks;
    const converter = new TurnConverter(this.sessionId, this.config.includePartialMessages ?? false);
    const costAtStart = this.costTracker.total();

    yield this.initMessage(tools);

    const promptText =
      typeof prompt === 'string' ? prompt : prompt.map((b) => (b.type === 'text' ? b.text : '')).join('');
    const submitted = await hooks.userPromptSubmit({ prompt: promptText }, signal);
    yield* this.hookFrames();
    if (submitted.blocked) {
      const { reason } = submitted.blocked;
      const blocked: Terminal = {
        reason: 'hook_stopped',
        turnCount: 0,
        message: reason,
        messages: this.mutableMessages,
      };
      yield* this.finish(blocked, { startedAt, costAtStart, lastAssistantText: '', numTurns: 0 });
      return;
    }
    const userMessage = createUserMessage(prompt, clientUuid ? { clientUuid } : {});
    for (const context of this.sessionContext) this.record(createUserMessage(context, { isMeta: true }));
    this.sessionContext = [];
    this.record(userMessage);
    for (const context of submitted.additionalContext ?? []) {
      this.record(createUserMessage(context, { isMeta: true }));
    }

    const systemPrompt = await this.systemPrompt(tools);
    let terminal: Terminal;
    let nudges = 0;
    let turnCount = 0;
    while (true) {
      const context = this.toolUseContext(tools, signal);
      const loop = query({
        messages: this.mutableMessages,
        systemPrompt,
        toolUseContext: context,
        canUseTool: this.config.canUseTool,
        provider: this.config.provider,
        model: this.model,
        fallback: this.config.fallback,
        hooks,
        maxTurns: this.config.maxTurns === undefined ? undefined : this.config.maxTurns - turnCount,
        maxOutputTokens: this.config.maxOutputTokens,
        thinking: this.thinkingOverride ?? this.config.thinking,
        contextPipeline: withTranscriptSync(this.config.transcript, this.context.pipeline()),
        reactiveCompact: this.context.reactiveCompact(),
        collapseDrain: this.context.collapseDrain(),
        taskBudget: this.config.taskBudget,
        contextWindowFor: (model) => this.models.contextWindow(model),
        isBudgetExhausted: () =>
          this.config.maxBudgetUsd !== undefined &&
          this.costTracker.total().costUsd >= this.config.maxBudgetUsd,
        querySource: 'main',
        stopHookBlockCap: this.config.stopHookBlockCap,
      });
      while (true) {
        const next = await loop.next();
        if (next.done) {
          terminal = next.value;
          break;
        }
        const event = next.value;
        for (const notice of apiNotices(event)) this.config.onNotification?.(notice);
        if (event.type === 'model_usage') {
          const costUsd = this.costTracker.add(event.model, event.usage, event.apiDurationMs);
          this.config.transcript?.recordUsage?.({ model: event.model, usage: event.usage, costUsd });
          await hooks.notify('PostSampling', { model: event.model, usage: event.usage }, signal);
        } else if (event.type === 'message') {
          this.config.transcript?.append(event.message);
        } else if (event.type === 'permission_denied') {
          this.permissionDenials.push({
            tool_name: event.toolName,
            tool_use_id: event.toolUseId,
            tool_input: event.toolInput,
          });
        }
        yield* this.hookFrames();
        yield* converter.convert(event);
      }
      yield* converter.flush();
      // The loop's final history (it may have compacted or recovered); ours from now on.
      this.mutableMessages = terminal.messages;
      if (terminal.cwd) this.cwd = terminal.cwd;
      if (STOP_FAILURE_REASONS.has(terminal.reason)) {
        await hooks.notify(
          'StopFailure',
          { error: terminal.reason, error_details: terminal.message ?? null },
          signal,
        );
      }
      turnCount += terminal.turnCount;
      const needsNudge =
        this.config.jsonSchema !== undefined && terminal.reason === 'completed' && !capture.provided;
      if (!needsNudge || nudges >= MAX_STRUCTURED_OUTPUT_NUDGES) break;
      nudges++;
      this.record(
        createUserMessage(
          'You have not called the StructuredOutput tool yet. Call it now with your final answer; it is the only way to finish.',
          { isMeta: true },
        ),
      );
    }

    yield* this.finish(
      { ...terminal, turnCount },
      {
        startedAt,
        costAtStart,
        lastAssistantText: converter.lastAssistantText,
        numTurns: converter.responses,
        structuredOutput: this.config.jsonSchema ? capture : undefined,
      },
    );
  }

  /** The end of a turn: hook frames still queued, the notice of a hook's stop, the result. */
  private *finish(
    terminal: Terminal,
    turn: Pick<
      ResultInput,
      'startedAt' | 'costAtStart' | 'lastAssistantText' | 'numTurns' | 'structuredOutput'
    >,
  ): Generator<SDKMessage> {
    yield* this.hookFrames();
    yield* hookStopNotices(terminal, this.sessionId);
    yield buildResultMessage({
      ...turn,
      sessionId: this.sessionId,
      terminal,
      cost: this.costTracker,
      denials: this.permissionDenials,
      maxBudgetUsd: this.config.maxBudgetUsd,
    });
  }

  /**
   * `/compact [instructions]`: summarizes the conversation now and makes the compacted history
   * (boundary, summary, re-attached essentials) the engine's own. Returns those new messages for
   * the transcript and the UI; throws, leaving the history as it was, when the summary call fails.
   */
  async compact(instructions?: string, options: { signal?: AbortSignal } = {}): Promise<Message[]> {
    const { messages } = await this.context
      .managed()
      .compact(this.mutableMessages, instructions, options.signal);
    this.mutableMessages = messages;
    // The writer skips uuids it already has, so a caller that appends these too adds no lines.
    for (const message of messages) this.config.transcript?.append(message);
    return [...messages];
  }

  /** Adds a message the engine itself creates to history and to the transcript. */
  private record(message: Message): void {
    this.mutableMessages.push(message);
    this.config.transcript?.append(message);
  }

  /** Hook frames queued since the last call (see HookFrameQueue). */
  private hookFrames() {
    return this.config.hookFrames?.drain(this.sessionId) ?? [];
  }

  private toolUseContext(tools: readonly AnyTool[], signal: AbortSignal): ToolUseContext {
    return {
      cwd: this.cwd,
      projectRoot: this.config.cwd,
      abortSignal: signal,
      tools,
      readFileState: this.readFileState,
      getAppState: () => this.appState,
      setAppState: (update) => {
        this.appState = update(this.appState);
      },
      sessionId: this.sessionId,
      sessionDir: this.sessionDir,
      model: this.model,
      permissionContext: this.permissionContext,
      hooks: this.hooks,
      messages: this.mutableMessages,
      notify: notifier(this.hooks, this.config.onNotification, signal, this.queue),
      env: this.config.env ?? process.env,
    };
  }

  private async systemPrompt(tools: readonly AnyTool[]): Promise<SystemPart[]> {
    this.environment ??= await gatherEnvironment(
      this.config.cwd,
      this.model,
      this.permissionContext.additionalDirectories,
    );
    return buildSystemPrompt({
      environment: { ...this.environment, model: this.model },
      toolNames: tools.map((t) => t.name),
      customSystemPrompt: this.config.customSystemPrompt,
      appendSystemPrompt: this.config.appendSystemPrompt,
      memory: this.config.memory,
    });
  }

  private initMessage(tools: readonly AnyTool[]): SDKSystemInitMessage {
    return buildInitMessage({
      cwd: this.config.cwd,
      sessionId: this.sessionId,
      tools,
      model: this.model,
      permissionContext: this.permissionContext,
      apiKeySource: this.config.apiKeySource,
      extras: this.config.initExtras,
    });
  }
}
