/**
 * The line shape of a transcript (compat §8), and the two projections between it and Yoke's
 * in-memory `Message`. A line is the message's own fields plus an envelope (chain link, session,
 * cwd, version); unknown message fields pass through untouched, so a field another layer adds to
 * a message survives a resume without this file knowing about it.
 */

import { isJsonObject } from '../lib/json-object';
import type { ToolResultContent, Usage, UserContentBlock } from '../model/types';
import type { Message } from './messages';

export type TranscriptEnvelope = {
  parentUuid: string | null;
  sessionId: string;
  cwd: string;
  version: string;
  isSidechain: boolean;
  gitBranch?: string;
  entrypoint?: string;
  /** Sidechain (subagent) transcripts name their agent on every line. */
  agentId?: string;
  /** Set on every line a fork copied from another session. */
  forkedFrom?: { sessionId: string; messageUuid: string };
};

/**
 * Content the context pipeline replaced (a budgeted or cleared tool result): replaying it on
 * resume keeps the history identical to what the model was sent. `tool-result` replaces one
 * result by tool_use_id; `message` replaces a whole user message's content by its uuid.
 */
export type ContentReplacement =
  | { kind: 'tool-result'; toolUseId: string; targetUuid?: string; content: ToolResultContent }
  | { kind: 'message'; targetUuid: string; content: UserContentBlock[] };

export type ContentReplacementLine = {
  type: 'content-replacement';
  sessionId: string;
  uuid: string;
  timestamp: string;
  replacements: ContentReplacement[];
};

/**
 * A resume repaired the history it read (transcript-repair.ts): tool calls a crash cut off got a
 * synthetic "interrupted" result, results without their call were dropped. The repair is redone
 * in memory on every resume; this line only records that the user was told, so later resumes of
 * the same file stay quiet about it.
 */
export type ToolRepairLine = {
  type: 'tool-repair';
  sessionId: string;
  timestamp: string;
  /** tool_use ids answered with a synthetic result. */
  answered: string[];
  /** tool_use ids of results dropped for want of their call. */
  dropped: string[];
};

/** One API request's spend: `yoke sessions list` sums these for the cost column. */
export type CostLine = {
  type: 'cost';
  sessionId: string;
  timestamp: string;
  model: string;
  usage: WireUsage;
  costUSD: number;
};

type WireUsage = {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
};

/** Envelope and Claude Code bookkeeping fields: never part of the message a resume rebuilds. */
const ENVELOPE_KEYS = new Set([
  'parentUuid',
  'logicalParentUuid',
  'sessionId',
  'cwd',
  'version',
  'isSidechain',
  'userType',
  'entrypoint',
  'gitBranch',
  'agentId',
  'forkedFrom',
  'slug',
  'promptId',
  'permissionMode',
  'permissionDecision',
  'sourceToolAssistantUUID',
  'requestSessionId',
  'compactMetadata',
]);

export function toWireUsage(usage: Usage): WireUsage {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_read_input_tokens: usage.cacheReadInputTokens,
    cache_creation_input_tokens: usage.cacheCreationInputTokens,
  };
}

/** Reads either shape: Yoke writes the API's snake_case, older or foreign lines may differ. */
export function fromWireUsage(raw: unknown): Usage {
  const u = (raw ?? {}) as Record<string, unknown>;
  const num = (...values: unknown[]) => {
    for (const v of values) if (typeof v === 'number') return v;
    return 0;
  };
  return {
    inputTokens: num(u.input_tokens, u.inputTokens),
    outputTokens: num(u.output_tokens, u.outputTokens),
    cacheReadInputTokens: num(u.cache_read_input_tokens, u.cacheReadInputTokens),
    cacheCreationInputTokens: num(u.cache_creation_input_tokens, u.cacheCreationInputTokens),
  };
}

export function messageToLine(message: Message, envelope: TranscriptEnvelope): Record<string, unknown> {
  // `type` first and the envelope next: list scans look at a line's first bytes only.
  const { type, ...fields } = message;
  const line: Record<string, unknown> = { type, ...envelope, userType: 'external', ...fields };
  if (message.type === 'assistant') {
    line.message = { ...message.message, usage: toWireUsage(message.message.usage) };
  } else if (message.type === 'system' && message.subtype === 'compact_boundary') {
    line.compactMetadata = compactMetadata(message.data);
  }
  return line;
}

/** `{trigger, preTokens, postTokens}` as Claude Code writes it, from whichever shape `data` has. */
function compactMetadata(data: Record<string, unknown> | undefined): Record<string, unknown> {
  const source = (data?.compactMetadata ?? data ?? {}) as Record<string, unknown>;
  return { trigger: source.trigger ?? 'auto', preTokens: source.preTokens, postTokens: source.postTokens };
}

/** The message a line holds, or undefined for bookkeeping lines and lines too damaged to use. */
export function lineToMessage(line: Record<string, unknown>): Message | undefined {
  const { type, uuid } = line;
  if (typeof uuid !== 'string') return undefined;
  if (type !== 'user' && type !== 'assistant' && type !== 'system') return undefined;
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(line)) if (!ENVELOPE_KEYS.has(key)) fields[key] = line[key];
  if (typeof fields.timestamp !== 'string') fields.timestamp = new Date(0).toISOString();
  if (type === 'system') {
    if (typeof fields.subtype !== 'string') return undefined;
    if (typeof fields.content !== 'string') fields.content = '';
    if (fields.data === undefined && isJsonObject(line.compactMetadata))
      fields.data = { ...line.compactMetadata };
    return fields as unknown as Message;
  }
  const message = line.message;
  if (!isJsonObject(message)) return undefined;
  if (type === 'user') {
    if (typeof message.content !== 'string' && !Array.isArray(message.content)) return undefined;
    return fields as unknown as Message;
  }
  if (!Array.isArray(message.content)) return undefined;
  fields.message = {
    id: typeof message.id === 'string' ? message.id : uuid,
    model: typeof message.model === 'string' ? message.model : '',
    role: 'assistant',
    content: message.content,
    stop_reason: message.stop_reason ?? null,
    stop_sequence: message.stop_sequence ?? null,
    usage: fromWireUsage(message.usage),
  };
  return fields as unknown as Message;
}

export function parentOf(line: Record<string, unknown>): string | null {
  return typeof line.parentUuid === 'string' ? line.parentUuid : null;
}
