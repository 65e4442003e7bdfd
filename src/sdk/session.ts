/**
 * `yoke -p --input-format stream-json --output-format stream-json`: the process the Agent SDK
 * drives (agent-sdk-protocol.md). stdin carries user messages and control messages; control
 * requests are answered at once, even mid-turn, while user messages run one turn at a time.
 * stdout carries protocol lines only.
 */
import type { Readable } from 'node:stream';
import { streamTaskFrames } from '../agents/background/task-frames';
import type { UserContentBlock } from '../model/types';
import { ControlChannel } from './control-channel';
import { CodedControlError, type ControlContext, handleControlRequest } from './control-handlers';
import { type EngineSetup, knownModels, setUpEngine } from './engine-setup';
import { buildInitializeResponse, type InitializeConfig, parseInitialize } from './initialize';
import { describeSkippedLine, type JsonObject, NdjsonWriter, readNdjson } from './ndjson';
import { asControlRequest, asControlResponse, errorResponse, successResponse } from './protocol';
import { failedTurnResult, type SessionState, sessionStateFrame } from './session-frames';
import { type QueuedTurn, TurnQueue } from './turn-queue';
import type { CreateSessionEngine, StreamJsonCliOptions } from './types';

export type StreamJsonSessionOptions<Options extends StreamJsonCliOptions> = {
  cliOptions: Options;
  createEngine: CreateSessionEngine<Options>;
  stdin: Readable;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: Readonly<Record<string, string | undefined>>;
  /** Called after each assistant or result frame has been written. */
  onReply?: () => void;
  /**
   * Aborted when the process is told to stop (a signal): the running turn is interrupted and
   * still gets its result frame, queued turns are dropped, stdin is no longer read. Not stdin's
   * end, which lets the queued turns finish first (agent-sdk-protocol §6).
   */
  stop?: AbortSignal;
  /**
   * Called once, the first time the session waits for its host with the engine built and no turn
   * running or queued: a moment for background work that must not delay a turn.
   */
  whenIdle?: () => void;
};

/** Runs the session until stdin ends and queued turns finish. Returns the exit code. */
export async function runStreamJsonSession<Options extends StreamJsonCliOptions>(
  options: StreamJsonSessionOptions<Options>,
): Promise<number> {
  return new StreamJsonSession(options).run();
}

type RunningTurn = { abort: AbortController };

class StreamJsonSession<Options extends StreamJsonCliOptions> {
  private readonly writer: NdjsonWriter;
  private readonly channel: ControlChannel;
  private readonly queue = new TurnQueue();
  private readonly hostOnlyStates: boolean;
  /** Requests the host withdrew while we were still working on them: their answers are dropped. */
  private readonly withdrawn = new Set<string>();
  private initConfig: InitializeConfig | undefined;
  private setup: Promise<EngineSetup> | undefined;
  private settled: EngineSetup | undefined;
  private defaultModel: string | undefined;
  private running: RunningTurn | undefined;
  private lastResultWasError = false;
  private fatal: ((error: Error) => void) | undefined;
  /** Set when the session gives up on stdin itself, so the aborted read is not reported. */
  private stopping = false;
  /** A turn taken from the queue that has not finished (set before `running`, which waits for the engine). */
  private turnInProgress = false;
  private idleReported = false;
  /** The host reads the initialize answer before the first turn's frames, as the real CLI sends them. */
  private initializeAnswered: Promise<void> | undefined;
  /** Ends the background tasks' frames (written from the engine's set-up to the session's end). */
  private stopTaskFrames: (() => void) | undefined;

  constructor(private readonly options: StreamJsonSessionOptions<Options>) {
    // A host that went away must not crash us with EPIPE; there is no one left to tell.
    options.stdout.on('error', () => {});
    this.writer = new NdjsonWriter(options.stdout);
    this.channel = new ControlChannel((message) => this.writer.write(message));
    this.hostOnlyStates = Boolean(options.env.CLAUDE_CODE_SDK_READS_SESSION_STATE);
    options.stop?.addEventListener('abort', () => this.stopNow(), { once: true });
  }

  private stopNow(): void {
    this.stopping = true;
    this.queue.drain();
    this.queue.close();
    this.running?.abort.abort();
    this.channel.close('Yoke is shutting down, so the host can no longer answer.');
    this.options.stdin.destroy();
  }

  async run(): Promise<number> {
    if (this.options.stop?.aborted) this.stopNow();
    const failed = new Promise<Error>((resolve) => {
      this.fatal = resolve;
    });
    const finished = Promise.all([this.readInput(), this.runTurns()]);
    const outcome = await Promise.race([finished.then(() => undefined), failed]);
    if (outcome) {
      this.options.stderr.write(`yoke: ${outcome.message}\n`);
      this.stopping = true;
      this.options.stdin.destroy();
    } else if (!this.stopping) await this.settleBackgroundWork();
    this.stopTaskFrames?.();
    await Promise.all((this.settled?.mcpConnections ?? []).map((c) => c.close().catch(() => {})));
    await this.settled?.engine.close?.().catch(() => {});
    await this.writer.flushed();
    return outcome || this.lastResultWasError ? 1 : 0;
  }

