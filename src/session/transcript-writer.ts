/**
 * Appends a session's messages to its JSONL transcript as they happen. Every write is synchronous
 * and goes to a file opened in append mode, so a message is on disk (in the OS page cache, which
 * survives the process being killed) before the engine makes its next API call. The file is
 * never rewritten: corrections (content replacements) are new lines that a resume replays.
 */
import { randomUUID } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import type { ToolResultContent, Usage, UserContentBlock } from '../model/types';
import type { Message } from './messages';
import { recordSessionUse } from './session-use-order';
import {
  type ContentReplacement,
  type ContentReplacementLine,
  type CostLine,
  messageToLine,
  type ToolRepairLine,
  type TranscriptEnvelope,
  toWireUsage,
} from './transcript-format';

/** What the QueryEngine calls; `TranscriptWriter` is the real implementation. */
export interface TranscriptSink {
  append(message: Message): void;
  /** Compares history with what was written and records replaced tool-result content. */
  syncContent?(history: readonly Message[]): void;
  recordUsage?(entry: { model: string; usage: Usage; costUsd: number }): void;
  /** Matches the context pipeline's `onContentReplacement` callback. */
  recordContentReplacement?(targetUuid: string, content: UserContentBlock[]): void;
  /** Releases the file; later appends reopen it. */
  close?(): void;
}

export type TranscriptWriterOptions = {
  path: string;
  sessionId: string;
  cwd: string;
  /** The uuid the first new message chains to: the leaf of a resumed history, else none. */
  parentUuid?: string | null;
  gitBranch?: string;
  entrypoint?: string;
  /** Writes a sidechain (subagent) transcript: every line gets `isSidechain` and `agentId`. */
  agentId?: string;
  /** For a subagent: `agent-<id>.meta.json` beside the transcript (compat §8 reads `toolUseId`). */
  meta?: { path: string; content: Record<string, unknown> };
};

type Written = { content: ToolResultContent; size: number };

/** A cheap change detector for tool-result content: identity plus total text length. */
function contentSize(content: ToolResultContent): number {
  if (typeof content === 'string') return content.length;
  let size = 0;
  for (const block of content) size += block.type === 'text' ? block.text.length : 1;
  return size;
}

export class TranscriptWriter implements TranscriptSink {
  readonly path: string;
  private readonly envelope: Omit<TranscriptEnvelope, 'parentUuid' | 'forkedFrom'>;
  private readonly meta: TranscriptWriterOptions['meta'];
  private fd: number | undefined;
  private parentUuid: string | null;
  private readonly written = new Set<string>();
  private toolResults = new Map<string, Written>();
  /** Content of user messages that carry images or documents themselves, by uuid (see syncContent). */
  private mediaMessages = new Map<string, readonly UserContentBlock[]>();

  constructor(options: TranscriptWriterOptions) {
    this.path = options.path;
    this.parentUuid = options.parentUuid ?? null;
    this.meta = options.meta;
    this.envelope = {
      sessionId: options.sessionId,
      cwd: options.cwd,
      version: YOKE_VERSION,
      isSidechain: options.agentId !== undefined,
      ...(options.gitBranch ? { gitBranch: options.gitBranch } : {}),
      ...(options.entrypoint ? { entrypoint: options.entrypoint } : {}),
      ...(options.agentId ? { agentId: options.agentId } : {}),
    };
  }

  get sessionId(): string {
    return this.envelope.sessionId;
  }

  /** The uuid the next message will chain to. */
  get lastUuid(): string | null {
    return this.parentUuid;
  }

  append(message: Message): void {
    this.appendLine(message);
  }

  appendMany(messages: readonly Message[]): void {
    for (const message of messages) this.appendLine(message);
  }

  /** Appends a copied message with fork provenance (used by `--fork-session`). */
  appendForked(message: Message, forkedFrom: { sessionId: string; messageUuid: string }): void {
    this.appendLine(message, forkedFrom);
  }

  recordContentReplacements(replacements: ContentReplacement[]): void {
    if (replacements.length === 0) return;
    const line: ContentReplacementLine = {
      type: 'content-replacement',
      sessionId: this.envelope.sessionId,
      uuid: randomUUID(),
      timestamp: new Date().toISOString(),
      replacements,
    };
    this.writeLine(line);
    for (const r of replacements) {
      if (r.kind === 'tool-result') this.remember(r.toolUseId, r.content);
      else this.rememberResults(r.content);
    }
  }

  /** The context pipeline's `onContentReplacement(targetUuid, content)` callback, as a line. */
  recordContentReplacement(targetUuid: string, content: UserContentBlock[]): void {
    this.recordContentReplacements([{ kind: 'message', targetUuid, content }]);
  }

