/**
 * The sessions the resume picker offers: this project's, newest first, each with its first prompt
 * (or title), age and size. A transcript can be megabytes long, so only its head (where the first
 * prompt is) and its tail (where a title set later is) are read — a fixed cost per session that
 * keeps the picker quick with a thousand of them.
 */
import { open } from 'node:fs/promises';
import type { Env } from '../config/paths';
import { parseJsonObject } from '../lib/json-object';
import { mapLimited } from '../lib/map-limited';
import {
  projectSessionFiles,
  promptText,
  type SessionFile,
  sessionAge,
  typedCommand,
} from '../session/session-list';

const HEAD_BYTES = 32 * 1024;
const TAIL_BYTES = 8 * 1024;
const CONCURRENCY = 16;

export type PickerSession = {
  sessionId: string;
  path: string;
  /** The title when one was set, else the first prompt, one line; undefined for neither. */
  label?: string;
  firstPrompt?: string;
  title?: string;
  gitBranch?: string;
  modifiedMs: number;
  size: number;
  /** Its mtime contradicts the use order (SessionFile.ageUnknown). */
  ageUnknown?: boolean;
};

export type ListOptions = {
  env: Env;
  cwd: string;
  /** Left out of the list (the session the user is in). */
  excludeSessionId?: string;
  limit?: number;
};

export async function listPickerSessions(options: ListOptions): Promise<PickerSession[]> {
  const files = projectSessionFiles(options.env, options.cwd)
    .filter((f) => f.sessionId !== options.excludeSessionId)
    .slice(0, options.limit ?? Number.POSITIVE_INFINITY);
  return mapLimited(files, CONCURRENCY, readPickerSession);
}

/** Complete lines of a byte range; a line cut by the range's edge is dropped. */
function wholeLines(text: string, cutStart: boolean, cutEnd: boolean): string[] {
  const lines = text.split('\n');
  if (cutStart) lines.shift();
  if (cutEnd) lines.pop();
  return lines.filter((l) => l !== '');
}

export async function readPickerSession(file: SessionFile): Promise<PickerSession> {
  const session: PickerSession = {
    sessionId: file.sessionId,
    path: file.path,
    modifiedMs: file.modifiedMs,
    size: file.size,
    ...(file.ageUnknown ? { ageUnknown: true } : {}),
  };
  const handle = await open(file.path, 'r');
  let head: string;
  let tail = '';
  try {
    const headBuffer = Buffer.alloc(Math.min(HEAD_BYTES, file.size));
    const { bytesRead } = await handle.read(headBuffer, 0, headBuffer.length, 0);
    head = headBuffer.subarray(0, bytesRead).toString('utf8');
    if (file.size > HEAD_BYTES) {
      const start = Math.max(HEAD_BYTES, file.size - TAIL_BYTES);
      const tailBuffer = Buffer.alloc(file.size - start);
      const read = await handle.read(tailBuffer, 0, tailBuffer.length, start);
      tail = tailBuffer.subarray(0, read.bytesRead).toString('utf8');
    }
  } finally {
    await handle.close();
  }
  const headLines = wholeLines(head, false, file.size > HEAD_BYTES && !head.endsWith('\n'));
  const tailLines = tail === '' ? [] : wholeLines(tail, true, false);
  let title: string | undefined;
  let firstCommand: string | undefined;
  for (const text of [...headLines, ...tailLines]) {
    const line = parseJsonObject(text);
    if (!line) continue;
    if (session.gitBranch === undefined && typeof line.gitBranch === 'string' && line.gitBranch !== '')
      session.gitBranch = line.gitBranch;
    if (line.type === 'custom-title' && typeof line.customTitle === 'string') title = line.customTitle;
    else if (line.type === 'ai-title' && typeof line.aiTitle === 'string' && title === undefined)
      title = line.aiTitle;
    else if (session.firstPrompt === undefined && line.type === 'user' && line.isSidechain !== true) {
      const prompt = promptText(line);
      if (prompt !== undefined) session.firstPrompt = prompt.slice(0, 200);
      else firstCommand ??= typedCommand(line)?.slice(0, 200);
    }
  }
  if (session.firstPrompt === undefined && firstCommand !== undefined) session.firstPrompt = firstCommand;
  if (title !== undefined) session.title = title;
  const label = session.title ?? session.firstPrompt;
  if (label !== undefined) session.label = label;
  return session;
}

/** Sessions whose label, branch or id contain `query` (case-insensitive), in the given order. */
export function filterPickerSessions(sessions: readonly PickerSession[], query: string): PickerSession[] {
  const q = query.trim().toLowerCase();
  if (q === '') return [...sessions];
  return sessions.filter((s) =>
    [s.label, s.firstPrompt, s.gitBranch, s.sessionId].some((field) => field?.toLowerCase().includes(q)),
  );
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** One picker row: age, size, label — what the UI shows when it draws no columns of its own. */
export function describePickerSession(session: PickerSession, nowMs = Date.now()): string {
  const label = session.label ?? '(no prompt)';
  const branch = session.gitBranch ? `  [${session.gitBranch}]` : '';
  return `${sessionAge(session, nowMs).padEnd(8)}  ${formatSize(session.size).padStart(7)}  ${label}${branch}`;
}
