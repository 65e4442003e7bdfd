/**
 * The REPL's session: one engine, the turn that runs on it, the prompts typed meanwhile, the
 * permission questions waiting for the user, and the facts the status line shows. Plain
 * TypeScript (no React): the views subscribe to it, and the tests drive it with a scripted engine.
 */

import type { SDKMessage } from '../../engine/sdk-messages';
import { yieldToInput } from '../../lib/yield-to-input';
import type { UserContentBlock } from '../../model/types';
import type { PermissionDecision, PermissionMode, PermissionPrompt } from '../../permissions/types';
import { TranscriptStore } from '../transcript/transcript-store';
import { promptText, withBlocks } from './prompt-content';
import type { ReplEngine } from './repl-engine';
import { resumedContextTokens } from './resumed-context';
import { ServerWait } from './server-wait';

/** What the REPL needs of the QueryEngine (a narrow view, so tests can script one). */
export type PermissionRequest = Parameters<PermissionPrompt>[0];

/** A permission question on screen; `answer` settles the tool call that waits for it. */
export type PendingPermission = {
  readonly id: number;
  readonly request: PermissionRequest;
  answer(decision: PermissionDecision): void;
};

/** The status line's facts. */
export type SessionStatus = {
  readonly model: string;
  /** The engine could not be built: nothing can run in this session. */
  readonly startFailed: boolean;
  readonly mode: PermissionMode;
  /** Where the session's tools run; '' before the engine is ready. */
  readonly cwd: string;
  readonly costUsd: number;
  /** Input tokens of the latest request: what the conversation fills of the window. */
  readonly contextTokens: number;
  readonly running: boolean;
  readonly turnStartedAt: number | undefined;
  /** Prompts typed during the turn, waiting for its next boundary. */
  readonly queued: readonly string[];
  readonly permission: PendingPermission | undefined;
};

/** Shift+Tab's cycle, as Claude Code's: default → acceptEdits → plan → default. */
const MODE_CYCLE: readonly PermissionMode[] = ['default', 'acceptEdits', 'plan'];

export function nextMode(mode: PermissionMode): PermissionMode {
  const index = MODE_CYCLE.indexOf(mode);
  return MODE_CYCLE[(index + 1) % MODE_CYCLE.length] as PermissionMode;
}

/** What a prompt's `@path` mentions attach (interactive/mentions.ts), as content after the prompt. */
export type PromptAttachments = {
  blocks: UserContentBlock[];
  /** The files and folders attached, shown as one line. */
  attached: string[];
  /** One line each for mentions that could not be attached. */
  problems: string[];
};

export type ReplSessionEvents = {
  /** Every message of a turn as the engine yields it (the line mode prints text as it streams). */
  onMessage?: (message: SDKMessage) => void;
  /** Reads the files a prompt mentions, right before it is sent. */
  attachMentions?: (prompt: string, signal: AbortSignal) => Promise<PromptAttachments>;
  /** A turn ended (completed, failed or interrupted). */
  onTurnEnd?: () => void;
  /** A permission question started waiting for the user. */
  onPermissionWaiting?: () => void;
};

export class ReplSession {
  readonly transcript: TranscriptStore;
  /** Whether the turn waits for the server's first answer (the spinner's tick reads it). */
  readonly serverWait = new ServerWait();
  private engine: ReplEngine | undefined;
  private running: AbortController | undefined;
  private turnStartedAt: number | undefined;
  private queued: string[] = [];
  /** Prompts typed during a turn whose mentions are being attached, in order (see foldIntoTurn). */
  private folding: Promise<void> | undefined;
  /** Files attached for a prompt typed during a turn that ended before it could read it. */
  private readonly attachedEarly = new Map<string, UserContentBlock[]>();
  /** What the user ran with `!` since the last turn: the model reads it with the next prompt. */
  private pendingContext: string[] = [];
  /** What the transcript shows for a prompt a command wrote (/init shows "/init", not its text). */
  private readonly displays = new Map<string, string>();
  private permissions: PendingPermission[] = [];
  private lastPermissionId = 0;
  private contextTokens = 0;
  private earlierCostUsd = 0;
  /** The mode chosen with Shift+Tab before the engine was ready; applied when it attaches. */
  private earlyMode: PermissionMode | undefined;
  private status: SessionStatus;
  private readonly listeners = new Set<() => void>();
  /** Settles when the current turn (and the queued ones after it) have run. */
  private idle: Promise<void> = Promise.resolve();

  constructor(
    private readonly events: ReplSessionEvents = {},
    transcript = new TranscriptStore(),
  ) {
    this.transcript = transcript;
    this.status = this.makeStatus();
  }

