/**
 * A session without hooks runs without a hook runner (`noopHooks`: the runner's module is never
 * loaded). A plugin reload can bring the first hooks into such a session; the engine, the
 * permission pipeline and the agents all hold the session's runner, so the runner they hold
 * stands for whichever is current: `noopHooks` until `grow` swaps in a real one.
 *
 * It forwards property reads rather than wrapping each method because a runner's optional
 * methods (`forAgent`, `worktreeCreate`, …) mean something by being absent: a no-op runner has
 * none, and callers then take their hook-free path.
 */
import type { HookRunner } from './types';

export type GrowingHooks = {
  /** The runner to hand out; it reads through to the current one at every call. */
  runner: HookRunner;
  /** Whether a real runner is in place (a session that started with hooks has one from the start). */
  readonly grown: boolean;
  /** Puts `make()`'s runner in place once; later calls keep the first. */
  grow(make: () => Promise<HookRunner>): Promise<void>;
};

export function growingHooks(initial: HookRunner, hasHooks: boolean): GrowingHooks {
  let current = initial;
  let grown = hasHooks;
  let growing: Promise<void> | undefined;
  return {
    runner: followingRunner(() => current),
    get grown() {
      return grown;
    },
    grow(make) {
      if (grown) return Promise.resolve();
      growing ??= make().then(
        (made) => {
          current = made;
          grown = true;
        },
        (error: unknown) => {
          // Not grown: the next reload tries again.
          growing = undefined;
          throw error;
        },
      );
      return growing;
    },
  };
}

/** A runner that is, at every read, whichever runner `current()` returns then. */
export function followingRunner(current: () => HookRunner): HookRunner {
  return new Proxy({} as HookRunner, {
    get(_, key) {
      const now = current();
      const value = Reflect.get(now, key);
      return typeof value === 'function' ? value.bind(now) : value;
    },
    has: (_, key) => Reflect.has(current(), key),
  });
}
