/**
 * Folds the engine's SDK messages into transcript items, and splits them into the finished ones
 * (written to the scrollback once, in order, never redrawn) and the live ones (the few lines Ink
 * redraws: a streaming block, tools still running). A streamed answer is cut at settled markdown
 * blocks so the live part stays small. Session-scoped: one store per REPL.
 */
import type { SDKMessage } from '../../engine/sdk-messages';
import type { Message } from '../../session/messages';
import { splitSettled } from '../views/markdown-blocks';
import { COMPACTED_NOTICE, systemNotice, turnEnd } from './frame-lines';
import { type Draft, isFinished, isPending, type ToolItem, type TranscriptItem } from './items';
import { pastPromptItems } from './past-prompt';
import { ToolCallStates } from './tool-call-states';
import { type ToolResultBlock, toolOutcome } from './tool-result-text';

export type TranscriptSnapshot = {
  /**
   * Append-only: the views hand it to Ink's <Static>, which reads only the entries added since
   * its last render. Entries already printed are let go (see releasePrinted).
   */
  readonly committed: readonly TranscriptItem[];
  /** The latest finished TodoWrite call (the todo panel's list), kept when it is let go. */
  readonly lastTodoCall: ToolItem | undefined;
  readonly live: readonly TranscriptItem[];
  readonly draft: Draft | undefined;
  /** Output tokens streamed in the running turn (estimated from deltas until the usage arrives). */
  readonly turnTokens: number;
};

/** What a printed item leaves behind in the committed list. */
const PRINTED: TranscriptItem = Object.freeze({ kind: 'notice', id: 'printed', level: 'info', text: '' });

export class TranscriptStore {
  private committed: TranscriptItem[] = [];
  /** How many committed items the view has printed (and this store has let go). */
  private printed = 0;
  private lastTodoCall: ToolItem | undefined;
  /**
   * The finished tool calls since the latest prompt, kept after printing: Ctrl+O prints them again
   * in full (the scrollback cannot be redrawn). One prompt's worth, so a long session holds no more.
   */
  private turnTools: ToolItem[] = [];
  private live: TranscriptItem[] = [];
  /**
   * The block streaming now. Of a text block, only what is not yet in the scrollback: the whole
   * answer, grown a delta at a time and sliced each delta, was copied whole each time (V8 flattens
   * the appended string to slice it), so a long answer cost its length squared.
   */
  private draft: Draft | undefined;
  /** Part of the streaming text block already moved to the scrollback (not in `draft.text`). */
  private draftSettledLength = 0;
  private readonly toolCalls = new ToolCallStates();
  private turnTokens = 0;
  private snapshot: TranscriptSnapshot;
  private readonly listeners = new Set<() => void>();
  private lastId = 0;

  constructor(initial: readonly TranscriptItem[] = []) {
    this.committed = [...initial];
    this.snapshot = this.makeSnapshot();
  }

  private newId(prefix: string): string {
    this.lastId++;
    return `${prefix}-${this.lastId}`;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): TranscriptSnapshot => this.snapshot;

  add(item: TranscriptItem): void {
    this.live.push(item);
    this.changed();
  }

  notice(level: 'info' | 'warning' | 'error', text: string): void {
    this.add({ kind: 'notice', id: this.newId('notice'), level, text });
  }

  /** A typed command or note, shown as typed: the latest prompt's tool calls stay Ctrl+O's. */
  typed(text: string): void {
    this.add({ kind: 'user', id: this.newId('user'), text });
  }

  user(text: string, past = false): void {
    this.turnTools = [];
    this.add({ kind: 'user', id: this.newId('user'), text, ...(past ? { past } : {}) });
  }

  /**
   * The view printed the first `count` committed items to the scrollback: the terminal keeps
   * their text, so this store keeps none of their data (a Read's file, a diff, a long answer)
   * — a long session holds what is on screen, not everything it ever showed.
   */
  releasePrinted(count: number): void {
    const end = Math.min(count, this.committed.length);
    // In place: <Static> never reads an entry again once it has printed it.
    for (let i = this.printed; i < end; i++) this.committed[i] = PRINTED;
    this.printed = Math.max(this.printed, end);
  }

  /**
   * Ctrl+O turning full output on: the tool calls since the latest prompt that `showsMore` says were cut
   * are printed again, below, to be seen whole. Returns how many.
   */
  reprintTools(showsMore: (item: ToolItem) => boolean): number {
    const again = this.turnTools.filter(showsMore).map((item) => ({ ...item, id: this.newId('expanded') }));
    if (again.length === 0) return 0;
    this.committed = [...this.committed, ...again];
    this.changed();
    return again.length;
  }

  /** Forgets what is on screen (the scrollback stays the terminal's): for /clear. */
  clear(): void {
    this.turnTools = [];
    this.live = [];
    this.draft = undefined;
    this.changed();
  }