  /**
   * The engine arrives after the first render (its set-up runs while the prompt is usable).
   * `earlierCostUsd` is what a resumed session spent before this run: the status line shows the
   * session's cost, not this process's.
   */
  attach(engine: ReplEngine, earlierCostUsd = 0): void {
    this.engine = engine;
    this.earlierCostUsd = earlierCostUsd;
    // A new conversation (/clear) has filled none of the window; a resumed one what it last filled.
    this.contextTokens = resumedContextTokens(engine.messages);
    this.transcript.showPast(engine.messages);
    if (this.earlyMode) engine.setPermissionMode(this.earlyMode);
    this.earlyMode = undefined;
    this.changed();
    // Prompts submitted before the engine was ready run now.
    if (this.queued.length > 0 && !this.running) this.runQueued();
  }

  get sessionId(): string | undefined {
    return this.engine?.sessionId;
  }

  get ready(): boolean {
    return this.engine !== undefined;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getStatus = (): SessionStatus => this.status;

  /** Why the engine could not be built, when it could not (the status line says "not started"). */
  startFailure: string | undefined;

  startFailed(reason: string): void {
    this.startFailure = reason;
    this.transcript.notice('error', `The session could not start: ${reason}`);
    this.changed();
  }

  /**
   * A prompt from the input line. While a turn runs it waits for the turn's next boundary (the
   * engine reads it between tool rounds); a turn that ends first runs it as the next turn.
   */
  submit(prompt: string, display = prompt): void {
    if (display !== prompt) this.displays.set(prompt, display);
    if (this.running && this.engine) {
      this.queued.push(prompt);
      this.foldIntoTurn(this.engine, this.running, prompt);
      this.changed();
      return;
    }
    this.queued.push(prompt);
    this.changed();
    if (this.engine) this.runQueued();
  }

  /** Text the model should read before the next prompt (a `!command` and its output). */
  addContext(text: string): void {
    this.pendingContext.push(text);
  }

  /** Esc: stops the running turn; its tools are told to stop and it ends as interrupted. */
  interrupt(): boolean {
    if (!this.running) return false;
    // Questions of the interrupted turn are moot: their tool calls end with the turn.
    for (const pending of this.permissions) {
      pending.answer({ behavior: 'deny', message: 'The user interrupted the turn.', interrupt: true });
    }
    this.running.abort();
    return true;
  }

  cyclePermissionMode(): PermissionMode {
    const mode = nextMode(this.engine?.permissionMode ?? this.earlyMode ?? 'default');
    if (this.engine) this.engine.setPermissionMode(mode);
    else this.earlyMode = mode;
    this.changed();
    return mode;
  }

  setPermissionMode(mode: PermissionMode): void {
    if (this.engine) this.engine.setPermissionMode(mode);
    else this.earlyMode = mode;
    this.changed();
  }

  setModel(model: string): void {
    this.engine?.setModel(model);
    this.changed();
  }

  /** A `!cd` moved the shell: the session's tools follow, and the status line shows where. */
  moveCwd(dir: string): void {
    this.engine?.moveCwd(dir);
    this.changed();
  }

  /** Level 5 of the permission pipeline: the dialog. Resolves when the user answers. */
  readonly permissionPrompt: PermissionPrompt = (request) =>
    new Promise<PermissionDecision>((resolve) => {
      const pending: PendingPermission = {
        id: ++this.lastPermissionId,
        request,
        answer: (decision) => {
          const index = this.permissions.indexOf(pending);
          if (index < 0) return;
          this.permissions.splice(index, 1);
          request.signal.removeEventListener('abort', onAbort);
          this.transcript.permissionAnswered(request.toolUseId);
          this.changed();
          resolve(decision);
        },
      };
      const onAbort = () =>
        pending.answer({ behavior: 'deny', message: 'The turn was interrupted.', interrupt: true });
      request.signal.addEventListener('abort', onAbort, { once: true });
      this.permissions.push(pending);
      this.transcript.permissionAsked(request.toolUseId);
      this.changed();
      this.events.onPermissionWaiting?.();
    });

  /** Runs `/compact`; the summary replaces the history from the next turn on. */
  async compact(instructions?: string): Promise<void> {
    if (!this.engine) return;
    if (this.running) {
      this.transcript.notice('warning', 'Wait for the running turn to end (or press Esc) before compacting.');
      return;
    }
    const abort = new AbortController();
    this.running = abort;
    this.turnStartedAt = Date.now();
    this.changed();
    try {
      await this.engine.compact(instructions, { signal: abort.signal });
      this.transcript.notice('info', 'Conversation compacted: earlier messages were summarised.');
      this.contextTokens = 0;
    } catch (error) {
      this.transcript.notice('error', `Compaction failed: ${(error as Error).message}`);
    } finally {
      this.running = undefined;
      this.turnStartedAt = undefined;
      this.changed();
    }
  }

  /** Waits until no turn runs, the queued prompts' turns included (for exit and for tests). */
  async whenIdle(): Promise<void> {
    let idle: Promise<void>;
    do {
      idle = this.idle;
      await idle;
    } while (idle !== this.idle);
  }

  async close(): Promise<void> {
    this.running?.abort();
    await this.idle.catch(() => {});
    await this.engine?.close('prompt_input_exit');
  }

  private runQueued(): void {
    const prompt = this.queued.shift();
    if (prompt === undefined || !this.engine) return;
    const engine = this.engine;
    this.idle = this.runTurn(engine, prompt).then(async () => {
      // A prompt typed during the turn whose files were still being read waits for the next turn.
      await this.folding;
      const unread = engine.takeQueuedPrompts();
      // The engine hands back the prompts the turn had no boundary left for: they run next, in order.
      const texts = unread.map((p) => promptText(p.content));
      this.queued = [...texts.filter((t) => t !== ''), ...this.queued.filter((q) => !texts.includes(q))];
      this.events.onTurnEnd?.();
      if (this.queued.length > 0) this.runQueued();
      else this.changed();
    });
  }

  private async runTurn(engine: ReplEngine, prompt: string): Promise<void> {
    const abort = new AbortController();
    this.running = abort;
    this.turnStartedAt = Date.now();
    this.serverWait.started();
    this.transcript.user(this.displays.get(prompt) ?? prompt);
    this.displays.delete(prompt);
    this.transcript.turnStarted();
    this.changed();
    const sent = [...this.pendingContext.splice(0), prompt].join('\n\n');
    try {
      // The frame with the prompt and the spinner is drawn; keys typed on seeing it go first.
      await yieldToInput();
      const attached = this.attachedEarly.get(prompt);
      this.attachedEarly.delete(prompt);
      const content = withBlocks(sent, attached ?? (await this.attachments(prompt, abort.signal)));
      for await (const message of engine.submitMessage(content, { signal: abort.signal })) {
        this.serverWait.observe(message);
        this.observe(message);
        this.events.onMessage?.(message);
        this.transcript.apply(message);
      }
    } catch (error) {
      this.transcript.notice('error', (error as Error).message);
    } finally {
      this.running = undefined;
      this.turnStartedAt = undefined;
      this.serverWait.ended();
      this.transcript.turnEnded();
      this.changed();
    }
  }

  /** The files a prompt's mentions name; what could not be attached is said, not sent. */
  private async attachments(prompt: string, signal: AbortSignal): Promise<UserContentBlock[]> {
    if (!this.events.attachMentions || !prompt.includes('@')) return [];
    const found = await this.events.attachMentions(prompt, signal);
    for (const problem of found.problems) this.transcript.notice('warning', problem);
    if (found.attached.length > 0) this.transcript.notice('info', `Attached ${found.attached.join(', ')}`);
    return found.blocks;
  }

  /**
   * A prompt typed during `turn`, with the files it mentions as a typed prompt has them, handed to
   * the engine for the turn's next boundary. In the order typed: one that mentions files waits
   * for them, and those typed after it wait behind it. A turn that ended meanwhile did not get it:
   * it runs as the next turn, with what was attached here.
   */
  private foldIntoTurn(engine: ReplEngine, turn: AbortController, prompt: string): void {
    const fold = async () => {
      const blocks = await this.attachments(prompt, turn.signal).catch(() => undefined);
      if (blocks === undefined) return;
      if (this.running === turn && this.queued.includes(prompt))
        engine.enqueuePrompt(withBlocks(prompt, blocks));
      else if (blocks.length > 0) this.attachedEarly.set(prompt, blocks);
    };
    if (this.folding === undefined && !(this.events.attachMentions && prompt.includes('@'))) {
      engine.enqueuePrompt(prompt);
      return;
    }
    const folded = (this.folding ?? Promise.resolve()).then(fold);
    this.folding = folded;
    void folded.then(() => {
      if (this.folding === folded) this.folding = undefined;
    });
  }

  /** Keeps the status line's figures: the window the last request filled, prompts the turn read. */
  private observe(message: SDKMessage): void {
    if (message.type === 'assistant' && message.parent_tool_use_id === null) {
      const usage = message.message.usage;
      this.contextTokens =
        usage.input_tokens +
        usage.cache_creation_input_tokens +
        usage.cache_read_input_tokens +
        usage.output_tokens;
      this.changed();
    } else if (message.type === 'user' && !message.isReplay) {
      // A queued prompt the turn folded in comes back as a user message: it is no longer waiting.
      const text = promptText(message.message.content);
      const index = text === '' ? -1 : this.queued.indexOf(text);
      if (index >= 0) {
        this.queued.splice(index, 1);
        this.transcript.user(this.displays.get(text) ?? text);
        this.displays.delete(text);
        this.changed();
      }
    }
  }

  private changed(): void {
    this.status = this.makeStatus();
    for (const listener of this.listeners) listener();
  }

  private makeStatus(): SessionStatus {
    return {
      model: this.engine?.currentModel ?? '',
      startFailed: this.startFailure !== undefined,
      cwd: this.engine?.currentCwd ?? '',
      mode: this.engine?.permissionMode ?? this.earlyMode ?? 'default',
      costUsd: this.earlierCostUsd + (this.engine?.totalCostUsd ?? 0),
      contextTokens: this.contextTokens,
      running: this.running !== undefined,
      turnStartedAt: this.turnStartedAt,
      queued: [...this.queued],
      permission: this.permissions[0],
    };
  }
}
