/**
 * Stage 4 (off by default): context collapse. Folds runs of old tool rounds (an assistant response
 * that called tools, plus its results) into one short, deterministic note: the tool, the gist of
 * its input and the first line of its result. No model call, so it is cheap and reproducible.
 *
 * Cache rule, as for microcompact: only above `triggerTokens`, only rounds older than the newest
 * `keepRecentRounds`, and only when at least `minRounds` rounds can be folded at once.
 */
import type { AssistantContentBlock, ToolResultBlock } from '../../model/types';
import {
  createSystemMessage,
  createUserMessage,
  type Message,
  type SystemMessage,
} from '../../session/messages';
import { COLLAPSE_PREFIX, pinnedPrefixLength, roundStarts, toolResultsOf } from './context-messages';
import { CLEARED_TOOL_RESULT } from './microcompact';

export type CollapseOptions = { triggerTokens: number; keepRecentRounds: number; minRounds: number };

export { COLLAPSE_PREFIX };

const LINE = 160;

type Round = { start: number; end: number; collapsible: boolean };

function rounds(messages: readonly Message[], from: number): Round[] {
  const starts = roundStarts(messages, from);
  return starts.map((start, k) => {
    const end = starts[k + 1] ?? messages.length;
    const first = messages[start] as Message;
    let hasToolUse = false;
    let answered = true;
    const ids = new Set<string>();
    for (let i = start; i < end; i++) {
      const m = messages[i] as Message;
      if (m.type === 'assistant')
        for (const b of m.message.content)
          if (b.type === 'tool_use') {
            hasToolUse = true;
            ids.add(b.id);
          }
      for (const r of toolResultsOf(m)) ids.delete(r.tool_use_id);
    }
    if (ids.size > 0) answered = false;
    return { start, end, collapsible: first.type === 'assistant' && hasToolUse && answered };
  });
}

const oneLine = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > LINE ? `${line.slice(0, LINE - 1)}…` : line;
};

function resultGist(result: ToolResultBlock | undefined): string {
  if (!result) return 'no result';
  const text =
    typeof result.content === 'string'
      ? result.content
      : result.content.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join(' ');
  if (text === CLEARED_TOOL_RESULT) return 'result cleared';
  const firstLine = text.split('\n').find((l) => l.trim() !== '') ?? '(empty)';
  return `${result.is_error ? 'error: ' : ''}${oneLine(firstLine)}`;
}

/** The note for a run of rounds: one line per tool call and per thing the assistant said. */
export function describeRounds(messages: readonly Message[]): string {
  const results = new Map<string, ToolResultBlock>();
  for (const m of messages) for (const r of toolResultsOf(m)) results.set(r.tool_use_id, r);
  const lines: string[] = [];
  for (const m of messages) {
    if (m.type !== 'assistant') continue;
    for (const b of m.message.content as AssistantContentBlock[]) {
      if (b.type === 'text' && b.text.trim() !== '') lines.push(`- said: ${oneLine(b.text)}`);
      if (b.type === 'tool_use')
        lines.push(`- ${b.name}(${oneLine(JSON.stringify(b.input))}) → ${resultGist(results.get(b.id))}`);
    }
  }
  return `${COLLAPSE_PREFIX}\n${lines.join('\n')}`;
}

export function collapseToolRuns(
  messages: Message[],
  contextTokens: number,
  options: CollapseOptions,
): { messages: Message[]; folded: number; event?: SystemMessage } {
  const none = { messages, folded: 0 };
  if (contextTokens < options.triggerTokens) return none;
  const all = rounds(messages, pinnedPrefixLength(messages));
  const old = all.slice(0, Math.max(0, all.length - options.keepRecentRounds));
  if (old.filter((r) => r.collapsible).length < options.minRounds) return none;

  const out: Message[] = messages.slice(0, all[0]?.start ?? messages.length);
  const removedUuids: string[] = [];
  const summaries: Message[] = [];
  let folded = 0;
  let run: Round[] = [];
  const flush = () => {
    if (run.length === 0) return;
    const slice = messages.slice((run[0] as Round).start, (run[run.length - 1] as Round).end);
    const summary = createUserMessage(describeRounds(slice), { isMeta: true });
    out.push(summary);
    summaries.push(summary);
    removedUuids.push(...slice.map((m) => m.uuid));
    folded += run.length;
    run = [];
  };
  for (const round of old) {
    if (round.collapsible) {
      run.push(round);
      continue;
    }
    flush();
    out.push(...messages.slice(round.start, round.end));
  }
  flush();
  const keptFrom = all[old.length]?.start ?? messages.length;
  out.push(...messages.slice(keptFrom));
  const event = createSystemMessage('informational', `Collapsed ${folded} old tool rounds into summaries.`, {
    // Enough for a transcript to replay the fold on resume: what went, and what replaced it.
    data: { collapse: { removedUuids, summaries } },
  });
  return { messages: out, folded, event };
}
