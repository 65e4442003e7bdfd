/**
 * Folder trust: whether the settings a project ships may widen permissions (issue 11 §5). Trust is
 * recorded per folder and covers its subfolders, in Yoke's user state (`$YOKE_HOME/state.json` →
 * `projects[path].trusted`). Claude Code's own record — `~/.claude.json` (or
 * `$CLAUDE_CONFIG_DIR/.claude.json` when that is set) → `projects[path].hasTrustDialogAccepted` —
 * is honoured too, and only read.
 *
 * Ways to trust: `yoke trust [dir]` (recorded), `--trust` (this run only, recorded nowhere) and,
 * later, the interactive prompt, which calls `trustFolder`.
 */
import { realpath } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { isJsonObject } from '../lib/json-object';
import { readJsonObjectFile } from './json-file';
import { type Env, homeDir, nonEmpty } from './paths';
import { projectEntry, projectsOf, readUserState, updateUserState, userStatePath } from './user-state';

/** Where a folder's trust comes from: the folder that holds the record and the file it is in. */
export type TrustRecord = { folder: string; file: string };

export type ProjectTrust = {
  trusted: boolean;
  /** The record that trusts it (the folder itself or one above it). */
  via?: TrustRecord;
  /** Files that could not be read, one line each (trust is then decided without them). */
  problems: string[];
};

/** Claude Code's user file, which records the folders its trust dialog accepted. */
export function claudeUserFile(env: Env): string {
  return join(nonEmpty(env.CLAUDE_CONFIG_DIR) ?? homeDir(env), '.claude.json');
}

/** The folder and every folder above it, nearest first. */
function selfAndAncestors(dir: string): string[] {
  const out: string[] = [];
  for (let current = dir; ; current = dirname(current)) {
    out.push(current);
    if (dirname(current) === current) return out;
  }
}

/** The spellings a folder may be recorded under: as given and with symlinks resolved. */
async function spellings(dir: string): Promise<string[]> {
  const absolute = resolve(dir);
  const real = await realpath(absolute).catch(() => absolute);
  return [...new Set([absolute, real])];
}

async function claudeTrustedFolders(env: Env, problems: string[]): Promise<string[]> {
  const file = claudeUserFile(env);
  const read = await readJsonObjectFile(file).catch((error: Error) => ({
    kind: 'invalid' as const,
    problem: error.message,
  }));
  if (read.kind === 'invalid') problems.push(`${file}: ${read.problem}; its trust records are ignored`);
  if (read.kind !== 'object' || !isJsonObject(read.json.projects)) return [];
  return Object.entries(read.json.projects)
    .filter(([, entry]) => isJsonObject(entry) && entry.hasTrustDialogAccepted === true)
    .map(([path]) => path);
}

/** Every recorded trusted folder, Yoke's first, with the file that records it. */
export async function trustedFolders(env: Env): Promise<{ records: TrustRecord[]; problems: string[] }> {
  const problems: string[] = [];
  const { state, problem } = await readUserState(env);
  if (problem) problems.push(problem);
  const yokeFile = userStatePath(env);
  const records: TrustRecord[] = Object.entries(projectsOf(state))
    .filter(([, entry]) => entry.trusted === true)
    .map(([folder]) => ({ folder, file: yokeFile }));
  const claudeFile = claudeUserFile(env);
  for (const folder of await claudeTrustedFolders(env, problems)) records.push({ folder, file: claudeFile });
  return { records, problems };
}

/** Whether `dir` is trusted by a record for it or a folder above it. */
export async function projectTrust(dir: string, env: Env): Promise<ProjectTrust> {
  const { records, problems } = await trustedFolders(env);
  for (const spelling of await spellings(dir)) {
    for (const folder of selfAndAncestors(spelling)) {
      const via = records.find((record) => record.folder === folder);
      if (via) return { trusted: true, via, problems };
    }
  }
  return { trusted: false, problems };
}

/** Folders too wide to trust: everything on the machine, or everything the user owns. */
function tooWide(folder: string, env: Env): string | undefined {
  if (dirname(folder) === folder) return 'the filesystem root';
  const home = resolve(homeDir(env));
  return folder === home ? 'your home folder' : undefined;
}

export class TrustError extends Error {}

/** Records trust for `dir` (resolved to its real path); returns the folder and any problem line. */
export async function trustFolder(dir: string, env: Env): Promise<{ folder: string; problem?: string }> {
  const folder = await realpath(resolve(dir)).catch(() => {
    throw new TrustError(`${resolve(dir)} does not exist; give the project folder to trust.`);
  });
  const wide = tooWide(folder, env);
  if (wide) {
    throw new TrustError(
      `Not trusting ${folder}: it is ${wide}, and trust covers every folder below it. Trust the project folder instead, or pass --trust for one run.`,
    );
  }
  const { problem } = await updateUserState(env, (state) => {
    projectEntry(state, folder).trusted = true;
  });
  return problem === undefined ? { folder } : { folder, problem };
}

/**
 * Removes Yoke's trust record for exactly `dir`. Says what still trusts it when a record above it
 * or Claude Code's file does (that one is Claude Code's to change).
 */
export async function untrustFolder(
  dir: string,
  env: Env,
): Promise<{ folder: string; removed: boolean; stillTrustedVia?: TrustRecord; problem?: string }> {
  const folder = await realpath(resolve(dir)).catch(() => resolve(dir));
  const { state } = await readUserState(env);
  const recorded = [...new Set([resolve(dir), folder])].filter(
    (path) => projectsOf(state)[path]?.trusted === true,
  );
  let problem: string | undefined;
  if (recorded.length > 0) {
    ({ problem } = await updateUserState(env, (next) => {
      for (const path of recorded) {
        const entry = projectEntry(next, path);
        delete entry.trusted;
        // Other features' keys for the folder stay; an entry left empty goes.
        if (Object.keys(entry).length === 0) delete (next.projects as Record<string, unknown>)[path];
      }
    }));
  }
  const after = await projectTrust(folder, env);
  return {
    folder,
    removed: recorded.length > 0,
    ...(after.via ? { stillTrustedVia: after.via } : {}),
    ...(problem === undefined ? {} : { problem }),
  };
}
