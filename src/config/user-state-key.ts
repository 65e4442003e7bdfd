/**
 * One key of Yoke's user state file, `$YOKE_HOME/state.json`: what Yoke remembers between runs
 * that is not a setting (which unknown models it has warned about, …). Each caller owns one
 * top-level key and changes only that one: the file is read fresh, the key replaced, and the
 * whole written back atomically (edit-settings.ts), so the other keys survive untouched.
 *
 * A state file that is not a JSON object is never overwritten — that would lose what it holds;
 * the caller gets the error saying so and goes on without remembering.
 */
import { join } from 'node:path';
import { editSettingsFile, readJsonObject } from './edit-settings';
import { type Env, yokeHome } from './paths';

export function userStatePath(env: Env): string {
  return join(yokeHome(env), 'state.json');
}

/** The value of `key`, or undefined when the file or the key is missing. */
export async function readStateKey(env: Env, key: string): Promise<unknown> {
  return (await readJsonObject(userStatePath(env)))[key];
}

/** Replaces `key` with `update(current value)`; the other keys are written back as they were read. */
export async function updateStateKey<T>(env: Env, key: string, update: (current: unknown) => T): Promise<T> {
  let next: T | undefined;
  // The state may name projects and models the user works with: readable by the user alone.
  await editSettingsFile(
    userStatePath(env),
    (state) => {
      next = update(state[key]);
      return { ...state, [key]: next };
    },
    { mode: 0o600 },
  );
  return next as T;
}
