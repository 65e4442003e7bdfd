/**
 * One QueryEngine per conversation (seed 000 §3.1). `submitMessage` runs one user turn through the
 * query loop and yields SDK messages: `system/init`, the turn's assistant/user/system frames, and
 * exactly one `result`. The engine owns the conversation and the session's controls; a turn itself
 * runs in `engine-turn.ts`.
 */
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HookRunner, noopHooks } from '../hooks/types';
import type { ModelCatalog } from '../model/catalog';
import type { CostTracker } from '../model/cost';
import type { SideCallClient } from '../model/side-call';
import {
  type SystemPart,
  type ThinkingConfig,
  thinkingForBudget,
  type UserContentBlock,
} from '../model/types';
import type { PermissionMode, ToolPermissionContext } from '../permissions/types';
import { emptyPermissionContext } from '../permissions/types';
import type { Message } from '../session/messages';
import { type AppState, initialAppState, type ToolUseContext } from '../tools/context';
import { ReadFileState } from '../tools/read-file-state';
import { SessionServices } from '../tools/session-services';
import type { AnyTool } from '../tools/tool';
import { sideCallRetryNotices } from './api-notices';
import { callToolDirect, type DirectToolResult } from './direct-tool-call';
import { EngineContext } from './engine-context';
import { runEngineTurn, type TurnHost } from './engine-turn';
import { LivePoolMessages } from './live-pool-messages';
import { MessageQueue } from './message-queue';
import { ModeAndPool } from './mode-and-pool';
import { settleModelFacts } from './model-facts';
import { notifier } from './notifier';
import type { QueryEngineConfig } from './query-engine-config';
import type { SDKMessage, SDKPermissionDenial } from './sdk-messages';
import { SessionDescription } from './session-description';
import { endSession, startSession } from './session-lifecycle';
import type { TurnOpening } from './turn-opening';

export type { QueryEngineConfig };

export class QueryEngine {
  readonly sessionId: string;
  private readonly config: QueryEngineConfig;
  private mutableMessages: Message[];
  private readonly readFileState = new ReadFileState();
  /** Notices and mid-turn prompts waiting for the model's next turn boundary. */
  private readonly queue = new MessageQueue();
  private appState: AppState = initialAppState();
  /** Shells, caches, model facts and costs: what the session owns besides the conversation. */
  private readonly services: SessionServices;
  private readonly models: ModelCatalog;
  private readonly costTracker: CostTracker;
  private readonly sideCalls: SideCallClient;
  private readonly stopCostLines: () => void;
  private readonly permissionDenials: SDKPermissionDenial[] = [];
  private model: string;
  /** The permission context and the tool pool that follows its mode. */
  private readonly modes: ModeAndPool;
  private cwd: string;
  /** The project root: the start cwd, or a worktree EnterWorktree moved the session into. */
  private projectRoot: string;
  private turnAbort: AbortController | undefined;
  private thinkingOverride: ThinkingConfig | undefined;
  private readonly sessionDir: string;
  private readonly context: EngineContext;
  private readonly description: SessionDescription;
  private started = false;
  private closed = false;
  /** SessionStart hook context, recorded just before the first prompt that is not blocked. */
  private sessionContext: string[] = [];
  private readonly liveMessages: LivePoolMessages | undefined;
  private systemPromptSent: readonly SystemPart[] = [];

