import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SDKMessage } from '../../engine/sdk-messages';
import { SessionServices } from '../../tools/session-services';
import { ManualClock } from '../test-support';
import { settleBackgroundWork, stoppedTasksLine } from './print-wait';
import { ScriptedWorker } from './test-support';

const created: SessionServices[] = [];
afterEach(async () => {
  await Promise.all(created.splice(0).map((services) => services.dispose()));
});

function setup(printWaitMs = 600_000) {
  const clock = new ManualClock();
  const services = new SessionServices({ env: process.env, backgroundAgents: { clock, printWaitMs } });
  created.push(services);
  const sessionDir = mkdtempSync(join(tmpdir(), 'yoke-print-wait-'));
  const worker = new ScriptedWorker();
  let queued = 0;
  const turns: number[] = [];
  const engine = {
    hasQueuedNotices: () => queued > 0,
    async *submitQueuedNotices(): AsyncGenerator<SDKMessage> {
      turns.push(queued);
      queued = 0;
      yield { type: 'system', subtype: 'informational', content: 'notice turn' } as unknown as SDKMessage;
    },
  };
  const launch = (description: string) =>
    services.agentTasks.launch({
      description,
      prompt: description,
      agentType: 'general-purpose',
      toolUseId: `toolu_${description}`,
      sessionDir,
      launcher: worker.launcher,
      onFinished: () => {
        queued += 1;
      },
    });
  const shell = (command: string) =>
    services.shells.start({ sessionDir, command, cwd: sessionDir, env: process.env });
  const written: SDKMessage[] = [];
  const settle = () =>
    settleBackgroundWork({
      engine,
      services,
      signal: new AbortController().signal,
      write: (message) => written.push(message),
    });
  return { clock, services, worker, launch, shell, settle, turns, written };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the end of a -p run', () => {
  it('waits for a running agent, then gives the model a turn for its notification', async () => {
    const { worker, launch, settle, turns, services, written } = setup();
    launch('survey');
    const settling = settle();
    await tick();
    expect(turns).toEqual([]);
    worker.last.end();
    expect(await settling).toEqual([]);
    expect(turns).toEqual([1]);
    expect(written).toHaveLength(1);
    expect(services.agentTasks.list()[0]?.status).toBe('completed');
  });

  it('stops agents still running when the wait runs out, and names them', async () => {
    const { clock, launch, settle, turns, services } = setup(5_000);
    const agent = launch('endless');
    const settling = settle();
    await tick();
    clock.advance(5_000);
    const stopped = await settling;
    expect(stopped).toEqual([
      { task_id: agent.id, task_type: 'local_agent', description: 'endless', reason: 'wait_limit' },
    ]);
    expect(services.agentTasks.get(agent.id)?.status).toBe('killed');
    expect(turns).toEqual([]);
  });

  it('kills background shells still running and names them, agents or not', async () => {
    const { shell, settle, services } = setup();
    const running = shell('sleep 30');
    const stopped = await settle();
    expect(stopped).toEqual([
      { task_id: running.id, task_type: 'local_bash', description: 'sleep 30', reason: 'run_ended' },
    ]);
    expect(services.shells.get(running.id)?.status).toBe('killed');
    expect(stoppedTasksLine(stopped)).toBe(
      'yoke: stopped 1 background shell still running at the end of the run: bash_1 (sleep 30)',
    );
  });
});
