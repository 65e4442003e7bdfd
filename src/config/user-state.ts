/**
 * Yoke's user state file, `$YOKE_HOME/state.json`: what Yoke remembers about the user's machine
 * (which folders are trusted, and later other per-project facts). Several features share it, so an
 * update changes only its own keys and keeps every other key as it was. Writes are atomic. A file
 * that cannot be read as a JSON object never stops Yoke: reading reports it and goes on as if it
 * were empty; an update first moves it aside (`state.json.corrupt-<time>`, so nothing is lost)
 * and starts a new one.
 */
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { isJsonObject, type JsonObject } from '../lib/json-object';
import { writeFileAtomic } from './atomic-write';
import { readJsonObjectFile } from './json-file';
import { type Env, yokeHome } from './paths';

export type UserState = JsonObject;

/** One per project folder (absolute path) in `projects`; features add their own keys. */
export type ProjectState = { trusted?: boolean } & JsonObject;

export const userStatePath = (env: Env): string => join(yokeHome(env), 'state.json');

/** The state and, when the file could not be used, one line that says so. */
export type UserStateRead = { state: UserState; problem?: string };

export async function readUserState(env: Env): Promise<UserStateRead> {
  const path = userStatePath(env);
  const file = await readJsonObjectFile(path);
  if (file.kind === 'object') return { state: file.json };
  if (file.kind === 'missing') return { state: {} };
  return { state: {}, problem: `${path}: ${file.problem}; Yoke goes on without it until it is fixed` };
}

/** The `projects` map of a state, whatever the file holds there (a wrong shape reads as empty). */
export function projectsOf(state: UserState): Record<string, ProjectState> {
  const projects = state.projects;
  if (!isJsonObject(projects)) return {};
  const out: Record<string, ProjectState> = {};
  for (const [path, entry] of Object.entries(projects)) if (isJsonObject(entry)) out[path] = entry;
  return out;
}

/**
 * Reads, changes and atomically rewrites the state. `mutate` edits the object in place; keys it
 * does not touch are written back unchanged. Returns a problem line when an unusable file had to
 * be moved aside first.
 */
export function updateUserState(env: Env, mutate: (state: UserState) => void): Promise<{ problem?: string }> {
  // Updates of one file run one after another: two at once would each read the old state and the
  // second write would drop the first's change (two MCP approvals answered in a row did).
  const path = userStatePath(env);
  const previous = pendingUpdates.get(path) ?? Promise.resolve();
  const update = previous.then(() => readModifyWrite(path, mutate));
  const settled = update.then(
    () => {},
    () => {},
  );
  pendingUpdates.set(path, settled);
  void settled.then(() => {
    if (pendingUpdates.get(path) === settled) pendingUpdates.delete(path);
  });
  return update;
}

/** The latest queued update of each state file: a lock on the file for this process, not session state. */
const pendingUpdates = new Map<string, Promise<void>>();

async function readModifyWrite(
  path: string,
  mutate: (state: UserState) => void,
): Promise<{ problem?: string }> {
  const file = await readJsonObjectFile(path);
  let problem: string | undefined;
  let state: UserState = {};
  if (file.kind === 'object') state = file.json;
  if (file.kind === 'invalid') {
    const aside = `${path}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    await rename(path, aside);
    problem = `${path}: ${file.problem}; kept it as ${aside} and started a new one`;
  }
  mutate(state);
  await writeFileAtomic(path, Buffer.from(`${JSON.stringify(state, null, 2)}\n`), { mode: 0o600 });
  return problem === undefined ? {} : { problem };
}

/** `projects[path]` for writing: created when absent, replaced when it is not an object. */
export function projectEntry(state: UserState, path: string): ProjectState {
  if (!isJsonObject(state.projects)) {
    // A `projects` value of the wrong shape cannot hold entries; it is kept under another key.
    if (state.projects !== undefined) state.projectsUnreadable = state.projects;
    state.projects = {};
  }
  const projects = state.projects as Record<string, unknown>;
  const entry = projects[path];
  if (isJsonObject(entry)) return entry as ProjectState;
  projects[path] = {};
  return projects[path] as ProjectState;
}
