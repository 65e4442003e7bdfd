/**
 * Ending a run from outside, with real processes: the built CLI runs a Bash tool call whose
 * `sleep` children (and a background shell) carry a unique marker in their command line, the test
 * signals Yoke, and then no process with the marker may be left — neither in Yoke's process group
 * nor re-parented to PID 1 — while the transcript holds the interrupted turn and the exit code
 * says which signal ended it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { transcriptPath } from '../../src/session/transcript-paths';
import { mockEnv, type RunningYoke, runYoke, startYoke, tempProject } from './helpers';
import { useWorkspace } from './workspace';

const ws = useWorkspace();

/** What each test started, so a failing test leaves nothing running behind it. */
const startedRuns: RunningYoke[] = [];
const usedMarkers: string[] = [];

/** A `sleep` duration no other process uses: it shows up in /proc/<pid>/cmdline. */
function marker(): string {
  const value = `${700 + Math.floor(Math.random() * 200)}.${Date.now() % 1_000_000}${Math.floor(Math.random() * 1000)}`;
  usedMarkers.push(value);
  return value;
}

afterEach(() => {
  for (const run of startedRuns.splice(0)) {
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
  }
  for (const m of usedMarkers.splice(0)) {
    for (const entry of processesWith(m)) {
      try {
        process.kill(Number(entry.split(':')[0]), 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
});

/** The live processes whose command line holds `text` (a zombie's command line is empty). */
function processesWith(text: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmdline.includes(text)) found.push(`${pid}: ${cmdline}`);
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}

/** Polls until `condition` holds (for things the test cannot be told about: a file, a process). */
async function waitUntil(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A killed process leaves /proc once the kernel has torn it down, a moment after the SIGKILL;
 * a survivor never does. So: wait for them to go, and report any that stay.
 */
async function expectNoSurvivors(markers: string[]): Promise<void> {
  await waitUntil(
    () => markers.every((m) => processesWith(m).length === 0),
    'the marked processes to end',
    5_000,
  ).catch(() => undefined);
  expect(markers.flatMap(processesWith)).toEqual([]);
}

function resultFrame(stdout: string): Record<string, unknown> | undefined {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .find((frame) => frame.type === 'result');
}

function sessionIdOf(stdout: string): string {
  return (JSON.parse(stdout.split('\n')[0] as string) as { session_id: string }).session_id;
}

const bash = (command: string, extra: Record<string, unknown> = {}) => ({
  type: 'tool_use' as const,
  name: 'Bash',
  input: { command, ...extra },
});

function track(run: RunningYoke): RunningYoke {
  startedRuns.push(run);
  return run;
}

async function startRun(args: string[], cwd: string): Promise<RunningYoke> {
  return track(
    startYoke(['-p', ...args, '--allowedTools', 'Bash'], { cwd, env: mockEnv(ws.server.url, ws.home) }),
  );
}

describe('shutting down on a signal', () => {
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    it(`${signal} kills the running command's tree and the background shells, keeps the turn, exits ${code}`, async () => {
      const cwd = await tempProject();
      const [background, job, foreground] = [marker(), marker(), marker()];
      const ready = join(cwd, 'ready');
      ws.server.reset([
        { reply: { content: [bash(`sleep ${background}`, { run_in_background: true })] } },
        { reply: { content: [bash(`sleep ${job} & touch ${ready}; sleep ${foreground}`)] } },
      ]);
      const run = await startRun(['start things', '--output-format', 'stream-json', '--verbose'], cwd);
      run.child.stdin.end();
      await waitUntil(() => existsSync(ready), 'the command to start');
      for (const m of [background, job, foreground]) expect(processesWith(m).length).toBeGreaterThan(0);

      run.child.kill(signal);
      expect((await run.exited).code).toBe(code);
      await expectNoSurvivors([background, job, foreground]);

      const result = resultFrame(run.stdout());
      expect(result).toMatchObject({ is_error: true, terminal_reason: 'aborted_tools' });
      // The transcript holds the interrupted tool call and its answer.
      const transcript = readFileSync(
        transcriptPath({ YOKE_HOME: ws.home }, cwd, sessionIdOf(run.stdout())),
        'utf8',
      );
      expect(transcript).toContain(`sleep ${foreground}`);
      expect(transcript).toContain('interrupted');
      expect(run.stderr()).not.toMatch(/\n\s+at /);
    });
  }

  it('SIGINT exits 130 and prints the text the model had written', async () => {
    const cwd = await tempProject();
    const sleeper = marker();
    const ready = join(cwd, 'ready');
    ws.server.reset([
      {
        reply: {
          content: [
            { type: 'text', text: 'Checking the build first.' },
            bash(`touch ${ready}; sleep ${sleeper}`),
          ],
        },
      },
    ]);
    const run = await startRun(['build it'], cwd);
    run.child.stdin.end();
    await waitUntil(() => existsSync(ready), 'the command to start');
    run.child.kill('SIGINT');
    expect((await run.exited).code).toBe(130);
    expect(run.stdout()).toBe('Checking the build first.\n');
    expect(run.stderr()).toContain('interrupted');
    await expectNoSurvivors([sleeper]);
  });

  it('as the Agent SDK aborts: stdin ends (the turn goes on), then SIGTERM', async () => {
    const cwd = await tempProject();
    const [first, second] = [marker(), marker()];
    const go = join(cwd, 'go');
    const ready = join(cwd, 'ready');
    ws.server.reset([
      // The first command waits for the test; the turn then continues after stdin has ended.
      { reply: { content: [bash(`sleep ${first} & while [ ! -f ${go} ]; do sleep 0.02; done`)] } },
      { reply: { content: [bash(`touch ${ready}; sleep ${second}`)] } },
    ]);
    const args = ['--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'];
    const run = await startRun(args, cwd);
    run.child.stdin.write(
      `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'run it' }, parent_tool_use_id: null })}\n`,
    );
    await waitUntil(() => processesWith(first).length > 0, 'the first command');
    run.child.stdin.end();
    // The end of stdin is not an abort: the queued turn goes on to its next model call and command.
    writeFileSync(go, '');
    await waitUntil(() => existsSync(ready), 'the second command, after stdin ended');
    expect(ws.server.requests).toHaveLength(2);

    run.child.kill('SIGTERM');
    expect((await run.exited).code).toBe(143);
    await expectNoSurvivors([first, second]);
    expect(resultFrame(run.stdout())).toMatchObject({ terminal_reason: 'aborted_tools' });
  });
});

describe('the end of a run', () => {
  it('ends the jobs a finished command left running in its group', async () => {
    const cwd = await tempProject();
    const job = marker();
    ws.server.reset([
      { reply: { content: [bash(`sleep ${job} & echo started`)] } },
      { match: { lastToolResultContains: 'started' }, reply: { content: [{ type: 'text', text: 'done' }] } },
    ]);
    const run = await startRun(['start a job'], cwd);
    run.child.stdin.end();
    const { code } = await run.exited;
    expect(run.stdout()).toBe('done\n');
    expect(code).toBe(0);
    await expectNoSurvivors([job]);
  });
});

describe('a reader that goes away', () => {
  it('ends the run quietly when stdout is closed mid-run', async () => {
    const cwd = await tempProject();
    const sleeper = marker();
    const go = join(cwd, 'go');
    ws.server.reset([
      { reply: { content: [bash(`while [ ! -f ${go} ]; do sleep 0.02; done`)] } },
      { reply: { content: [bash(`sleep ${sleeper}`)] } },
    ]);
    const run = await startRun(['go', '--output-format', 'stream-json', '--verbose'], cwd);
    run.child.stdin.end();
    await waitUntil(() => run.stdout().includes('"tool_use"'), 'the tool call frame');
    // As `| head -1` does once it has its line: the read end of the pipe closes.
    run.child.stdout.destroy();
    writeFileSync(go, '');
    const { code } = await run.exited;
    expect(run.stderr()).toBe('');
    expect(code).toBe(141);
    await expectNoSurvivors([sleeper]);
  });
});

describe("a killed process's leftovers", () => {
  it('removes the temp file of an atomic write that a kill cut off, on the next start', async () => {
    const cwd = await tempProject();
    const runHome = await tempProject('yoke-home-');
    // What a SIGKILL mid-write leaves: the temp file beside its target and its journal entry.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
    const temp = join(cwd, '.app.ts.yoke-0a1b2c3d4e5f.tmp');
    writeFileSync(join(cwd, 'app.ts'), 'original');
    writeFileSync(temp, 'half written');
    const journal = join(runHome, 'pending-writes');
    mkdirSync(journal);
    writeFileSync(join(journal, `${hostname().replace(/[^A-Za-z0-9-]/g, '_')}.${dead}.0123456789ab`), temp);

    ws.server.reset([{ reply: { content: [{ type: 'text', text: 'hello' }] } }]);
    const { code } = await runYoke(['-p', 'hi'], { cwd, env: mockEnv(ws.server.url, runHome) });
    expect(code).toBe(0);
    expect(readdirSync(cwd)).toEqual(['app.ts']);
    expect(readFileSync(join(cwd, 'app.ts'), 'utf8')).toBe('original');
    expect(readdirSync(journal)).toEqual([]);
  });
});
