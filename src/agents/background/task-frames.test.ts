import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SDKMessage } from '../../engine/sdk-messages';
import { BackgroundShells } from '../../tools/builtin/bash/shells';
import { ManualClock } from '../test-support';
import { AgentTasks } from './agent-tasks';
import { streamTaskFrames } from './task-frames';
import { ScriptedWorker } from './test-support';

async function setup() {
  const clock = new ManualClock();
  const agentTasks = new AgentTasks({ clock });
  const shells = new BackgroundShells();
  const worker = new ScriptedWorker();
  const sessionDir = await mkdtemp(join(tmpdir(), 'yoke-task-frames-'));
  const frames: SDKMessage[] = [];
  const stop = streamTaskFrames({ agentTasks, shells }, 'session-1', (frame) => frames.push(frame));
  const launch = () =>
    agentTasks.launch({
      description: 'Fix the parser',
      prompt: 'Fix parse.ts',
      agentType: 'general-purpose',
      toolUseId: 'toolu_1',
      sessionDir,
      launcher: worker.launcher,
      onFinished: () => {},
    });
  return { agentTasks, shells, worker, sessionDir, frames, stop, launch };
}

const tasksOnly = (frames: SDKMessage[]) =>
  frames.filter((f) => f.type === 'system' && f.subtype.startsWith('task_')) as (SDKMessage & {
    subtype: string;
    [key: string]: unknown;
  })[];

describe('streamTaskFrames', () => {
  it('a stopped agent ends with task_updated killed and a stopped notification', async () => {
    const { agentTasks, frames, launch } = await setup();
    const task = launch();
    await agentTasks.stop(task.id);
    const own = tasksOnly(frames);
    expect(own.map((f) => f.subtype)).toEqual(['task_started', 'task_updated', 'task_notification']);
    expect(own[1]).toMatchObject({ patch: { status: 'killed', error: 'Stopped before it finished.' } });
    expect(own[2]).toMatchObject({ status: 'stopped', summary: 'Agent "Fix the parser" was stopped' });
    expect(own.every((f) => f.session_id === 'session-1')).toBe(true);
  });

  it('a continued agent starts a new run with a later run id, and its usage adds up', async () => {
    const { agentTasks, worker, frames, launch } = await setup();
    const task = launch();
    worker.last.end();
    await agentTasks.wait(task.id, 1000, new AbortController().signal);
    agentTasks.send(task.id, 'Now the tests');
    worker.last.end();
    await agentTasks.wait(task.id, 1000, new AbortController().signal);
    await new Promise((resolve) => setImmediate(resolve));
    const own = tasksOnly(frames);
    expect(own.map((f) => f.subtype)).toEqual([
      'task_started',
      'task_updated',
      'task_notification',
      'task_started',
      'task_updated',
      'task_notification',
    ]);
    const [first, second] = [String(own[0]?.run_id), String(own[3]?.run_id)];
    expect(first < second).toBe(true);
    expect(own[3]).toMatchObject({ prompt: 'Fix parse.ts' });
    expect(own[5]).toMatchObject({ status: 'completed', usage: { total_tokens: 200, tool_uses: 4 } });
  });

  it('no frames after the stop, and a shell started before the host subscribed gets none', async () => {
    const { shells, frames, stop, sessionDir, launch } = await setup();
    stop();
    launch();
    const shell = shells.start({ sessionDir, command: 'true', cwd: sessionDir, env: process.env });
    await shells.wait(shell.id, 5000, new AbortController().signal);
    expect(frames).toEqual([]);
    await shells.dispose();
  });
});
