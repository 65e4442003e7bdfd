import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveBundleCachesAtOnce, saveBundleCachesLate, scheduleCodeCacheSave } from './bundle-cache-timing';

function occasions() {
  const listeners = { exit: [] as (() => void)[], flagsChange: [] as (() => void)[] };
  return {
    listeners,
    on: {
      exit: (l: () => void) => listeners.exit.push(l),
      flagsChange: (l: () => void) => listeners.flagsChange.push(l),
    },
  };
}

afterEach(saveBundleCachesAtOnce);

describe('when a bundle saves its code cache', () => {
  it('at once in a short run', () => {
    const save = vi.fn();
    const { on, listeners } = occasions();
    scheduleCodeCacheSave(save, on);
    expect(save).toHaveBeenCalledTimes(1);
    expect(listeners.exit).toHaveLength(0);
  });

  it('in the REPL, once: before a V8 flag change or at exit, whichever comes first', () => {
    saveBundleCachesLate();
    const save = vi.fn();
    const { on, listeners } = occasions();
    scheduleCodeCacheSave(save, on);
    expect(save).not.toHaveBeenCalled();
    for (const listener of listeners.flagsChange) listener();
    for (const listener of listeners.exit) listener();
    expect(save).toHaveBeenCalledTimes(1);
  });
});
