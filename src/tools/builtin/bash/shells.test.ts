import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callTool, makeTestContext, resultText } from '../shared/test-context';
import { type BashOutput, bashTool } from './index';
import { type BackgroundShellInfo, BackgroundShells } from './shells';
import { isAlive, waitFor } from './test-helpers';

const pidFrom = (path: string) => Number(readFileSync(path, 'utf8').trim());
const pidFileReady = (path: string) => existsSync(path) && readFileSync(path, 'utf8').endsWith('\n');
const never = () => new AbortController().signal;

/** A fresh registry and the folders its shells use. */
function setUp() {
  const context = makeTestContext();
  const shells = new BackgroundShells();
  const base = { sessionDir: context.sessionDir, cwd: context.cwd, env: context.env };
  return { context, shells, base };
}

describe('background shells', () => {
  it('starts from the Bash tool, returns at once with an id and writes output to the session folder', async () => {
    const context = makeTestContext();
    const { shells } = context.services;
    try {
      const result = await callTool<BashOutput>(
        bashTool,
        { command: 'echo one; echo two >&2', run_in_background: true, description: 'Print two lines' },
        context,
      );
      expect(result.data.backgroundTaskId).toBe('bash_1');
      const logPath = join(context.sessionDir, 'shells', 'bash_1.log');
      expect(resultText(bashTool, result)).toContain(logPath);
      expect(await shells.wait('bash_1', 10_000, never())).toBe(true);
      expect(readFileSync(logPath, 'utf8')).toBe('one\ntwo\n');
      expect(shells.get('bash_1')).toMatchObject({
        status: 'completed',
        exitCode: 0,
        description: 'Print two lines',
      });
    } finally {
      await context.services.dispose();
    }
  });

  it('numbers shells per registry and records failures and exit codes', async () => {
    const { shells, base } = setUp();
    const other = new BackgroundShells();
    try {
      shells.start({ ...base, command: 'exit 4' });
      const second = shells.start({ ...base, command: 'true' });
      const fromOther = other.start({ ...base, command: 'true' });
      expect([second.id, fromOther.id]).toEqual(['bash_2', 'bash_1']);
      await shells.wait('bash_1', 10_000, never());
      expect(shells.get('bash_1')).toMatchObject({ status: 'failed', exitCode: 4 });
      expect(shells.list().map((s) => s.id)).toEqual(['bash_1', 'bash_2']);
      expect(other.list().map((s) => s.command)).toEqual(['true']);
    } finally {
      await shells.dispose();
      await other.dispose();
    }
  });

  it('returns only new output on each read', async () => {
    const { shells, base, context } = setUp();
    try {
      const go = join(context.cwd, 'go');
      const shell = shells.start({
        ...base,
        command: `echo first; while [ ! -f ${go} ]; do sleep 0.02; done; echo second`,
      });
      await waitFor(() => readFileSync(shell.outputPath, 'utf8') !== '', 'the first line');
      expect(await shells.readNewOutput(shell.id)).toBe('first\n');
      expect(await shells.readNewOutput(shell.id)).toBe('');
      writeFileSync(go, ''); // lets the shell go on to its second line
      await shells.wait(shell.id, 10_000, never());
      expect(await shells.readNewOutput(shell.id)).toBe('second\n');
    } finally {
      await shells.dispose();
    }
  });

  it('gives up waiting on timeout or abort without killing the shell', async () => {
    const { shells, base } = setUp();
    try {
      const shell = shells.start({ ...base, command: 'sleep 100' });
      expect(await shells.wait(shell.id, 50, never())).toBe(false);
      const controller = new AbortController();
      const waiting = shells.wait(shell.id, 60_000, controller.signal);
      controller.abort();
      expect(await waiting).toBe(false);
      expect(shells.get(shell.id)?.status).toBe('running');
    } finally {
      await shells.dispose();
    }
  });

  it('kills a shell whose timeout runs out', async () => {
    const { shells, base } = setUp();
    try {
      const ended: BackgroundShellInfo[] = [];
      const shell = shells.start({
        ...base,
        command: 'sleep 100',
        timeoutMs: 100,
        onExit: (info) => ended.push(info),
      });
      await shells.wait(shell.id, 10_000, never());
      expect(shells.get(shell.id)).toMatchObject({ status: 'killed', timedOut: true });
      expect(ended.map((info) => info.status)).toEqual(['killed']);
    } finally {
      await shells.dispose();
    }
  });

  it('dispose ends every shell with its process group and refuses new ones', async () => {
    const { shells, base, context } = setUp();
    const pidFiles = [join(context.cwd, 'a.pid'), join(context.cwd, 'b.pid')];
    for (const pidFile of pidFiles) {
      shells.start({ ...base, command: `sleep 100 & echo $! > ${pidFile}; sleep 100` });
    }
    for (const pidFile of pidFiles) await waitFor(() => pidFileReady(pidFile), pidFile);
    const started = shells.list();
    await shells.dispose();
    for (const pid of [...pidFiles.map(pidFrom), ...started.map((s) => s.pid as number)]) {
      await waitFor(() => !isAlive(pid), `process ${pid} to die`);
    }
    expect(shells.list()).toEqual([]);
    expect(() => shells.start({ ...base, command: 'true' })).toThrow(
      'The session has ended; no background shell can be started.',
    );
  });
});
