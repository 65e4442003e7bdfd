/**
 * Where `yoke mcp add` and `remove` write: the user scope (`mcpServers` in Yoke's user state),
 * the local scope (this folder's entry there) and the project scope (`.mcp.json`, meant to be
 * committed). Every write keeps the rest of the file as it was and is atomic; a `.mcp.json` that
 * is not valid JSON is refused rather than overwritten, so nothing the user wrote is lost.
 */
import { writeFileAtomic } from '../config/atomic-write';
import { readJsonObjectFile } from '../config/json-file';
import { projectEntry, projectsOf, readUserState, updateUserState } from '../config/user-state';
import { isJsonObject, type JsonObject } from '../lib/json-object';
import { projectConfigPath } from './config-sources';

type Env = Readonly<Record<string, string | undefined>>;

export type WritableScope = 'local' | 'project' | 'user';
export const WRITABLE_SCOPES: readonly WritableScope[] = ['local', 'project', 'user'];

/** The entries of each scope as written (not checked), for `get`, `remove` and clash checks. */
export async function readScopes(env: Env, cwd: string): Promise<Record<WritableScope, JsonObject>> {
  const { state } = await readUserState(env);
  const project = await readJsonObjectFile(projectConfigPath(cwd));
  const map = (value: unknown): JsonObject => (isJsonObject(value) ? value : {});
  return {
    user: map(state.mcpServers),
    local: map(projectsOf(state)[cwd]?.mcpServers),
    project: project.kind === 'object' ? map(project.json.mcpServers) : {},
  };
}

/** Sets (`entry`) or deletes (`undefined`) one server in one scope. */
export async function writeServer(
  env: Env,
  cwd: string,
  scope: WritableScope,
  name: string,
  entry: JsonObject | undefined,
): Promise<void> {
  const edit = (holder: JsonObject) => {
    const servers = isJsonObject(holder.mcpServers) ? holder.mcpServers : {};
    if (entry === undefined) delete servers[name];
    else servers[name] = entry;
    holder.mcpServers = servers;
  };
  if (scope === 'user') {
    await updateUserState(env, edit);
    return;
  }
  if (scope === 'local') {
    await updateUserState(env, (state) => edit(projectEntry(state, cwd)));
    return;
  }
  const path = projectConfigPath(cwd);
  const file = await readJsonObjectFile(path);
  if (file.kind === 'invalid')
    throw new Error(`${path}: ${file.problem}; fix it by hand first, nothing was changed`);
  const json = file.kind === 'object' ? file.json : {};
  edit(json);
  await writeFileAtomic(path, Buffer.from(`${JSON.stringify(json, null, 2)}\n`));
}
