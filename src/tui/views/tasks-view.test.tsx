import '../testing/hide-ci';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TaskBoard, type TaskSnapshot, type TaskSource } from '../../interactive/task-board';
import { restoreCi } from '../testing/hide-ci';
import { renderView } from '../testing/render-view';
import { TasksView, taskRowText } from './tasks-view';

afterAll(restoreCi);

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'yoke-tasks-view-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Two tasks over real output files; `stopped` records what `k` stopped. */
async function fixture() {
  const stopped: string[] = [];
  const now = Date.now();
  const tasks: TaskSnapshot[] = [
    {
      id: 'bash_1',
      kind: 'shell',
      title: 'dev server',
      status: 'running',
      statusText: 'running',
      startedAt: now - 65_000,
      outputPath: join(dir, 'bash_1.log'),
    },
    {
      id: 'bash_2',
      kind: 'shell',
      title: 'build',
      status: 'completed',
      statusText: 'completed with exit code 0',
      startedAt: now - 10_000,
      endedAt: now - 5_000,
      outputPath: join(dir, 'bash_2.log'),
    },
  ];
  await writeFile(tasks[0]?.outputPath as string, 'starting\nlistening on :8080\n');
  await writeFile(tasks[1]?.outputPath as string, 'compiling\nbuilt 3 files\n');
  const source: TaskSource = {
    list: () => tasks,
    stop: async (id) => {
      stopped.push(id);
      const task = tasks.find((t) => t.id === id) as TaskSnapshot;
      Object.assign(task, { status: 'killed', statusText: 'killed', endedAt: Date.now() });
    },
  };
  const closed: boolean[] = [];
  const view = renderView(
    <TasksView board={new TaskBoard(() => [source], 20)} onClose={() => closed.push(true)} />,
  );
  return { view, stopped, closed };
}

describe('the /tasks view', () => {
  it('shows id, kind, title, status, elapsed time and the latest line of each task', async () => {
    const { view } = await fixture();
    await vi.waitFor(() => expect(view.frame()).toContain('listening on :8080'));
    expect(view.frame()).toContain('Background tasks (1 running)');
    expect(view.frame()).toMatch(
      /❯ bash_1 {2}shell {2}dev server · running · 1m [5-6]s {2}listening on :8080/,
    );
    expect(view.frame()).toMatch(
      /bash_2 {2}shell {2}build · completed with exit code 0 · 5s {2}built 3 files/,
    );
  });

  it("shortens a long title (a shell's command) so the status, time and latest line fit the row", () => {
    const row = {
      id: 'bash_1',
      kind: 'shell',
      title: 'for i in 1 2 3 4 5 6 7 8 9 10; do echo tick $i; sleep 2; ...',
      status: 'completed' as const,
      statusText: 'completed with exit code 0',
      startedAt: 0,
      endedAt: 20_000,
      outputPath: '/dev/null',
      latest: 'tick 10',
    };
    const text = taskRowText(row, 20_000, 100);
    expect(text.length).toBeLessThanOrEqual(100 - 6);
    expect(text).toMatch(
      /^bash_1 {2}shell {2}for i in 1 2 .*… · completed with exit code 0 · 20s {2}tick 10$/,
    );
    // With room to spare the title stays whole.
    expect(taskRowText(row, 20_000, 200)).toContain(row.title);
  });

  it('Enter shows the output, Esc goes back; k stops the selected task; Esc closes', async () => {
    const { view, stopped, closed } = await fixture();
    await vi.waitFor(() => expect(view.frame()).toContain('built 3 files'));
    view.type('\r');
    await vi.waitFor(() => expect(view.frame()).toContain('bash_1 · dev server · running'));
    await vi.waitFor(() => expect(view.frame()).toMatch(/│ starting +│\n│ listening on :8080 +│/));
    view.type('\x1b');
    await vi.waitFor(() => expect(view.frame()).not.toContain('The whole output'));
    view.type('k');
    await vi.waitFor(() => expect(view.frame()).toContain('Stopped bash_1.'));
    expect(stopped).toEqual(['bash_1']);
    await vi.waitFor(() => expect(view.frame()).toContain('dev server · killed'));
    view.type('\x1b[B');
    view.type('k');
    await vi.waitFor(() => expect(view.frame()).toContain('bash_2 is not running.'));
    view.type('\x1b');
    expect(closed).toEqual([true]);
  });
});
