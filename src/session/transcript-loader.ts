/**
 * Reads a transcript back into the history a resumed session continues from. Built for files a
 * crash left behind: the file is streamed line by line (memory linear in its size), a torn last
 * line or a damaged line in the middle is skipped with a warning, and a chain link lost with a
 * damaged line is bridged to the previous message instead of dropping everything before it.
 */
import { createReadStream } from 'node:fs';
import type { EarlierSpend } from '../model/cost';
import { addUsage, emptyUsage, type ToolResultContent, type UserContentBlock } from '../model/types';
import { applyContextEdits } from './context-edits';
import type { Message } from './messages';
import { fromWireUsage, lineToMessage, parentOf } from './transcript-format';

export class TranscriptError extends Error {
  override name = 'TranscriptError';
}

export type LoadTranscriptOptions = {
  /** Rebuild the history up to and including this message (`--resume-session-at`). */
  resumeAt?: string;
  /** Called for each warning as it is found (they are also returned). */
  onWarning?: (warning: string) => void;
};

export type LoadedTranscript = {
  /**
   * The live context: the chain from the last compact_boundary (inclusive) to the leaf, with the
   * snips and collapses recorded along it replayed (`context-edits.ts`).
   */
  messages: Message[];
  /** The chain's leaf: the message new lines chain to. Null when the file holds no message. */
  leafUuid: string | null;
  /** From the first line that names them. */
  sessionId?: string;
  cwd?: string;
  /** The uuid of the compact_boundary the live context starts at, if the session was compacted. */
  compactBoundaryUuid?: string;
  /** Message lines read (all branches, before compaction was applied). */
  messageLines: number;
  /** tool_use ids whose repair an earlier resume already reported (`tool-repair` lines). */
  reportedRepairs: Set<string>;
  /** What the session's earlier runs spent: the sum of its `cost` lines (one per API request). */
  spent: EarlierSpend;
  warnings: string[];
};

type Entry = { message: Message; parent: string | null; index: number };

/** Splits a file on `\n` without ever holding the whole of it; calls back with each line. */
export async function forEachLine(
  path: string,
  onLine: (text: string, lineNo: number, last: boolean) => void,
) {
  let pending: Buffer[] = [];
  let lineNo = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    let start = 0;
    let nl = chunk.indexOf(0x0a, start);
    while (nl !== -1) {
      const piece = chunk.subarray(start, nl);
      const bytes = pending.length === 0 ? piece : Buffer.concat([...pending, piece]);
      pending = [];
      onLine(bytes.toString('utf8'), ++lineNo, false);
      start = nl + 1;
      nl = chunk.indexOf(0x0a, start);
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) onLine(Buffer.concat(pending).toString('utf8'), ++lineNo, true);
}

