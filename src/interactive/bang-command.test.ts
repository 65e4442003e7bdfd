/** `!command` through the Bash tool's execution, with a real shell in a temporary project. */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isAlive, waitFor } from '../tools/builtin/bash/test-helpers';
import { makeContext } from '../tools/test-support';
import { runBangCommand } from './bang-command';

let project: string;
beforeEach(async () => {
  project = await realpath(await mkdtemp(join(tmpdir(), 'yoke-bang-')));
});
afterEach(() => rm(project, { recursive: true, force: true }));

const context = (signal = new AbortController().signal) =>
  makeContext([], {
    cwd: project,
    projectRoot: project,
    sessionDir: join(project, '.session'),
    abortSignal: signal,
    env: { PATH: process.env.PATH },
  });

describe('!command', () => {
  it('returns the interleaved output, exit code 0 and the conversation blocks', async () => {
    const result = await runBangCommand('!echo out; echo err >&2', context());
    expect(result).toMatchObject({ command: 'echo out; echo err >&2', output: 'out\nerr', exitCode: 0 });
    expect(result.conversationText).toBe(
      '<bash-input>echo out; echo err >&2</bash-input>\n<bash-stdout>out\nerr</bash-stdout><bash-stderr></bash-stderr>',
    );
  });

  it('reports a non-zero exit code', async () => {
    const result = await runBangCommand('!echo nope; exit 3', context());
    expect(result.exitCode).toBe(3);
    expect(result.conversationText).toContain('<bash-stderr>Exit code 3</bash-stderr>');
  });

  it('follows a cd inside the project, as the Bash tool does', async () => {
    await mkdir(join(project, 'src'));
    const result = await runBangCommand('!cd src && pwd', context());
    expect(result.output).toBe(join(project, 'src'));
    expect(result.cwd).toBe(join(project, 'src'));
  });

  it('does not follow a cd out of the project, and says so', async () => {
    const result = await runBangCommand('!cd / && pwd', context());
    expect(result.cwd).toBeUndefined();
    expect(result.notes).toContain('is outside the project');
  });

  it('an interrupt kills the command and everything it started', async () => {
    const controller = new AbortController();
    const marker = join(project, 'started');
    const pidFile = join(project, 'child.pid');
    const running = runBangCommand(
      `!sleep 300 & echo $! > ${pidFile}; touch ${marker}; wait`,
      context(controller.signal),
    );
    await waitFor(() => existsSync(marker), 'the command to start');
    const child = Number(readFileSync(pidFile, 'utf8'));
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({ interrupted: true, exitCode: null });
    expect(result.notes).toContain('interrupted');
    await waitFor(() => !isAlive(child), 'the background sleep to be killed');
  });

  it('an empty command runs nothing', async () => {
    expect((await runBangCommand('!  ', context())).notes).toBe('Type a command after the !.');
  });
});
