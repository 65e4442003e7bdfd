/**
 * What a compaction re-attaches after the summary, so the model does not lose what it was told or
 * was looking at: memory files, the todo list, the most recently read files (fresh from disk, each
 * capped), the plan and the active skills. Each goes in its own meta user message.
 */
import { estimateTextTokens } from '../../model/tokens';
import { createUserMessage, type UserMessage } from '../../session/messages';
import { readTextHead } from '../../tools/builtin/shared/text-head';
import type { AppState } from '../../tools/context';
import type { ReadFileState } from '../../tools/read-file-state';

type MaybeAsync<T> = T | Promise<T>;
export type MemoryRef = { path: string; content: string };
export type SkillRef = { name: string; content: string };

export type EssentialsSource = {
  getAppState?: () => AppState;
  readFileState?: ReadFileState;
  memoryFiles?: readonly MemoryRef[] | (() => MaybeAsync<readonly MemoryRef[]>);
  getPlan?: () => MaybeAsync<string | undefined>;
  getActiveSkills?: () => MaybeAsync<readonly SkillRef[]>;
  /** The skill listing as it stands (the model lost the earlier ones with the summary). */
  getSkillListing?: () => string | undefined;
  /** Defaults: the 5 most recently read files, at most 8,000 tokens each. */
  recentFiles?: { count: number; maxTokensPerFile: number };
};

export const DEFAULT_RECENT_FILES = { count: 5, maxTokensPerFile: 8_000 };

/** The head of `text` that fits in `maxTokens`, cut at a line end. */
export function capToTokens(text: string, maxTokens: number): { text: string; truncated: boolean } {
  if (estimateTextTokens(text) <= maxTokens) return { text, truncated: false };
  // Dense text (code punctuation) can be 2 chars a token; start there and shrink until it fits.
  let end = Math.min(text.length, maxTokens * 2);
  let head = text.slice(0, end);
  while (estimateTextTokens(head) > maxTokens && end > 0) {
    end = Math.floor(end * 0.8);
    head = text.slice(0, end);
  }
  const lineEnd = head.lastIndexOf('\n');
  return { text: lineEnd > end / 2 ? head.slice(0, lineEnd) : head, truncated: true };
}

async function recentFileMessages(source: EssentialsSource, exclude: Set<string>): Promise<UserMessage[]> {
  const state = source.readFileState;
  if (!state) return [];
  const { count, maxTokensPerFile } = source.recentFiles ?? DEFAULT_RECENT_FILES;
  // ReadFileState is an LRU in insertion order: the newest entries are last.
  const paths = state
    .paths()
    .filter((p) => !exclude.has(p))
    .slice(-count)
    .reverse();
  // Read's rules: regular text files only (a path may be a FIFO by now), a bounded head, the encoding Read shows.
  const heads = await Promise.all(paths.map((p) => readTextHead(p, maxTokensPerFile * 8)));
  const out: UserMessage[] = [];
  paths.forEach((path, i) => {
    const head = heads[i];
    if (head === undefined) return;
    const capped = capToTokens(head.text, maxTokensPerFile);
    const note = capped.truncated || head.truncated ? ' (truncated; Read the file for the rest)' : '';
    out.push(
      createUserMessage(
        `Recently read file ${path}, re-read from disk after the compaction${note}:\n\n${capped.text}`,
        { isMeta: true },
      ),
    );
  });
  return out;
}

export async function buildEssentials(source: EssentialsSource): Promise<UserMessage[]> {
  const memory =
    typeof source.memoryFiles === 'function' ? await source.memoryFiles() : (source.memoryFiles ?? []);
  const [plan, skills, files] = await Promise.all([
    source.getPlan?.(),
    source.getActiveSkills?.() ?? [],
    recentFileMessages(source, new Set(memory.map((m) => m.path))),
  ]);
  const out: UserMessage[] = [];
  if (memory.length > 0) {
    const body = memory.map((m) => `Contents of ${m.path}:\n\n${m.content.trim()}`).join('\n\n');
    out.push(
      createUserMessage(`Instructions from the user's memory files (still in force):\n\n${body}`, {
        isMeta: true,
      }),
    );
  }
  const todos = source.getAppState?.().todos ?? [];
  if (todos.length > 0) {
    const list = todos.map((t, i) => `${i + 1}. [${t.status}] ${t.content}`).join('\n');
    out.push(createUserMessage(`The current todo list:\n${list}`, { isMeta: true }));
  }
  if (plan?.trim()) out.push(createUserMessage(`The current plan:\n\n${plan.trim()}`, { isMeta: true }));
  if (skills.length > 0) {
    const body = skills.map((s) => `## Skill: ${s.name}\n\n${s.content.trim()}`).join('\n\n');
    out.push(
      createUserMessage(`Skills active in this session (still in force):\n\n${body}`, { isMeta: true }),
    );
  }
  const listing = source.getSkillListing?.();
  if (listing) out.push(createUserMessage(listing, { isMeta: true }));
  out.push(...files);
  return out;
}
