/**
 * Notices about a model that are worth saying once, not on every run: the user state file keeps
 * the ids already told about (`unknownModelsWarned`: id → when).
 */
import { isJsonObject, type JsonObject } from '../lib/json-object';
import type { Env } from './paths';
import { readUserState, type UserState, updateUserState } from './user-state';

const KEY = 'unknownModelsWarned';

const toldIn = (state: UserState): JsonObject => {
  const value = state[KEY];
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
): Promise<{ fresh: string[]; problem?: string }> {
  if (ids.length === 0) return { fresh: [] };
  try {
    const read = await readUserState(env);
    const told = toldIn(read.state);
    const fresh = [...new Set(ids)].filter((id) => !(id in told));
    if (fresh.length === 0) return { fresh };
    const update = await updateUserState(env, (state) => {
      const record = toldIn(state);
      for (const id of fresh) record[id] = now().toISOString();
      state[KEY] = record;
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