  /** Updates a running tool's latest output line. */
  toolProgress(toolUseId: string, line: string): void {
    const tool = this.findTool(toolUseId);
    if (!tool) return;
    this.replace(tool, { ...tool, progress: line });
  }

  /** A call's permission question opened: until it is answered, the call has not started. */
  permissionAsked(toolUseId: string): void {
    this.toolCalls.asked(toolUseId);
    const tool = this.findTool(toolUseId);
    if (tool?.outcome.status === 'waiting')
      this.replace(tool, { ...tool, outcome: { status: 'awaiting-permission' } });
  }

  /**
   * The question was answered: the call waits again until the engine starts it (an allowed one
   * at once, a denied one never: its result ends it).
   */
  permissionAnswered(toolUseId: string): void {
    this.toolCalls.answered(toolUseId);
    const tool = this.findTool(toolUseId);
    if (tool?.outcome.status === 'awaiting-permission')
      this.replace(tool, { ...tool, outcome: { status: 'waiting' } });
  }

  /** The engine started the call: its running clock starts now. */
  toolStarted(toolUseId: string): void {
    const startedAt = this.toolCalls.start(toolUseId, Date.now());
    const tool = this.findTool(toolUseId);
    if (startedAt !== undefined && tool && isPending(tool.outcome))
      this.replace(tool, { ...tool, outcome: { status: 'running', startedAt } });
  }

  turnStarted(): void {
    this.turnTokens = 0;
    this.changed();
  }

  /** Any tool still running when the turn ends was cut off (an interrupt). */
  turnEnded(): void {
    // What an interrupted answer had streamed stays on screen, as the model wrote it.
    const unsaid = this.draft?.kind === 'text' ? this.draft.text.replace(/\n+$/, '') : '';
    if (unsaid.trim()) {
      this.live.push({
        kind: 'assistant',
        id: this.newId('assistant'),
        text: unsaid,
        continued: this.draftSettledLength > 0,
      });
    }
    this.draft = undefined;
    this.draftSettledLength = 0;
    this.toolCalls.clear();
    for (const item of this.live) {
      if (item.kind === 'tool' && isPending(item.outcome)) {
        this.replace(item, {
          ...item,
          outcome: { status: 'error', text: 'Interrupted' },
          endedAt: Date.now(),
        });
      }
    }
    this.changed();
  }

  apply(message: SDKMessage): void {
    switch (message.type) {
      case 'stream_event':
        if (message.parent_tool_use_id === null) this.applyStreamEvent(message.event);
        return;
      case 'assistant':
        if (message.parent_tool_use_id !== null) return;
        // A failed turn's error message: the result that follows says the same as the turn's end.
        if (message.error !== undefined) return;
        this.applyAssistant(message.message.content);
        return;
      case 'user':
        if (message.isReplay) return;
        this.applyToolResults(message.message.content, message.tool_use_result);
        return;
      case 'system': {
        const notice = systemNotice(message);
        if (notice) this.notice(notice.level, notice.text);
        return;
      }
      case 'result':
        this.applyResult(message);
        return;
      case 'tool_progress':
        // Any progress of a call means it runs; the first comes the moment it starts.
        if (message.parent_tool_use_id !== null) return;
        this.toolStarted(message.tool_use_id);
        if (message.output_line) this.toolProgress(message.tool_use_id, message.output_line);
        return;
      default:
        return;
    }
  }

  /**
   * A resumed conversation, shown as it was when it happened: the prompts, answers and tool calls
   * with their results (what Yoke added for the model alone is left out). A tool call that never
   * got its result shows as interrupted.
   */
  showPast(messages: readonly Message[]): void {
    if (messages.length === 0) return;
    for (const message of messages) this.showPastMessage(message);
    this.turnEnded();
  }

  private showPastMessage(message: Message): void {
    if (message.type === 'system') {
      if (message.subtype === 'compact_boundary') this.notice('info', COMPACTED_NOTICE);
      return;
    }
    if (message.type === 'assistant') {
      if (message.apiError) this.notice('error', message.apiError);
      else this.applyAssistant(message.message.content);
      return;
    }
    if (message.isMeta) return;
    const content = message.message.content;
    if (typeof content === 'string') {
      this.showPastPrompt(content);
      return;
    }
    const said = content.flatMap((block) =>
      block.type === 'text' ? [block.text] : block.type === 'image' ? ['[image]'] : [],
    );
    this.showPastPrompt(said.join('\n'));
    if (content.some((block) => block.type === 'tool_result'))
      this.applyToolResults(content, message.toolUseResult);
  }

  /** A past prompt, after the `!command`s and `#notes` that went ahead of it, each as it was shown. */
  private showPastPrompt(text: string): void {
    for (const item of pastPromptItems(text, (prefix) => this.newId(prefix)))
      if (item.kind === 'user') this.user(item.text, true);
      else this.add(item);
  }