  /**
   * The input has ended and its turns are done: as `-p` does, wait for running background agents
   * and give the model a turn for their notifications, then stop what still runs (named on stderr).
   */
  private async settleBackgroundWork(): Promise<void> {
    const engine = this.settled?.engine;
    const services = engine?.sessionServices;
    const hasQueuedNotices = engine?.hasQueuedNotices?.bind(engine);
    const submitQueuedNotices = engine?.submitQueuedNotices?.bind(engine);
    if (!hasQueuedNotices || !submitQueuedNotices || !services) return;
    const { settleBackgroundWork, stoppedTasksLine } = await import('../agents/background/print-wait');
    const stopped = await settleBackgroundWork({
      engine: { hasQueuedNotices, submitQueuedNotices },
      services,
      signal: this.options.stop ?? new AbortController().signal,
      write: (message) => {
        this.writer.write(message as unknown as JsonObject);
        if (message.type === 'result') this.lastResultWasError = message.is_error;
      },
    });
    const line = stoppedTasksLine(stopped);
    if (line) this.options.stderr.write(`${line}\n`);
  }

  private async readInput(): Promise<void> {
    const skip = (skipped: { line: string; reason: string }) =>
      this.options.stderr.write(describeSkippedLine(skipped));
    try {
      for await (const message of readNdjson(this.options.stdin, skip)) this.dispatch(message);
    } catch (error) {
      if (!this.stopping)
        this.options.stderr.write(`yoke: stopped reading stdin: ${(error as Error).message}\n`);
    }
    // No answer can arrive any more: questions still open would wait forever (agent-sdk-protocol §6).
    this.channel.close('stdin was closed, so the host can no longer answer.');
    this.queue.close();
  }

  private dispatch(message: JsonObject): void {
    switch (message.type) {
      case 'control_request':
        this.answerControlRequest(message);
        return;
      case 'control_response': {
        const response = asControlResponse(message);
        // Answers to questions we withdrew or never asked are ignored, as the protocol requires.
        if (response) this.channel.handleResponse(response);
        return;
      }
      case 'control_cancel_request':
        if (typeof message.request_id === 'string') this.withdrawn.add(message.request_id);
        return;
      case 'keep_alive':
        return;
      case 'user':
        this.enqueueUser(message);
        return;
      default:
        this.options.stderr.write(
          `yoke: ignored a stdin message of unknown type ${JSON.stringify(message.type)}\n`,
        );
    }
  }

  private answerControlRequest(message: JsonObject): void {
    const request = asControlRequest(message);
    if (!request) {
      this.options.stderr.write('yoke: ignored a control_request without request_id or subtype\n');
      return;
    }
    const id = request.request_id;
    const answered = handleControlRequest(this.controlContext, request.request).then(
      ({ payload, afterAnswer }) => {
        if (!this.withdrawn.delete(id)) this.writer.write(successResponse(id, payload));
        afterAnswer?.();
      },
      (error: Error) => {
        const code = error instanceof CodedControlError ? error.code : undefined;
        if (!this.withdrawn.delete(id)) this.writer.write(errorResponse(id, error.message, code));
      },
    );
    if (request.request.subtype === 'initialize') this.initializeAnswered ??= answered;
  }

  private enqueueUser(message: JsonObject): void {
    const content = userContent(message.message);
    if (content === undefined) {
      this.options.stderr.write('yoke: ignored a user message without message.content\n');
      return;
    }
    if (message.shouldQuery === false) {
      this.queue.append(content);
      return;
    }
    const uuid = typeof message.uuid === 'string' ? message.uuid : undefined;
    // `priority: 'next'` while a turn runs: the turn reads it at its next boundary (between tool
    // rounds), as Claude Code folds queued prompts in; a turn that ends first hands it back.
    const engine = this.settled?.engine;
    if (message.priority === 'next' && this.running && engine?.enqueuePrompt) {
      engine.enqueuePrompt(content, uuid ? { clientUuid: uuid } : {});
      return;
    }
    const turn: QueuedTurn = { content };
    if (uuid) turn.uuid = uuid;
    this.queue.push(turn);
  }

  private readonly controlContext: ControlContext = {
    initialize: (request) => this.initialize(request),
    engine: async () => (await this.engineSetup()).engine,
    defaultModel: () => this.defaultModel,
    turnRunning: () => this.running !== undefined,
    busyWith: () => this.busyWith(),
    interruptTurn: () => this.running?.abort.abort(),
    queuedTurns: (cancel) => {
      const engine = this.settled?.engine;
      if (!cancel) return [...(engine?.queuedPromptIds?.() ?? []), ...this.queue.waitingIds()];
      const folded = engine?.takeQueuedPrompts?.() ?? [];
      return [...folded, ...this.queue.drain().map((t) => ({ clientUuid: t.uuid }))].flatMap((t) =>
        t.clientUuid ? [t.clientUuid] : [],
      );
    },
    mcpConnections: () => this.settled?.mcpConnections ?? [],
    mcpServers: async () => (await this.engineSetup()).mcp,
    reloader: async () => (await this.engineSetup()).reload,
  };

