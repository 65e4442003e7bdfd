/**
 * Notices about a model that are worth saying once, not on every run: the user state file keeps
 * the ids already told about (`unknownModelsWarned`: id → when).
 */
import type { Env } from './paths';
import { readStateKey, updateStateKey } from './user-state-key';

const KEY = 'unknownModelsWarned';

type Record_ = Record<string, unknown>;
const asRecord = (value: unknown): Record_ =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...(value as Record_) } : {};

/**
 * The ids among `ids` not told about yet, now recorded as told. When the state file cannot be
 * used every id counts as new (better said twice than never) and `problem` says why.
 */
export async function takeFirstNotices(
  env: Env,
  ids: readonly string[],
  now: () => Date = () => new Date(),
): Promise<{ fresh: string[]; problem?: string }> {
  if (ids.length === 0) return { fresh: [] };
  try {
    const told = asRecord(await readStateKey(env, KEY));
    const fresh = [...new Set(ids)].filter((id) => !(id in told));
    if (fresh.length === 0) return { fresh };
    await updateStateKey(env, KEY, (current) => {
      const record = asRecord(current);
      for (const id of fresh) record[id] = now().toISOString();
      return record;
    });
    return { fresh };
  } catch (error) {
    return {
      fresh: [...new Set(ids)],
      problem: `cannot remember model warnings: ${(error as Error).message}`,
    };
  }
}
