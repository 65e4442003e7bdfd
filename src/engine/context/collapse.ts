/**
 * Stage 4 (off by default; settings `context.collapse`): context collapse. Folds runs of old tool
 * rounds (an assistant response that called tools, plus its results) into one short,
 * deterministic note each: the tool, the gist of its input and the first line of its result. No
 * model call, so it is cheap and reproducible.
 *
 * Collapses are staged before they are committed. Above the staging mark the runs that may fold
 * are chosen and their notes written, but the request is left alone, so the cached prefix stays
 * valid; only above the commit mark are the staged runs replaced in history (all at once: one
 * cache break). When the API still answers prompt-too-long, `drain` commits everything staged at
 * once, and stages with looser rules first (any run of old rounds, fewer kept back), so the loop
 * can retry before it falls back to a full compaction.
 *
 * Each commit is recorded as a context edit, so a resumed session sends the notes, not the rounds.
 */
import type { AssistantContentBlock, ToolResultBlock } from '../../model/types';
import { type ContextEditSpan, contextEditMessage } from '../../session/context-edits';
import {
  createUserMessage,
  type Message,
  type SystemMessage,
  type UserMessage,
} from '../../session/messages';
import { COLLAPSE_PREFIX, pinnedPrefixLength, roundStarts, toolResultsOf } from './context-messages';
import { CLEARED_TOOL_RESULT } from './microcompact';

/** Which rounds may fold: never the newest `keepRecentRounds`, and only runs of `minRounds` or more. */
export type CollapseRules = { keepRecentRounds: number; minRounds: number };

export type CollapseOptions = CollapseRules & {
  /** Context size at which runs are staged. */
  stageTokens: number;
  /** Context size at which the staged runs replace the rounds in history. */
  commitTokens: number;
  /** The rules `drain` stages with (default: keep 2 rounds, fold runs of any length). */
  drainRules?: CollapseRules;
};

export type CollapseResult = { messages: Message[]; folded: number; event?: SystemMessage };

export { COLLAPSE_PREFIX };

const LINE = 160;
const DEFAULT_DRAIN_RULES: CollapseRules = { keepRecentRounds: 2, minRounds: 1 };

type Round = { start: number; end: number; collapsible: boolean };

/** A run chosen to fold: the uuids of its messages, in order, and the note that replaces them. */
type StagedRun = { uuids: string[]; rounds: number; note: UserMessage };

function rounds(messages: readonly Message[], from: number): Round[] {
  const starts = roundStarts(messages, from);
  return starts.map((start, k) => {
    const end = starts[k + 1] ?? messages.length;
    const first = messages[start] as Message;
    let hasToolUse = false;
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
    return { start, end, collapsible: first.type === 'assistant' && hasToolUse && ids.size === 0 };
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

/**
 * The runs that may fold under `rules`, skipping rounds in `taken` (already staged). A run ends at
 * a round that cannot fold (a user prompt, an answer without tools) or at a taken one.
 */
function planRuns(
  messages: readonly Message[],
  rules: CollapseRules,
  taken: ReadonlySet<string>,
): StagedRun[] {
  const all = rounds(messages, pinnedPrefixLength(messages));
  const old = all.slice(0, Math.max(0, all.length - rules.keepRecentRounds));
  const runs: StagedRun[] = [];
  let run: Round[] = [];
  const flush = () => {
    if (run.length >= Math.max(1, rules.minRounds)) {
      const slice = messages.slice((run[0] as Round).start, (run[run.length - 1] as Round).end);
      runs.push({
        uuids: slice.map((m) => m.uuid),
        rounds: run.length,
        note: createUserMessage(describeRounds(slice), { isMeta: true }),
      });
    }
    run = [];
  };
  for (const round of old) {
    if (round.collapsible && !taken.has((messages[round.start] as Message).uuid)) run.push(round);
    else flush();
  }
  flush();
  return runs;
}

/**
 * Replaces each run still present in `messages` as it was staged (the same messages, contiguous)
 * by its note. A run that history lost meanwhile (snipped, compacted) is skipped.
 */
function commitRuns(messages: Message[], runs: readonly StagedRun[]): CollapseResult {
  const index = new Map<string, number>();
  messages.forEach((m, i) => {
    index.set(m.uuid, i);
  });
  const replace = new Map<number, StagedRun>();
  for (const run of runs) {
    const at = index.get(run.uuids[0] as string);
    if (at === undefined) continue;
    if (run.uuids.every((u, k) => messages[at + k]?.uuid === u)) replace.set(at, run);
  }
  if (replace.size === 0) return { messages, folded: 0 };
  const out: Message[] = [];
  const spans: ContextEditSpan[] = [];
  let folded = 0;
  for (let i = 0; i < messages.length; i++) {
    const run = replace.get(i);
    if (!run) {
      out.push(messages[i] as Message);
      continue;
    }
    out.push(run.note);
    spans.push({ removedUuids: run.uuids, replacement: run.note });
    folded += run.rounds;
    i += run.uuids.length - 1;
  }
  const event = contextEditMessage('collapse', `Collapsed ${folded} old tool rounds into summaries.`, spans);
  return { messages: out, folded, event };
}

/** The collapse state of one conversation: the runs staged and not yet committed. */
export class ContextCollapse {
  private staged: StagedRun[] = [];

  constructor(private readonly options: CollapseOptions) {}

  /** How many rounds are staged and waiting for the commit mark (or a drain). */
  get stagedRounds(): number {
    return this.staged.reduce((sum, run) => sum + run.rounds, 0);
  }

  /** The stage's pass before a model call. */
  apply(messages: Message[], contextTokens: number): CollapseResult {
    if (contextTokens < this.options.stageTokens) return { messages, folded: 0 };
    this.stage(messages, this.options);
    if (contextTokens < this.options.commitTokens) return { messages, folded: 0 };
    return this.commit(messages);
  }

  /** After a prompt-too-long answer: stage what the looser rules allow, then commit everything. */
  drain(messages: Message[]): CollapseResult {
    this.stage(messages, this.options.drainRules ?? DEFAULT_DRAIN_RULES);
    return this.commit(messages);
  }

  private stage(messages: readonly Message[], rules: CollapseRules): void {
    const taken = new Set<string>();
    for (const run of this.staged) for (const uuid of run.uuids) taken.add(uuid);
    this.staged.push(...planRuns(messages, rules, taken));
  }

  private commit(messages: Message[]): CollapseResult {
    const result = commitRuns(messages, this.staged);
    this.staged = [];
    return result;
  }
}
