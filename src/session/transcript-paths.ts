/**
 * Where transcripts live. The layout mirrors Claude Code's (compat §8) under Yoke's home, so a tool
 * that knows one tree can read the other by swapping the root:
 * `<home>/projects/<slug>/<sessionId>.jsonl`, subagents in `<sessionId>/subagents/`.
 */
import { join } from 'node:path';
import { type Env, yokeHome } from '../config/paths';

/** Claude Code cuts longer slugs and appends a hash so distinct long paths stay distinct. */
const MAX_SLUG_LENGTH = 200;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The 32-bit `h*31 + charCode` string hash Claude Code uses for long slugs. */
function stringHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) | 0;
  return hash;
}

/** The project folder name for a cwd: every character outside `[A-Za-z0-9]` becomes `-`. */
export function projectSlug(cwd: string): string {
  const slug = cwd.replace(/[^a-zA-Z0-9]/g, '-');
  if (slug.length <= MAX_SLUG_LENGTH) return slug;
  return `${slug.slice(0, MAX_SLUG_LENGTH)}-${Math.abs(stringHash(cwd)).toString(36)}`;
}

export function projectsRoot(env: Env): string {
  return join(yokeHome(env), 'projects');
}

export function projectDir(env: Env, cwd: string): string {
  return join(projectsRoot(env), projectSlug(cwd));
}

export function transcriptPath(env: Env, cwd: string, sessionId: string): string {
  return join(projectDir(env, cwd), `${sessionId}.jsonl`);
}

/** A subagent's sidechain transcript and its meta file, beside the parent session's file. */
export function subagentTranscriptPaths(
  env: Env,
  cwd: string,
  sessionId: string,
  agentId: string,
): { transcript: string; meta: string } {
  const dir = join(projectDir(env, cwd), sessionId, 'subagents');
  return { transcript: join(dir, `agent-${agentId}.jsonl`), meta: join(dir, `agent-${agentId}.meta.json`) };
}

/** Session files are named by UUID; other `.jsonl` files in a project folder are not sessions. */
export function isSessionId(text: string): boolean {
  return UUID_PATTERN.test(text);
}
