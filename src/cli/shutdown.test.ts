import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { exitCodeForSignal, Shutdown } from './shutdown';
import type { StdStream } from './std-streams';

/** A stand-in for `process`: signals are emitted by the test, exits are recorded. */
function fakeProcess() {
  const emitter = new EventEmitter();
  const exits: number[] = [];
  const target = {
    on: (event: string, listener: (...args: unknown[]) => void) => emitter.on(event, listener),
    off: (event: string, listener: (...args: unknown[]) => void) => emitter.off(event, listener),
    exit: (code?: number) => {
      exits.push(code ?? 0);
    },
  } as unknown as Pick<NodeJS.Process, 'on' | 'off' | 'exit'>;
  return { emitter, exits, target };
}

afterEach(() => vi.useRealTimers());

describe('Shutdown', () => {
  it('maps each reason to 128 + its signal number', () => {
    expect(exitCodeForSignal('SIGINT')).toBe(130);
    expect(exitCodeForSignal('SIGTERM')).toBe(143);
    expect(exitCodeForSignal('SIGHUP')).toBe(129);
    expect(exitCodeForSignal('SIGPIPE')).toBe(141);
  });

  it('aborts at the first signal and keeps the run going; a second one exits at once', () => {
    const { emitter, exits, target } = fakeProcess();
    const shutdown = new Shutdown({ target });
    expect(shutdown.exitCode(0)).toBe(0);
    emitter.emit('SIGTERM', 'SIGTERM');
    expect(shutdown.signal.aborted).toBe(true);
    expect(shutdown.reason).toBe('SIGTERM');
    expect(shutdown.exitCode(0)).toBe(143);
    expect(exits).toEqual([]);
    emitter.emit('SIGINT', 'SIGINT');
    // The first signal decides the code.
    expect(exits).toEqual([143]);
    shutdown.dispose();
  });

  it('exits when the clean-up outlasts the deadline', () => {
    vi.useFakeTimers();
    const { emitter, exits, target } = fakeProcess();
    const shutdown = new Shutdown({ target, deadlineMs: 3000 });
    emitter.emit('SIGHUP', 'SIGHUP');
    vi.advanceTimersByTime(2999);
    expect(exits).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(exits).toEqual([129]);
    shutdown.dispose();
  });

  it('ends the run as SIGPIPE when stdout closes, without forcing on later pipe errors', () => {
    const { exits, target } = fakeProcess();
    let closed: (() => void) | undefined;
    const output = {
      onClosed: (listener: () => void) => {
        closed = listener;
        return () => {};
      },
    } as unknown as StdStream;
    const shutdown = new Shutdown({ target, outputs: [output] });
    closed?.();
    expect(shutdown.reason).toBe('SIGPIPE');
    expect(shutdown.exitCode(0)).toBe(141);
    shutdown.trigger('SIGPIPE');
    expect(exits).toEqual([]);
    shutdown.dispose();
  });

  it('stops listening once disposed', () => {
    const { emitter, target } = fakeProcess();
    const shutdown = new Shutdown({ target });
    expect(emitter.listenerCount('SIGINT')).toBe(1);
    shutdown.dispose();
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) expect(emitter.listenerCount(signal)).toBe(0);
  });
});
