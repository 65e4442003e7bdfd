/**
 * `yoke sessions list [--all]`: the saved sessions of this folder (or of every folder), newest
 * first, with what a user needs to pick one for `--resume`: id, age, prompts typed, cost and the
 * first prompt. Cost is the sum of the transcript's `cost` lines (one per API request).
 */
import type { Env } from '../../config/paths';
import {
  allSessionFiles,
  projectSessionFiles,
  type SessionSummary,
  sessionAge,
  summarizeSessions,
} from '../../session/session-list';

export type SessionsListOptions = {
  cwd: string;
  env: Env;
  /** Every project's sessions, with the folder each ran in. */
  all?: boolean;
  write?: (text: string) => void;
  /** Reference time for ages (tests). */
  nowMs?: number;
};

const PROMPT_WIDTH = 60;

function cut(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

export function formatCost(usd: number): string {
  return usd === 0 ? '$0' : usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** Renders the table; columns are padded to their widest cell so ids line up for copying. */
export function formatSessionTable(
  sessions: readonly SessionSummary[],
  all: boolean,
  nowMs = Date.now(),
): string {
  const header = ['ID', 'AGE', 'TURNS', 'COST', ...(all ? ['FOLDER'] : []), 'FIRST PROMPT'];
  const rows = sessions.map((s) => [
    s.sessionId,
    sessionAge(s, nowMs),
    String(s.turns),
    formatCost(s.costUsd),
    ...(all ? [s.cwd ?? '?'] : []),
    cut(s.title ?? s.firstPrompt ?? '(no prompt)', PROMPT_WIDTH),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

export async function sessionsListCommand(options: SessionsListOptions): Promise<number> {
  const write = options.write ?? ((text: string) => process.stdout.write(text));
  const all = options.all === true;
  const files = all ? allSessionFiles(options.env) : projectSessionFiles(options.env, options.cwd);
  if (files.length === 0) {
    write(
      all
        ? 'No sessions saved yet.\n'
        : `No sessions saved for ${options.cwd}. \`yoke sessions list --all\` shows every folder's.\n`,
    );
    return 0;
  }
  const summaries = await summarizeSessions(files);
  write(`${formatSessionTable(summaries, all, options.nowMs)}\n`);
  return 0;
}