export async function loadTranscript(
  path: string,
  options: LoadTranscriptOptions = {},
): Promise<LoadedTranscript> {
  const warnings: string[] = [];
  const warn = (text: string) => {
    warnings.push(text);
    options.onWarning?.(text);
  };
  const entries: Entry[] = [];
  const byUuid = new Map<string, Entry>();
  const replacements: Replacements = { results: new Map(), messages: new Map() };
  const reportedRepairs = new Set<string>();
  const spent: EarlierSpend = { costUsd: 0, requests: 0, usage: emptyUsage() };
  let sessionId: string | undefined;
  let cwd: string | undefined;

  try {
    await forEachLine(path, (text, lineNo, last) => {
      if (text.trim() === '') return;
      let line: unknown;
      try {
        line = JSON.parse(text);
      } catch {
        warn(
          last
            ? `${path}: ignored a torn last line (${text.length} chars), left by an interrupted write`
            : `${path}:${lineNo}: ignored a line that is not valid JSON`,
        );
        return;
      }
      if (typeof line !== 'object' || line === null || Array.isArray(line)) {
        warn(`${path}:${lineNo}: ignored a line that is not a JSON object`);
        return;
      }
      const record = line as Record<string, unknown>;
      if (sessionId === undefined && typeof record.sessionId === 'string') sessionId = record.sessionId;
      if (cwd === undefined && typeof record.cwd === 'string') cwd = record.cwd;
      if (record.type === 'content-replacement') {
        collectReplacements(record.replacements, replacements);
        return;
      }
      if (record.type === 'cost') {
        if (typeof record.costUSD === 'number') spent.costUsd += record.costUSD;
        spent.requests++;
        spent.usage = addUsage(spent.usage, fromWireUsage(record.usage));
        return;
      }
      if (record.type === 'tool-repair') {
        for (const id of [record.answered, record.dropped].flat())
          if (typeof id === 'string') reportedRepairs.add(id);
        return;
      }
      const message = lineToMessage(record);
      if (!message) {
        if (record.type === 'user' || record.type === 'assistant' || record.type === 'system') {
          warn(`${path}:${lineNo}: ignored a ${record.type} line without a usable message`);
        }
        return;
      }
      if (byUuid.has(message.uuid)) return;
      const entry: Entry = { message, parent: parentOf(record), index: entries.length };
      entries.push(entry);
      byUuid.set(message.uuid, entry);
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new TranscriptError(`No transcript at ${path}`);
    throw error;
  }

  let leaf = entries.at(-1);
  if (options.resumeAt !== undefined) {
    leaf = byUuid.get(options.resumeAt);
    if (!leaf) throw new TranscriptError(`Message ${options.resumeAt} is not in the transcript ${path}`);
  }
  const chain = leaf ? walkChain(leaf, entries, byUuid, warn) : [];

  let boundary = -1;
  for (let i = chain.length - 1; i >= 0; i--) {
    const m = chain[i] as Message;
    if (m.type === 'system' && m.subtype === 'compact_boundary') {
      boundary = i;
      break;
    }
  }
  // Snips and collapses after the boundary: the resumed session sends what they left.
  const live = applyContextEdits(boundary >= 0 ? chain.slice(boundary) : chain);
  return {
    messages:
      replacements.results.size + replacements.messages.size > 0
        ? live.map((m) => applyReplacements(m, replacements))
        : live,
    leafUuid: leaf?.message.uuid ?? null,
    ...(sessionId !== undefined ? { sessionId } : {}),
    ...(cwd !== undefined ? { cwd } : {}),
    ...(boundary >= 0 ? { compactBoundaryUuid: (chain[boundary] as Message).uuid } : {}),
    messageLines: entries.length,
    reportedRepairs,
    spent,
    warnings,
  };
}

/** Root-to-leaf messages along parentUuid; a missing parent is bridged to the previous line. */
function walkChain(
  leaf: Entry,
  entries: readonly Entry[],
  byUuid: ReadonlyMap<string, Entry>,
  warn: (text: string) => void,
): Message[] {
  const chain: Message[] = [];
  const visited = new Set<string>();
  let current: Entry | undefined = leaf;
  while (current) {
    chain.push(current.message);
    visited.add(current.message.uuid);
    const parent = current.parent;
    if (parent === null) break;
    const next = byUuid.get(parent);
    if (next && !visited.has(parent)) {
      current = next;
      continue;
    }
    if (next) {
      warn(`message ${current.message.uuid} closes a parentUuid cycle; the history starts there`);
      break;
    }
    // The parent's line is gone (damaged, or cut from the file): the nearest earlier message is
    // the best stand-in, and keeping it loses less than cutting the history here.
    let bridge: Entry | undefined;
    for (let i = current.index - 1; i >= 0 && !bridge; i--) {
      const candidate = entries[i] as Entry;
      if (!visited.has(candidate.message.uuid)) bridge = candidate;
    }
    if (bridge)
      warn(`message ${current.message.uuid}: parent ${parent} is missing; chained to the previous message`);
    current = bridge;
  }
  return chain.reverse();
}

type Replacements = {
  /** tool_use_id → the result's content. */
  results: Map<string, ToolResultContent>;
  /** message uuid → the message's whole content. */
  messages: Map<string, UserContentBlock[]>;
};

function collectReplacements(raw: unknown, into: Replacements): void {
  if (!Array.isArray(raw)) return;
  for (const item of raw) {
    if (typeof item !== 'object' || item === null) continue;
    const { kind, toolUseId, targetUuid, content } = item as Record<string, unknown>;
    if (kind === 'message' && typeof targetUuid === 'string' && Array.isArray(content)) {
      into.messages.set(targetUuid, content as UserContentBlock[]);
      // Lines apply in file order: this newer whole-message content beats older per-result ones.
      for (const block of content as UserContentBlock[]) {
        if (block.type === 'tool_result') into.results.delete(block.tool_use_id);
      }
    } else if (typeof toolUseId === 'string' && (typeof content === 'string' || Array.isArray(content))) {
      into.results.set(toolUseId, content as ToolResultContent);
    }
  }
}

function applyReplacements(message: Message, replacements: Replacements): Message {
  if (message.type !== 'user') return message;
  const whole = replacements.messages.get(message.uuid);
  const current = whole ?? message.message.content;
  if (typeof current === 'string') return message;
  const hit = current.some((b) => b.type === 'tool_result' && replacements.results.has(b.tool_use_id));
  if (!hit) return whole ? { ...message, message: { ...message.message, content: whole } } : message;
  const content = current.map((block) => {
    if (block.type !== 'tool_result') return block;
    const replaced = replacements.results.get(block.tool_use_id);
    return replaced === undefined ? block : { ...block, content: replaced };
  });
  return { ...message, message: { ...message.message, content } };
}