  private busyWith(): string | undefined {
    if (this.running || this.turnInProgress) return 'a turn is running';
    const folded = this.settled?.engine.queuedPromptIds?.().length ?? 0;
    if (!this.queue.isEmpty() || folded > 0) return 'a message is queued for a turn';
    const agents = this.settled?.engine.sessionServices?.agentTasks.running().length ?? 0;
    if (agents > 0)
      return agents === 1 ? 'a background agent is running' : `${agents} background agents are running`;
    return undefined;
  }

  private async initialize(request: JsonObject): Promise<JsonObject> {
    // The first initialize configures the engine; a later one (reinitialize) only reports.
    if (!this.setup) this.initConfig = parseInitialize(request);
    const { engine, agents, commands } = await this.engineSetup();
    return buildInitializeResponse(request, {
      engine,
      agents,
      commands,
      apiKeySource: this.options.env.ANTHROPIC_API_KEY ? 'ANTHROPIC_API_KEY' : undefined,
      models: knownModels(),
    });
  }

  /** The engine is built once: after `initialize`, or at the first user message without one. */
  private engineSetup(): Promise<EngineSetup> {
    this.setup ??= setUpEngine(
      {
        cliOptions: this.options.cliOptions,
        createEngine: this.options.createEngine,
        channel: this.channel,
        onPermissionWaiting: (waiting) => {
          if (this.running) this.emitState(waiting ? 'requires_action' : 'running');
        },
        warn: (text) => this.options.stderr.write(text),
      },
      this.initConfig,
    ).then(
      (setup) => {
        this.settled = setup;
        this.defaultModel = setup.engine.currentModel;
        const services = setup.engine.sessionServices;
        if (services) {
          this.stopTaskFrames = streamTaskFrames(services, setup.engine.sessionId, (frame) =>
            this.writer.write(frame as unknown as JsonObject),
          );
        }
        // After the turn that may be waiting for this engine has had its chance to start.
        setImmediate(() => this.reportIdle());
        return setup;
      },
      (error: Error) => {
        // Without an engine no turn can run; end the session with the reason on stderr.
        this.fatal?.(error);
        throw error;
      },
    );
    return this.setup;
  }

  private async runTurns(): Promise<void> {
    for (let turn = await this.queue.next(); turn; turn = await this.queue.next()) {
      this.turnInProgress = true;
      let engine: EngineSetup['engine'];
      try {
        engine = (await this.engineSetup()).engine;
      } catch {
        return;
      }
      await this.initializeAnswered;
      // A reload served while the last turn ran is taken now, so this turn's system/init shows it.
      this.settled?.reload?.beforeTurn();
      await this.runTurn(engine, turn);
      const unread = engine.takeQueuedPrompts?.() ?? [];
      this.queue.pushFront(
        unread.map((p) =>
          p.clientUuid ? { content: p.content, uuid: p.clientUuid } : { content: p.content },
        ),
      );
      this.turnInProgress = false;
      this.reportIdle();
    }
  }

  private reportIdle(): void {
    if (this.idleReported || this.stopping || !this.settled) return;
    if (this.turnInProgress || !this.queue.isEmpty()) return;
    this.idleReported = true;
    this.options.whenIdle?.();
  }

  private async runTurn(engine: EngineSetup['engine'], turn: QueuedTurn): Promise<void> {
    const running: RunningTurn = { abort: new AbortController() };
    this.running = running;
    const startedAt = Date.now();
    this.emitState('running');
    let sawResult = false;
    try {
      const submitOptions = { signal: running.abort.signal, ...(turn.uuid ? { clientUuid: turn.uuid } : {}) };
      for await (const message of engine.submitMessage(turn.content, submitOptions)) {
        this.writer.write(message as unknown as JsonObject);
        if (message.type === 'assistant' || message.type === 'result') this.options.onReply?.();
        if (message.type === 'result') {
          sawResult = true;
          this.lastResultWasError = message.is_error;
        }
      }
    } catch (error) {
      if (!sawResult) {
        this.writer.write(failedTurnResult(engine.sessionId, (error as Error).message, startedAt));
        sawResult = true;
        this.lastResultWasError = true;
      }
    } finally {
      this.running = undefined;
    }
    if (!sawResult) {
      this.writer.write(failedTurnResult(engine.sessionId, 'The turn ended without a result.', startedAt));
      this.lastResultWasError = true;
    }
    this.emitState('idle');
  }

  private emitState(state: SessionState): void {
    const sessionId = this.settled?.engine.sessionId ?? '';
    this.writer.write(sessionStateFrame(state, sessionId, this.hostOnlyStates));
  }
}

/** A user message's content: a string or content blocks, as the Messages API takes them. */
function userContent(message: unknown): string | UserContentBlock[] | undefined {
  if (!message || typeof message !== 'object') return undefined;
  const content = (message as JsonObject).content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content as UserContentBlock[];
  return undefined;
}
