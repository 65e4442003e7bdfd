import { describe, expect, it } from 'vitest';
import { growingHooks } from './growing-runner';
import { type HookRunner, noopHooks } from './types';

/** A runner with an optional method, recording the prompts it was asked about. */
function recordingRunner(seen: string[]): HookRunner {
  return {
    ...noopHooks,
    userPromptSubmit: async ({ prompt }) => {
      seen.push(prompt);
      return {};
    },
    worktreeCreate: async () => ({ handled: true, path: '/made/by/hook' }),
  };
}

describe('growingHooks', () => {
  it('stands for the no-op runner until it grows, then for the real one; optional methods appear with it', async () => {
    const seen: string[] = [];
    const slot = growingHooks(noopHooks, false);
    const held = slot.runner;
    await held.userPromptSubmit({ prompt: 'before' }, new AbortController().signal);
    expect(held.worktreeCreate).toBeUndefined();
    expect(slot.grown).toBe(false);

    await slot.grow(async () => recordingRunner(seen));
    await held.userPromptSubmit({ prompt: 'after' }, new AbortController().signal);
    expect(seen).toEqual(['after']);
    expect(typeof held.worktreeCreate).toBe('function');
    // Grown once: a later grow keeps the first runner.
    await slot.grow(async () => recordingRunner([]));
    await held.userPromptSubmit({ prompt: 'later' }, new AbortController().signal);
    expect(seen).toEqual(['after', 'later']);
  });

  it('a runner that failed to load is tried again at the next grow', async () => {
    const slot = growingHooks(noopHooks, false);
    await expect(slot.grow(async () => Promise.reject(new Error('no module')))).rejects.toThrow('no module');
    expect(slot.grown).toBe(false);
    await slot.grow(async () => recordingRunner([]));
    expect(slot.grown).toBe(true);
  });

  it('a session that started with hooks never swaps its runner', async () => {
    const seen: string[] = [];
    const slot = growingHooks(recordingRunner(seen), true);
    await slot.grow(async () => noopHooks);
    await slot.runner.userPromptSubmit({ prompt: 'kept' }, new AbortController().signal);
    expect(seen).toEqual(['kept']);
  });
});
