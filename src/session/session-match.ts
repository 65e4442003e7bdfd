/**
 * Turns what the user typed after `--resume` into one session file, or into an error that shows
 * the sessions they most likely meant (by id prefix and edit distance, with age and first prompt).
 */
import type { Env } from '../config/paths';
import { editDistance } from '../lib/edit-distance';
import {
  allSessionFiles,
  projectSessionFiles,
  type SessionFile,
  type SessionSummary,
  sessionAge,
  summarizeSession,
  summarizeSessions,
} from './session-list';
import { projectDir } from './transcript-paths';

export class SessionResolveError extends Error {
  override name = 'SessionResolveError';
}

const MAX_SUGGESTIONS = 5;

/** How far a typed id is from a session id: a typo in a prefix counts like one in the full id. */
function distance(query: string, sessionId: string): number {
  const q = query.toLowerCase();
  if (sessionId.startsWith(q)) return 0;
  return Math.min(editDistance(q, sessionId.slice(0, q.length)), editDistance(q, sessionId));
}

/** One line per session: id, age, turns and the first prompt, cut to fit a terminal. */
export function describeSession(s: SessionSummary, withCwd: boolean): string {
  const prompt = s.title ?? s.firstPrompt ?? '(no prompt)';
  const cut = prompt.length > 60 ? `${prompt.slice(0, 59)}…` : prompt;
  const where = withCwd && s.cwd ? `  [${s.cwd}]` : '';
  return `  ${s.sessionId}  ${sessionAge(s)}  "${cut}"${where}`;
}

async function suggestionLines(files: SessionFile[], localDir: string): Promise<string[]> {
  const summaries = await summarizeSessions(files);
  return summaries.map((s) => describeSession(s, s.projectDir !== localDir));
}

/** The session file `query` names (exact id or unique prefix) in this project, else an error. */
export async function findSessionFile(env: Env, cwd: string, query: string): Promise<SessionFile> {
  const needle = query.trim().toLowerCase();
  const localDir = projectDir(env, cwd);
  const local = projectSessionFiles(env, cwd);
  const exact = local.find((f) => f.sessionId === needle);
  if (exact) return exact;
  const prefixed = needle === '' ? [] : local.filter((f) => f.sessionId.startsWith(needle));
  if (prefixed.length === 1) return prefixed[0] as SessionFile;
  if (prefixed.length > 1) {
    const lines = await suggestionLines(prefixed.slice(0, MAX_SUGGESTIONS * 2), localDir);
    throw new SessionResolveError(
      [`"${query}" matches ${prefixed.length} sessions in ${cwd}; type more of the id:`, ...lines].join('\n'),
    );
  }

  // Not here: maybe the user is in another folder than the one the session ran in.
  const everywhere = allSessionFiles(env);
  const elsewhere = everywhere.filter(
    (f) =>
      f.projectDir !== localDir &&
      (f.sessionId === needle || (needle !== '' && f.sessionId.startsWith(needle))),
  );
  if (elsewhere.length === 1) {
    const other = await summarizeSession(elsewhere[0] as SessionFile);
    const dir = other.cwd ?? other.projectDir;
    throw new SessionResolveError(
      `Session ${other.sessionId} was started in ${dir}, not ${cwd}. Resume it there: cd ${JSON.stringify(dir)} && yoke -p --resume ${other.sessionId} "<prompt>"`,
    );
  }

  const pool = local.length > 0 ? local : everywhere;
  const nearest = pool
    .map((f) => ({ f, d: distance(needle, f.sessionId) }))
    .sort((a, b) => a.d - b.d || b.f.modifiedMs - a.f.modifiedMs)
    .slice(0, MAX_SUGGESTIONS)
    .map((x) => x.f);
  const head = `No session "${query}" in ${cwd}.`;
  if (nearest.length === 0) {
    throw new SessionResolveError(
      `${head} No sessions are saved yet; start one with \`yoke -p "<prompt>"\`.`,
    );
  }
  const lines = await suggestionLines(nearest, localDir);
  throw new SessionResolveError(
    [
      `${head} Nearest matches${local.length > 0 ? '' : ' in other folders'}:`,
      ...lines,
      'Resume one with `yoke -p --resume <id> "<prompt>"`; `yoke sessions list --all` shows every session.',
    ].join('\n'),
  );
}