  syncContent(history: readonly Message[]): void {
    const replacements: ContentReplacement[] = [];
    const seen = new Map<string, Written>();
    const media = new Map<string, readonly UserContentBlock[]>();
    for (const message of history) {
      if (message.type !== 'user' || typeof message.message.content === 'string') continue;
      const content = message.message.content;
      // Media the API refused are replaced by notes in the message itself (media-recovery.ts).
      const before = this.mediaMessages.get(message.uuid);
      if (before !== undefined || hasOwnMedia(content)) {
        if (before !== undefined && before !== content)
          replacements.push({ kind: 'message', targetUuid: message.uuid, content });
        media.set(message.uuid, content);
      }
      for (const block of content) {
        if (block.type !== 'tool_result') continue;
        const now: Written = { content: block.content, size: contentSize(block.content) };
        const before = this.toolResults.get(block.tool_use_id);
        // Unknown results (a resumed history) become the baseline; only a change is recorded.
        if (before && (before.content !== now.content || before.size !== now.size)) {
          replacements.push({
            kind: 'tool-result',
            toolUseId: block.tool_use_id,
            targetUuid: message.uuid,
            content: block.content,
          });
        }
        seen.set(block.tool_use_id, now);
      }
    }
    // Only what is still in history is tracked, so compacted-away results are not retained.
    this.toolResults = seen;
    this.mediaMessages = media;
    this.recordContentReplacements(replacements);
  }

  /** Notes that a resume repaired (and reported) these tool calls; see `ToolRepairLine`. */
  recordToolRepair(repair: { answered: string[]; dropped: string[] }): void {
    const line: ToolRepairLine = {
      type: 'tool-repair',
      sessionId: this.envelope.sessionId,
      timestamp: new Date().toISOString(),
      ...repair,
    };
    this.writeLine(line);
  }

  recordUsage(entry: { model: string; usage: Usage; costUsd: number }): void {
    const line: CostLine = {
      type: 'cost',
      sessionId: this.envelope.sessionId,
      timestamp: new Date().toISOString(),
      model: entry.model,
      usage: toWireUsage(entry.usage),
      costUSD: entry.costUsd,
    };
    this.writeLine(line);
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }

  private appendLine(message: Message, forkedFrom?: TranscriptEnvelope['forkedFrom']): void {
    // The engine may hand over a message twice (history adopted after a loop); one line each.
    if (this.written.has(message.uuid)) return;
    const line = messageToLine(message, {
      ...this.envelope,
      parentUuid: this.parentUuid,
      ...(forkedFrom ? { forkedFrom } : {}),
    });
    this.writeLine(line);
    this.written.add(message.uuid);
    this.parentUuid = message.uuid;
    // A prompt the user typed makes this the project's last used session (a worker's never does).
    if (!this.envelope.isSidechain && isTypedPrompt(message))
      recordSessionUse(dirname(this.path), this.sessionId);
    if (message.type === 'user' && typeof message.message.content !== 'string') {
      this.rememberResults(message.message.content);
      if (hasOwnMedia(message.message.content)) this.mediaMessages.set(message.uuid, message.message.content);
    }
  }

  private rememberResults(content: readonly UserContentBlock[]): void {
    for (const block of content)
      if (block.type === 'tool_result') this.remember(block.tool_use_id, block.content);
  }

  private remember(toolUseId: string, content: ToolResultContent): void {
    this.toolResults.set(toolUseId, { content, size: contentSize(content) });
  }

  private writeLine(line: object): void {
    const bytes = Buffer.from(`${JSON.stringify(line)}\n`, 'utf8');
    const fd = this.open();
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
  }

  /** Opens lazily, so a session that never says anything leaves no file for --continue to pick. */
  private open(): number {
    if (this.fd !== undefined) return this.fd;
    mkdirSync(dirname(this.path), { recursive: true });
    const existed = existsSync(this.path);
    const fd = openSync(this.path, 'a');
    // A crash can leave a torn last line; start on a fresh line so the next message stays whole.
    if (existed && !endsWithNewline(this.path)) writeSync(fd, '\n');
    this.fd = fd;
    if (this.meta && !existsSync(this.meta.path)) {
      writeFileSync(this.meta.path, `${JSON.stringify(this.meta.content)}\n`);
    }
    return fd;
  }
}

function isTypedPrompt(message: Message): boolean {
  if (message.type !== 'user' || message.isMeta || message.toolUseResult !== undefined) return false;
  const content = message.message.content;
  return typeof content === 'string' || !content.some((block) => block.type === 'tool_result');
}

/** An image or document directly in a user message (not inside a tool result). */
function hasOwnMedia(content: readonly UserContentBlock[]): boolean {
  return content.some((block) => block.type === 'image' || block.type === 'document');
}

function endsWithNewline(path: string): boolean {
  const size = statSync(path).size;
  if (size === 0) return true;
  const fd = openSync(path, 'r');
  try {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}
