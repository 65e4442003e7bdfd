import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callTool, makeTestContext, resultText } from '../shared/test-context';
import { type BashOutput, bashTool } from './index';
import {
  type BackgroundShellInfo,
  getBackgroundShell,
  killAllShells,
  listBackgroundShells,
  readNewOutput,
  startBackgroundShell,
  waitForShell,
} from './shells';
import { isAlive, waitFor } from './test-helpers';

const pidFrom = (path: string) => Number(readFileSync(path, 'utf8').trim());
const pidFileReady = (path: string) => existsSync(path) && readFileSync(path, 'utf8').endsWith('\n');

describe('background shells', () => {
  it('starts from the Bash tool, returns at once with an id and writes output to the session folder', async () => {
    const context = makeTestContext({ sessionId: 'bg-start' });
    const result = await callTool<BashOutput>(
      bashTool,
      { command: 'echo one; echo two >&2', run_in_background: true, description: 'Print two lines' },
      context,
    );
    expect(result.data.backgroundTaskId).toBe('bash_1');
    const logPath = join(context.sessionDir, 'shells', 'bash_1.log');
    expect(resultText(bashTool, result)).toContain(logPath);
    expect(await waitForShell('bg-start', 'bash_1', 10_000, new AbortController().signal)).toBe(true);
    expect(readFileSync(logPath, 'utf8')).toBe('one\ntwo\n');
    expect(getBackgroundShell('bg-start', 'bash_1')).toMatchObject({
      status: 'completed',
      exitCode: 0,
      description: 'Print two lines',
    });
    await killAllShells('bg-start');
  });

  it('numbers shells per session and records failures and exit codes', async () => {
    const context = makeTestContext();
    const base = { sessionDir: context.sessionDir, cwd: context.cwd, env: context.env };
    startBackgroundShell({ ...base, sessionId: 'bg-numbers', command: 'exit 4' });
    const second = startBackgroundShell({ ...base, sessionId: 'bg-numbers', command: 'true' });
    const other = startBackgroundShell({ ...base, sessionId: 'bg-numbers-other', command: 'true' });
    expect([second.id, other.id]).toEqual(['bash_2', 'bash_1']);
    const signal = new AbortController().signal;
    await waitForShell('bg-numbers', 'bash_1', 10_000, signal);
    expect(getBackgroundShell('bg-numbers', 'bash_1')).toMatchObject({ status: 'failed', exitCode: 4 });
    expect(listBackgroundShells('bg-numbers').map((s) => s.id)).toEqual(['bash_1', 'bash_2']);
    await killAllShells('bg-numbers');
    await killAllShells('bg-numbers-other');
  });

  it('returns only new output on each read', async () => {
    const context = makeTestContext();
    const go = join(context.cwd, 'go');
    const shell = startBackgroundShell({
      sessionId: 'bg-read',
      sessionDir: context.sessionDir,
      cwd: context.cwd,
      env: context.env,
      command: `echo first; while [ ! -f ${go} ]; do sleep 0.02; done; echo second`,
    });
    await waitFor(() => readFileSync(shell.outputPath, 'utf8') !== '', 'the first line');
    expect(await readNewOutput('bg-read', shell.id)).toBe('first\n');
    expect(await readNewOutput('bg-read', shell.id)).toBe('');
    writeFileSync(go, ''); // lets the shell go on to its second line
    await waitForShell('bg-read', shell.id, 10_000, new AbortController().signal);
    expect(await readNewOutput('bg-read', shell.id)).toBe('second\n');
    await killAllShells('bg-read');
  });

  it('gives up waiting on timeout or abort without killing the shell', async () => {
    const context = makeTestContext();
    const shell = startBackgroundShell({
      sessionId: 'bg-wait',
      sessionDir: context.sessionDir,
      cwd: context.cwd,
      env: context.env,
      command: 'sleep 100',
    });
    expect(await waitForShell('bg-wait', shell.id, 50, new AbortController().signal)).toBe(false);
    const controller = new AbortController();
    const waiting = waitForShell('bg-wait', shell.id, 60_000, controller.signal);
    controller.abort();
    expect(await waiting).toBe(false);
    expect(getBackgroundShell('bg-wait', shell.id)?.status).toBe('running');
    await killAllShells('bg-wait');
  });

  it('kills a shell whose timeout runs out', async () => {
    const context = makeTestContext();
    const ended: BackgroundShellInfo[] = [];
    const shell = startBackgroundShell({
      sessionId: 'bg-timeout',
      sessionDir: context.sessionDir,
      cwd: context.cwd,
      env: context.env,
      command: 'sleep 100',
      timeoutMs: 100,
      onExit: (info) => ended.push(info),
    });
    await waitForShell('bg-timeout', shell.id, 10_000, new AbortController().signal);
    expect(getBackgroundShell('bg-timeout', shell.id)).toMatchObject({ status: 'killed', timedOut: true });
    expect(ended.map((info) => info.status)).toEqual(['killed']);
    await killAllShells('bg-timeout');
  });

  it('killAllShells ends every shell of the session with its process group', async () => {
    const context = makeTestContext();
    const pidFiles = [join(context.cwd, 'a.pid'), join(context.cwd, 'b.pid')];
    for (const pidFile of pidFiles) {
      startBackgroundShell({
        sessionId: 'bg-kill-all',
        sessionDir: context.sessionDir,
        cwd: context.cwd,
        env: context.env,
        command: `sleep 100 & echo $! > ${pidFile}; sleep 100`,
      });
    }
    for (const pidFile of pidFiles) await waitFor(() => pidFileReady(pidFile), pidFile);
    const shells = listBackgroundShells('bg-kill-all');
    await killAllShells('bg-kill-all');
    for (const pid of [...pidFiles.map(pidFrom), ...shells.map((s) => s.pid as number)]) {
      await waitFor(() => !isAlive(pid), `process ${pid} to die`);
    }
    expect(listBackgroundShells('bg-kill-all')).toEqual([]);
  });
});
