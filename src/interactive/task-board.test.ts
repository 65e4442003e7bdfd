/** The /tasks board over real background shells, and a source that reports its own changes. */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BackgroundShells } from '../tools/builtin/bash/shells';
import { waitFor } from '../tools/builtin/bash/test-helpers';
import { shellTaskSource } from './shell-tasks';
import { formatTaskElapsed, TaskBoard, type TaskSnapshot, type TaskSource } from './task-board';

let dir: string;
let shells: BackgroundShells;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'yoke-tasks-'));
  shells = new BackgroundShells();
});
afterEach(async () => {
  await shells.dispose();
  await rm(dir, { recursive: true, force: true });
});

const start = (command: string, description: string) =>
  shells.start({ sessionDir: dir, command, description, cwd: dir, env: { PATH: process.env.PATH } });

describe('TaskBoard', () => {
  it('lists the shells with their latest line, follows new output while watched, and stops one', async () => {
    const marker = join(dir, 'second-line-written');
    const server = start('echo starting; sleep 300', 'dev server');
    const board = new TaskBoard(() => [shellTaskSource(shells)], 20);
    let notified = 0;
    const unsubscribe = board.subscribe(() => notified++);
    await waitFor(() => board.getRows()[0]?.latest === 'starting', 'the first line on the board');
    expect(board.getRows()[0]).toMatchObject({
      id: server.id,
      kind: 'shell',
      title: 'dev server',
      status: 'running',
      statusText: 'running',
    });
    const build = start(`echo compiling; echo built 3 files; touch ${marker}`, 'build');
    await waitFor(
      () => existsSync(marker) && board.getRows()[1]?.latest === 'built 3 files',
      'the second shell on the board',
    );
    expect(board.getRows()[1]?.id).toBe(build.id);
    const before = notified;
    expect(await board.stop(server.id)).toBe(true);
    expect(board.getRows()[0]).toMatchObject({ status: 'killed', statusText: 'killed' });
    expect(notified).toBeGreaterThan(before);
    // A task that is not running is not stopped again.
    expect(await board.stop(server.id)).toBe(false);
    unsubscribe();
  });

  it('prefers a source summary, and refreshes when a subscribed source says it changed', async () => {
    let tasks: TaskSnapshot[] = [];
    const listeners = new Set<() => void>();
    const agents: TaskSource = {
      list: () => tasks,
      subscribe: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      stop: async () => {},
    };
    // A long tick: only the source's own change event can bring the update in time.
    const board = new TaskBoard(() => [agents], 3_600_000);
    const unsubscribe = board.subscribe(() => {});
    await board.refresh();
    expect(board.getRows()).toEqual([]);
    tasks = [
      {
        id: 'agent_1',
        kind: 'agent',
        title: 'review the diff',
        status: 'running',
        statusText: 'running',
        startedAt: 0,
        summary: 'Reading the test files',
        outputPath: join(dir, 'none.log'),
      },
    ];
    for (const listener of listeners) listener();
    await waitFor(() => board.getRows().length === 1, 'the agent on the board');
    expect(board.getRows()[0]?.latest).toBe('Reading the test files');
    unsubscribe();
    expect(listeners.size).toBe(0);
  });

  it('formats running time', () => {
    expect(formatTaskElapsed(42_000)).toBe('42s');
    expect(formatTaskElapsed(185_000)).toBe('3m 5s');
    expect(formatTaskElapsed(3_720_000)).toBe('1h 2m');
  });
});