  constructor(config: QueryEngineConfig) {
    this.config = config;
    this.services =
      config.services ??
      new SessionServices({
        env: config.env ?? process.env,
        sideCalls: {
          provider: config.provider,
          fastModel: () => this.model,
          onRetry: (retry) => {
            for (const notice of sideCallRetryNotices(retry)) config.onNotification?.(notice);
          },
        },
      });
    this.models = this.services.models;
    this.costTracker = this.services.costs;
    this.sideCalls = this.services.sideCalls;
    // Every request of the session, side calls included, gets its cost line in the transcript.
    const transcript = config.transcript;
    this.stopCostLines = this.costTracker.onAdd((entry) => transcript?.recordUsage?.(entry));
    this.sessionId = config.sessionId ?? randomUUID();
    this.mutableMessages = [...(config.initialMessages ?? [])];
    this.model = config.model;
    this.cwd = config.cwd;
    this.projectRoot = config.cwd;
    this.modes = new ModeAndPool(config, config.permissionContext ?? emptyPermissionContext());
    this.sessionDir = config.sessionDir ?? join(tmpdir(), 'yoke-sessions', this.sessionId);
    this.context = new EngineContext({
      config,
      sideCalls: this.sideCalls,
      model: () => this.model,
      hooks: this.hooks,
      getAppState: () => this.appState,
      readFileState: this.readFileState,
      queue: this.queue,
      sessionDir: this.sessionDir,
      contextWindowFor: (model) => this.models.contextWindow(model),
      settleModelFacts: (stages) => settleModelFacts(this.models, () => this.model, stages),
    });
    this.liveMessages = config.livePool ? new LivePoolMessages(config.livePool) : undefined;
    this.description = new SessionDescription(config, this.services, {
      sessionId: this.sessionId,
      model: () => this.model,
      permissionContext: () => this.modes.context,
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
    return this.modes.context.mode;
  }

  /** Whether the session has started (its SessionStart hooks ran, before its first turn). */
  get sessionStarted(): boolean {
    return this.started;
  }

  /** Where tools run now: the project root, or wherever Bash last `cd`-ed inside it. */
  get currentCwd(): string {
    return this.cwd;
  }

  /** The REPL's `!cd dir`: later tool calls start there, as after the model's own `cd` in Bash. */
  moveCwd(dir: string): void {
    this.cwd = dir;
  }

  /** The system prompt of the latest turn, as of its start (empty before the first): for /context. */
  get systemPrompt(): readonly SystemPart[] {
    return this.systemPromptSent;
  }

  /** The memory files the system prompt carries (CLAUDE.md, AGENTS.md, …), with their text. */
  get memoryFiles(): readonly { path: string; content: string }[] {
    return this.config.memory ?? [];
  }

  get totalCostUsd(): number {
    return this.costTracker.total().costUsd;
  }

  /**
   * The SDK's `set_max_thinking_tokens`: a budget enables thinking with it, 0 turns it off, null
   * goes back to the configured setting. Applies from the next model call.
   */
  setMaxThinkingTokens(tokens: number | null): void {
    this.thinkingOverride = tokens === null ? undefined : thinkingForBudget(tokens);
  }

  setModel(model: string): void {
    this.model = model;
    void this.models.learn(model);
  }

  setPermissionMode(mode: PermissionMode): void {
    this.modes.setMode(mode);
  }

  /** The rules in force (the REPL's /permissions lists them). */
  get permissionRules(): ToolPermissionContext['rules'] {
    return this.modes.context.rules;
  }

  /** Replaces the rules, after the user edited a settings file (/permissions); the mode stays. */
  setPermissionRules(rules: ToolPermissionContext['rules']): void {
    this.modes.setRules(rules);
  }

  /** The session's hooks (the REPL's notifier fires Notification hooks through them). */
  get hookRunner(): HookRunner {
    return this.hooks;
  }

  /** The session's services (background shells, costs): for the REPL's status line and commands. */
  get sessionServices(): SessionServices | undefined {
    return this.config.services;
  }

  /**
   * A tool context outside any turn, for what the user runs themselves (the REPL's `!command`
   * goes through the Bash tool's execution with it).
   */
  userToolContext(signal: AbortSignal): ToolUseContext {
    return this.toolUseContext(this.config.tools, signal);
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

  /** Whether notices (a background task ended) wait for the model's next turn boundary. */
  hasQueuedNotices(): boolean {
    return this.queue.hasNotices();
  }

  /**
   * A turn that starts from the queued notices instead of a user prompt (a `-p` run whose
   * background agents finished after its turn): the model reads them at the turn's first request,
   * through the same attachment as mid-turn notices, and answers. Yields nothing when none wait.
   */
  async *submitQueuedNotices(options: { signal?: AbortSignal } = {}): AsyncGenerator<SDKMessage, void> {
    if (this.queue.hasNotices()) yield* this.submit(undefined, options.signal);
  }

  /** Aborts the running turn, if any. */
  interrupt(): void {
    this.turnAbort?.abort();
  }

  /**
   * Ends the session: its services are disposed (background shells die with their process
   * groups), SessionEnd hooks run, and the transcript file is closed. Safe to call more than once.
   */
  async close(reason = 'other'): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.turnAbort?.abort();
    this.stopCostLines();
    await endSession({
      services: this.services,
      hooks: this.hooks,
      started: this.started,
      reason,
      transcript: this.config.transcript,
      // A session that is not kept (no sessionDir given) leaves no folder behind.
      ownedDir: this.config.sessionDir === undefined ? this.sessionDir : undefined,
    });
  }

  submitMessage(
    prompt: string | UserContentBlock[],
    options: { clientUuid?: string; signal?: AbortSignal } = {},
  ): AsyncGenerator<SDKMessage, void> {
    return this.submit({ content: prompt, clientUuid: options.clientUuid }, options.signal);
  }

  private async *submit(
    opening: TurnOpening | undefined,
    outerSignal: AbortSignal | undefined,
  ): AsyncGenerator<SDKMessage, void> {
    const startedAt = Date.now();
    const abort = new AbortController();
    this.turnAbort = abort;
    const onOuterAbort = () => abort.abort();
    // A stop that came before the turn began still counts: the turn ends as interrupted.
    if (outerSignal?.aborted) abort.abort();
    else outerSignal?.addEventListener('abort', onOuterAbort, { once: true });
    try {
      if (!this.started) {
        this.started = true;
        const source = this.mutableMessages.length > 0 ? 'resume' : 'startup';
        const input = { source, model: this.model } as const;
        this.sessionContext = await startSession(this.hooks, input, abort.signal, this.config.onNotification);
        yield* this.hookFrames();
      }
      yield* runEngineTurn(this.turnHost(), opening, abort.signal, startedAt);
    } finally {
      outerSignal?.removeEventListener('abort', onOuterAbort);
      if (this.turnAbort === abort) this.turnAbort = undefined;
    }
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

  /** One call of a session tool outside any turn (`yoke mcp serve`), under the session's permissions and hooks. */
  callTool(name: string, input: Record<string, unknown>, signal: AbortSignal): Promise<DirectToolResult> {
    const context = this.toolUseContext(this.config.tools, signal);
    return callToolDirect({ context, canUseTool: this.config.canUseTool, hooks: this.hooks, name, input });
  }

  /** What a turn reads of the engine, and how it adds to the conversation. */
  private turnHost(): TurnHost {
    return {
      sessionId: this.sessionId,
      config: this.config,
      hooks: this.hooks,
      modes: this.modes,
      description: this.description,
      context: this.context,
      costTracker: this.costTracker,
      models: this.models,
      permissionDenials: this.permissionDenials,
      liveMessages: this.liveMessages,
      model: () => this.model,
      thinking: () => this.thinkingOverride ?? this.config.thinking,
      messages: () => this.mutableMessages,
      sessionContext: () => this.sessionContext,
      clearSessionContext: () => {
        this.sessionContext = [];
      },
      noteSystemPrompt: (parts) => {
        this.systemPromptSent = parts;
      },
      record: (message) => this.record(message),
      toolUseContext: (tools, signal) => this.toolUseContext(tools, signal),
      hookFrames: () => this.hookFrames(),
      adopt: (terminal) => {
        this.mutableMessages = terminal.messages;
        if (terminal.cwd) this.cwd = terminal.cwd;
        if (terminal.projectRoot) this.projectRoot = terminal.projectRoot;
      },
    };
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
      projectRoot: this.projectRoot,
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
      ...(this.config.effort ? { effort: this.config.effort } : {}),
      getPermissionContext: () => this.modes.context,
      switchPermissionMode: (to) => this.modes.switchFromTool(to),
      hooks: this.hooks,
      messages: this.mutableMessages,
      notify: notifier(this.hooks, this.config.onNotification, signal, this.queue),
      env: this.config.env ?? process.env,
      services: this.services,
    };
  }
}
