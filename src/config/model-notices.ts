/**
 * Notices about a model that are worth saying once, not on every run: the user state file keeps
 * the ids already told about (`unknownModelsWarned`: id → when; `servedModelsNoted` for the model
 * a server's list chose, keyed by model and server).
 */
import { isJsonObject, type JsonObject } from '../lib/json-object';
import type { Env } from './paths';
import { readUserState, type UserState, updateUserState } from './user-state';

export type NoticeKind = 'unknownModelsWarned' | 'servedModelsNoted';

const toldIn = (state: UserState, kind: NoticeKind): JsonObject => {
  const value = state[kind];
  return isJsonObject(value) ? { ...value } : {};
};

/**
 * The ids among `ids` not told about yet, now recorded as told. When the state file cannot be
 * read every id counts as new (better said twice than never) and `problem` says why; the next
 * update keeps the unreadable file aside (user-state.ts) and starts a new one.
 */
export async function takeFirstNotices(
  env: Env,
  ids: readonly string[],
  now: () => Date = () => new Date(),
  kind: NoticeKind = 'unknownModelsWarned',
): Promise<{ fresh: string[]; problem?: string }> {
  if (ids.length === 0) return { fresh: [] };
  try {
    const read = await readUserState(env);
    const told = toldIn(read.state, kind);
    const fresh = [...new Set(ids)].filter((id) => !(id in told));
    if (fresh.length === 0) return { fresh };
    const update = await updateUserState(env, (state) => {
      const record = toldIn(state, kind);
      for (const id of fresh) record[id] = now().toISOString();
      state[kind] = record;
    });
    const problem = read.problem ?? update.problem;
    return problem === undefined ? { fresh } : { fresh, problem: `model warnings: ${problem}` };
  } catch (error) {
    return {
      fresh: [...new Set(ids)],
      problem: `cannot remember model warnings: ${(error as Error).message}`,
    };
  }
}
