/**
 * Finds and describes the sessions on disk, for `--continue`, `--resume` matching and
 * `yoke sessions list`. Listing file names is cheap; reading a session's summary streams its file
 * and parses only the lines a summary needs (user, cost and title lines).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../config/paths';
import { mapLimited } from '../lib/map-limited';
import { agesUnknown, byLastUse, readUseOrder } from './session-use-order';
import { forEachLine } from './transcript-loader';
import { isSessionId, projectDir, projectsRoot } from './transcript-paths';

export type SessionFile = {
  sessionId: string;
  path: string;
  projectDir: string;
  modifiedMs: number;
  size: number;
  /** Its mtime contradicts the order the sessions were used in: the clock was set back then. */
  ageUnknown?: boolean;
};

export type SessionSummary = SessionFile & {
  cwd?: string;
  createdAt?: string;
  /** The first prompt the user typed (not a tool result, reminder or compaction summary). */
  firstPrompt?: string;
  /** The last custom or AI title, when one was set. */
  title?: string;
  /** Prompts the user typed. */
  turns: number;
  /** Sum of the session's `cost` lines (one per API request). */
  costUsd: number;
};

/** The session files of one project folder, newest first. Empty files are not sessions yet. */
export function sessionFiles(dir: string): SessionFile[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const files: SessionFile[] = [];
  for (const name of names) {
    if (!name.endsWith('.jsonl')) continue;
    const sessionId = name.slice(0, -'.jsonl'.length);
    if (!isSessionId(sessionId)) continue;
    const path = join(dir, name);
    try {
      const stat = statSync(path);
      if (stat.isFile() && stat.size > 0) {
        files.push({ sessionId, path, projectDir: dir, modifiedMs: stat.mtimeMs, size: stat.size });
      }
    } catch {
      // Removed between readdir and stat: it is not a session any more.
    }
  }
  return files.sort((a, b) => b.modifiedMs - a.modifiedMs);
}

/** One project's session files, the one the user last used first (session-use-order.ts). */
export function projectSessionFiles(env: Env, cwd: string): SessionFile[] {
  const dir = projectDir(env, cwd);
  const files = byLastUse(sessionFiles(dir), readUseOrder(dir));
  const unknown = agesUnknown(files, Date.now());
  return files.map((file) => (unknown.has(file.sessionId) ? { ...file, ageUnknown: true } : file));
}

/** Every project's session files, newest first. */
export function allSessionFiles(env: Env): SessionFile[] {
  const root = projectsRoot(env);
  let dirs: string[];
  try {
    dirs = readdirSync(root);
  } catch {
    return [];
  }
  return dirs.flatMap((d) => sessionFiles(join(root, d))).sort((a, b) => b.modifiedMs - a.modifiedMs);
}

const SUMMARY_TYPES = /"type":"(user|cost|custom-title|ai-title)"/;

export async function summarizeSession(file: SessionFile): Promise<SessionSummary> {
  const summary: SessionSummary = { ...file, turns: 0, costUsd: 0 };
  let customTitle: string | undefined;
  let aiTitle: string | undefined;
  let firstCommand: string | undefined;
  await forEachLine(file.path, (text) => {
    const needHead = summary.createdAt === undefined || summary.cwd === undefined;
    if (!needHead && !SUMMARY_TYPES.test(text)) return;
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return;
    }
    if (needHead) {
      if (typeof line.timestamp === 'string') summary.createdAt ??= line.timestamp;
      if (typeof line.cwd === 'string') summary.cwd ??= line.cwd;
    }
    if (line.type === 'cost' && typeof line.costUSD === 'number') summary.costUsd += line.costUSD;
    else if (line.type === 'custom-title' && typeof line.customTitle === 'string')
      customTitle = line.customTitle;
    else if (line.type === 'ai-title' && typeof line.aiTitle === 'string') aiTitle = line.aiTitle;
    else if (line.type === 'user' && line.isSidechain !== true) {
      const prompt = promptText(line);
      const command = prompt === undefined ? typedCommand(line) : undefined;
      if (command !== undefined) {
        summary.turns++;
        firstCommand ??= command.slice(0, 200);
      }
      if (prompt === undefined) return;
      summary.turns++;
      summary.firstPrompt ??= prompt.slice(0, 200);
    }
  });
  // A session of commands alone (`yoke -p "/review"`) is named by the first one, not "(no prompt)".
  if (firstCommand !== undefined) summary.firstPrompt ??= firstCommand;
  const title = customTitle ?? aiTitle;
  if (title !== undefined) summary.title = title;
  return summary;
}

