/**
 * Context edits: the record a snip or a collapse leaves in history, so a resumed session sends
 * what the stage left instead of everything it removed.
 *
 * A stage that drops or folds old messages yields one system message carrying the edit: for each
 * span it replaced, the uuids it removed and the note that now stands in their place (the snip
 * marker, a collapse summary). The transcript is append-only, so the removed lines stay on disk;
 * `applyContextEdits` replays the edits over the chain a resume reads. The system message is an
 * ordinary `system` line (`subtype: informational`) whose `data.contextEdit` holds the edit, so
 * other readers of the format see a plain informational line.
 */

import { isJsonObject } from '../lib/json-object';
import { createSystemMessage, type Message, type SystemMessage, type UserMessage } from './messages';

export type ContextEditKind = 'snip' | 'collapse';

/** One contiguous run of history replaced by one note. */
export type ContextEditSpan = { removedUuids: string[]; replacement: UserMessage };

export type ContextEdit = { kind: ContextEditKind; spans: ContextEditSpan[] };

export function contextEditMessage(
  kind: ContextEditKind,
  text: string,
  spans: ContextEditSpan[],
): SystemMessage {
  return createSystemMessage('informational', text, { data: { contextEdit: { kind, spans } } });
}

function isNote(value: unknown): value is UserMessage {
  if (!isJsonObject(value) || value.type !== 'user' || typeof value.uuid !== 'string') return false;
  return isJsonObject(value.message) && typeof value.message.content === 'string';
}

/** The edit a message records, or undefined (also for a damaged record: it is then ignored). */
export function contextEditOf(message: Message): ContextEdit | undefined {
  if (message.type !== 'system') return undefined;
  const edit = message.data?.contextEdit;
  if (!isJsonObject(edit) || (edit.kind !== 'snip' && edit.kind !== 'collapse') || !Array.isArray(edit.spans))
    return undefined;
  const spans: ContextEditSpan[] = [];
  for (const span of edit.spans) {
    if (!isJsonObject(span) || !Array.isArray(span.removedUuids) || !isNote(span.replacement))
      return undefined;
    const removedUuids = span.removedUuids.filter((u): u is string => typeof u === 'string');
    spans.push({ removedUuids, replacement: span.replacement });
  }
  return { kind: edit.kind, spans };
}

/**
 * Replays every edit in `messages` (in order, each over the result of the ones before it): a
 * span's removed messages go, and its note takes the place of the first of them. A span none of
 * whose messages is present (a forked copy, whose messages have new uuids and already hold the
 * notes) changes nothing, and a note already present is not added twice.
 */
export function applyContextEdits(messages: readonly Message[]): Message[] {
  let out = messages as Message[];
  for (const message of messages) {
    const edit = contextEditOf(message);
    if (!edit) continue;
    for (const span of edit.spans) out = applySpan(out, span);
  }
  return out;
}

function applySpan(messages: Message[], span: ContextEditSpan): Message[] {
  const removed = new Set(span.removedUuids);
  const first = messages.findIndex((m) => removed.has(m.uuid));
  if (first < 0) return messages;
  const noteUuid = span.replacement.uuid;
  const hasNote = messages.some((m) => m.uuid === noteUuid);
  const out: Message[] = [];
  messages.forEach((m, i) => {
    if (i === first && !hasNote) out.push(span.replacement);
    if (!removed.has(m.uuid)) out.push(m);
  });
  return out;
}
