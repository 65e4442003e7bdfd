/**
 * When the REPL's bundles save their code cache: fake occasions for the order of things, and real
 * processes for the signals (a save at the first one; the default action of the signal kept).
 */
import { spawn } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bundleChildScript, type ChildScript } from '../testing/child-script';
import {
  checkpointDue,
  holdBundleCachesForStartup,
  type Occasions,
  saveBundleCachesAtOnce,
  saveBundleCachesLate,
  scheduleCodeCacheSave,
} from './bundle-cache-timing';

function occasions() {
  const listeners = {
    exit: [] as (() => void)[],
    flagsChange: [] as (() => void)[],
    signal: [] as (() => void)[],
    checks: [] as ((workMs: number, utilization: number) => void)[],
    stopped: 0,
  };
  const on: Occasions = {
    exit: (l) => listeners.exit.push(l),
    flagsChange: (l) => listeners.flagsChange.push(l),
    signal: (l) => listeners.signal.push(l),
    periodically: (check) => {
      listeners.checks.push(check);
      return () => {
        listeners.stopped++;
      };
    },
  };
  const fire = (kind: 'exit' | 'flagsChange' | 'signal') => {
    for (const listener of listeners[kind]) listener();
  };
  const check = (workMs: number, utilization: number) => {
    for (const listener of listeners.checks) listener(workMs, utilization);
  };
  return { listeners, on, fire, check };
}

afterEach(saveBundleCachesAtOnce);

describe('when a bundle saves its code cache', () => {
  it('at once in a short run', () => {
    const save = vi.fn();
    scheduleCodeCacheSave(save);
    expect(save).toHaveBeenCalledTimes(1);
  });

  it('in a -p run, with the app at its first reply: what loaded before then waits, what loads after does not', () => {
    const saveEngine = vi.fn();
    const release = holdBundleCachesForStartup(() => {});
    scheduleCodeCacheSave(saveEngine);
    expect(saveEngine).not.toHaveBeenCalled();
    release();
    expect(saveEngine).toHaveBeenCalledTimes(1);
    const saveLater = vi.fn();
    scheduleCodeCacheSave(saveLater);
    expect(saveLater).toHaveBeenCalledTimes(1);
    release();
    expect(saveEngine).toHaveBeenCalledTimes(1);
  });

  it('in a -p run, before V8 flags change, if that comes before the first reply', () => {
    let flagsChange = () => {};
    const release = holdBundleCachesForStartup((listener) => {
      flagsChange = listener;
    });
    const save = vi.fn();
    scheduleCodeCacheSave(save);
    flagsChange();
    expect(save).toHaveBeenCalledTimes(1);
    release();
    expect(save).toHaveBeenCalledTimes(1);
  });

  it.each(['exit', 'flagsChange', 'signal'] as const)(
    'in the REPL, once, at the first occasion: %s',
    (first) => {
      const { on, fire } = occasions();
      saveBundleCachesLate(on);
      const save = vi.fn();
      scheduleCodeCacheSave(save);
      expect(save).not.toHaveBeenCalled();
      fire(first);
      for (const kind of ['flagsChange', 'signal', 'exit'] as const) fire(kind);
      expect(save).toHaveBeenCalledTimes(1);
    },
  );

  it('at a quiet moment after half a second of work, before any exit; a bundle loaded later at exit', () => {
    const { on, fire, check, listeners } = occasions();
    saveBundleCachesLate(on);
    const interactive = vi.fn();
    scheduleCodeCacheSave(interactive);
    check(200, 0.0001); // just started: too little has run to be worth a cache
    check(700, 0.03); // streaming an answer, the spinner turning: busy
    expect(interactive).not.toHaveBeenCalled();
    check(701, 0.0001); // quiet at the prompt after the answer
    expect(interactive).toHaveBeenCalledTimes(1);
    expect(listeners.stopped).toBe(1);

    const mcp = vi.fn();
    scheduleCodeCacheSave(mcp);
    fire('exit');
    expect(mcp).toHaveBeenCalledTimes(1);
    expect(interactive).toHaveBeenCalledTimes(1);
  });

  it('is due after half a second of work and a quiet interval, not before', () => {
    expect(checkpointDue(499, 0)).toBe(false);
    expect(checkpointDue(500, 0.0049)).toBe(true);
    expect(checkpointDue(5_000, 0.005)).toBe(false);
  });
});

/**
 * A REPL-like child: its bundle's save writes "saved"; `own` adds a SIGTERM clean-up of its own
 * that takes long (as the REPL's can), `alone` leaves the signal to the cache timing only.
 */
const CHILD_SOURCE = `
import { writeSync } from 'node:fs';
import { saveBundleCachesLate, scheduleCodeCacheSave } from './bundle-cache-timing';
import { bundleChildScript, type ChildScript } from '../testing/child-script';

saveBundleCachesLate();
scheduleCodeCacheSave(() => writeSync(1, 'saved\\n'));
if (process.argv[2] === 'own') {
  process.once('SIGTERM', () => {
    writeSync(1, 'cleaning up\\n');
    setTimeout(() => writeSync(1, 'clean-up done\\n'), 60_000);
  });
}
setInterval(() => {}, 60_000);
writeSync(1, 'ready\\n');
`;

let child: ChildScript | undefined;
beforeAll(async () => {
  child = await bundleChildScript(CHILD_SOURCE, import.meta.dirname);
});
afterAll(() => child?.remove());

/** Runs the child, sends SIGTERM at each line in `sendAt`, resolves to its output and how it ended. */
function runChild(mode: 'own' | 'alone', sendAt: string[]): Promise<{ out: string; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const running = spawn(process.execPath, [child?.path ?? '', mode], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    running.stdout.on('data', (chunk: Buffer) => {
      const before = out;
      out += chunk.toString();
      for (const line of sendAt)
        if (!before.includes(`${line}\n`) && out.includes(`${line}\n`)) running.kill('SIGTERM');
    });
    running.on('error', reject);
    // 'close', not 'exit': Node may report the exit before the last lines are read.
    running.on('close', (_code, signal) => resolve({ out, signal }));
  });
}

describe('a REPL ended by signals, in a real process', () => {
  it('saves at the first SIGTERM, before its clean-up; a second SIGTERM still ends it at once', async () => {
    // The second signal comes while the clean-up runs: the default action ends the process
    // without an exit event, which is where the save used to be.
    const { out, signal } = await runChild('own', ['ready', 'cleaning up']);
    expect(out).toBe('ready\nsaved\ncleaning up\n');
    expect(signal).toBe('SIGTERM');
  });

  it('keeps the default action when nothing else listens: saved, then ended by the signal', async () => {
    const { out, signal } = await runChild('alone', ['ready']);
    expect(out).toBe('ready\nsaved\n');
    expect(signal).toBe('SIGTERM');
  });
});