  private applyStreamEvent(event: Record<string, unknown>): void {
    if (event.type === 'content_block_start') {
      const block = event.content_block as { type?: string; name?: string } | undefined;
      const kind =
        block?.type === 'thinking' ? 'thinking' : block?.type === 'tool_use' ? 'tool_input' : 'text';
      this.draft = { kind, text: '', ...(block?.name ? { toolName: block.name } : {}) };
      this.draftSettledLength = 0;
      this.changed();
      return;
    }
    if (event.type !== 'content_block_delta' || !this.draft) return;
    const delta = event.delta as { type?: string; text?: string; thinking?: string; partial_json?: string };
    const piece = delta.text ?? delta.thinking ?? delta.partial_json ?? '';
    if (!piece) return;
    this.turnTokens += Math.max(1, Math.round(piece.length / 4));
    this.draft = { ...this.draft, text: this.draft.text + piece };
    if (this.draft.kind === 'text') this.settleDraft();
    this.changed();
  }

  /** Moves the finished markdown blocks of the streaming text to the scrollback. */
  private settleDraft(): void {
    if (!this.draft) return;
    const pending = this.draft.text;
    const { settled, rest } = splitSettled(pending);
    if (!settled) return;
    this.live.push({
      kind: 'assistant',
      id: this.newId('assistant'),
      text: settled,
      continued: this.draftSettledLength > 0,
    });
    this.draftSettledLength += pending.length - rest.length;
    this.draft = { ...this.draft, text: rest };
  }

  private applyAssistant(content: readonly { type: string; [key: string]: unknown }[]): void {
    const settledLength = this.draft?.kind === 'text' ? this.draftSettledLength : 0;
    this.draft = undefined;
    this.draftSettledLength = 0;
    for (const block of content) {
      if (block.type === 'text') {
        // What follows a settled block starts where it ends (splitSettled keeps the blank line).
        const rest = String(block.text ?? '').slice(settledLength);
        const text = (settledLength > 0 ? rest : rest.replace(/^\n+/, '')).replace(/\n+$/, '');
        if (text.trim()) {
          this.live.push({
            kind: 'assistant',
            id: this.newId('assistant'),
            text,
            continued: settledLength > 0,
          });
        }
      } else if (block.type === 'thinking') {
        const text = String(block.thinking ?? '');
        if (text.trim()) this.live.push({ kind: 'thinking', id: this.newId('thinking'), text });
      } else if (block.type === 'tool_use') {
        const id = String(block.id);
        this.live.push({
          kind: 'tool',
          id,
          name: String(block.name),
          input: (block.input ?? {}) as Record<string, unknown>,
          outcome: this.toolCalls.initial(id),
        });
      }
    }
    this.changed();
  }

  private applyToolResults(content: unknown, data: unknown): void {
    if (!Array.isArray(content)) return;
    for (const block of content as ToolResultBlock[]) {
      if (block?.type !== 'tool_result') continue;
      const tool = this.findTool(block.tool_use_id);
      if (!tool) continue;
      const outcome = toolOutcome(block, data, tool.outcome);
      const { progress: _progress, ...rest } = tool;
      this.replace(tool, { ...rest, outcome, endedAt: Date.now() });
    }
    this.changed();
  }

  private applyResult(message: Extract<SDKMessage, { type: 'result' }>): void {
    this.turnTokens = message.usage.output_tokens;
    const end = turnEnd(message);
    if (end) this.add({ kind: 'turn-end', id: this.newId('end'), ...end });
  }

  private findTool(id: string): ToolItem | undefined {
    return this.live.find((item): item is ToolItem => item.kind === 'tool' && item.id === id);
  }

  private replace(from: TranscriptItem, to: TranscriptItem): void {
    const index = this.live.indexOf(from);
    if (index >= 0) this.live[index] = to;
    this.changed();
  }

  private changed(): void {
    // The finished prefix goes to the scrollback, in order: an item never overtakes one above it.
    let finished = 0;
    while (finished < this.live.length && isFinished(this.live[finished] as TranscriptItem)) finished++;
    if (finished > 0) {
      const batch = this.live.splice(0, finished);
      for (const item of batch) {
        if (item.kind !== 'tool') continue;
        if (item.name === 'TodoWrite') this.lastTodoCall = item;
        this.turnTools.push(item);
      }
      this.committed = [...this.committed, ...batch];
    }
    this.snapshot = this.makeSnapshot();
    for (const listener of this.listeners) listener();
  }

  private makeSnapshot(): TranscriptSnapshot {
    const settled = this.draft?.kind === 'text' ? this.draftSettledLength : 0;
    const draft = this.draft ? { ...this.draft, continued: settled > 0 } : undefined;
    return {
      committed: this.committed,
      lastTodoCall: this.lastTodoCall,
      live: [...this.live],
      draft,
      turnTokens: this.turnTokens,
    };
  }
}