/** The typed text of a user line, or undefined for tool results, reminders and summaries. */
export function promptText(line: Record<string, unknown>): string | undefined {
  if (line.isMeta === true || line.isCompactSummary === true || line.toolUseResult !== undefined)
    return undefined;
  const content = (line.message as { content?: unknown } | undefined)?.content;
  let text: string;
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    if (content.some((b) => (b as { type?: unknown }).type === 'tool_result')) return undefined;
    text = content
      .map((b) => ((b as { type?: unknown }).type === 'text' ? String((b as { text?: unknown }).text) : ''))
      .join(' ');
  } else return undefined;
  text = text.replace(/\s+/g, ' ').trim();
  // Slash-command wrappers are Yoke's bookkeeping, not something the user would recognize.
  if (text === '' || text.startsWith('<command-') || text.startsWith('<local-command')) return undefined;
  // A `!command` the user ran is kept as Claude Code keeps it (its input and output in tags): shown as typed.
  const bang = /^<bash-input>(.*?)<\/bash-input>/.exec(text);
  if (bang) return `!${bang[1]}`;
  // So is a `#note` the user wrote to the memory file (the model reads it with the next prompt).
  const note = /^<user-memory-input>(.*?)<\/user-memory-input>/.exec(text);
  if (note) return `#${note[1]}`;
  return text;
}

const COMMAND_LINE =
  /^<command-message>[^<]*<\/command-message>\s*<command-name>(\/[^<]+)<\/command-name>\s*<command-args>([^<]*)<\/command-args>/;

/**
 * The `/name args` a user typed, from the wrapper a prompt command's expansion starts with
 * (skills/expand.ts), or undefined for any other line. Listings prefer a typed prompt to it.
 */
export function typedCommand(line: Record<string, unknown>): string | undefined {
  if (line.isMeta === true || line.toolUseResult !== undefined) return undefined;
  const content = (line.message as { content?: unknown } | undefined)?.content;
  const first = Array.isArray(content) ? (content[0] as { type?: unknown; text?: unknown }) : undefined;
  const text = typeof content === 'string' ? content : first?.type === 'text' ? String(first.text) : '';
  const match = COMMAND_LINE.exec(text);
  if (!match) return undefined;
  return `${match[1]} ${match[2]}`.replace(/\s+/g, ' ').trim();
}

/** A clock this far behind a file's mtime was set back since: the file's age cannot be told. */
const CLOCK_SKEW_MS = 60_000;

/** "just now", "5m ago", "3h ago", "2d ago"; "unknown" for an mtime in the future. */
export function formatAge(modifiedMs: number, nowMs = Date.now()): string {
  if (modifiedMs > nowMs + CLOCK_SKEW_MS) return 'unknown';
  const seconds = Math.max(0, Math.round((nowMs - modifiedMs) / 1000));
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h ago`;
  return `${Math.floor(seconds / 86_400)}d ago`;
}

/** A session's age from its mtime, unless the use order says that mtime is wrong. */
export function sessionAge(file: Pick<SessionFile, 'modifiedMs' | 'ageUnknown'>, nowMs = Date.now()): string {
  return file.ageUnknown ? 'unknown' : formatAge(file.modifiedMs, nowMs);
}

/** Summaries in the order given, a few files at a time so a large history cannot exhaust fds. */
export async function summarizeSessions(
  files: readonly SessionFile[],
  concurrency = 16,
): Promise<SessionSummary[]> {
  return mapLimited(files, concurrency, summarizeSession);
}
