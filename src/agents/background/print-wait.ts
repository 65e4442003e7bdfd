/**
 * The end of a `-p` run with background work. Before the final result the process waits for the
 * running background agents — each bounded by its own budgets, all together by the
 * `backgroundAgents.printWaitMs` setting (10 minutes by default) — and lets the model read their
 * notifications in a turn of their own, as often as agents end. What still runs after that is
 * stopped: agents past the wait, and background shells (a `-p` run leaves no process behind). The
 * stopped tasks are named in the final result (`stopped_background_tasks`) and on stderr.
 */
import type { SDKMessage, SDKResultMessage } from '../../engine/sdk-messages';
import { shellDescription } from '../../tools/builtin/bash/describe-shell';
import type { SessionServices } from '../../tools/session-services';

export type StoppedTask = {
  task_id: string;
  task_type: 'local_bash' | 'local_agent';
  description: string;
  /** Why it was stopped. */
  reason: 'run_ended' | 'wait_limit';
};

/** What of the engine the wait drives. */
export type NoticeTurns = {
  hasQueuedNotices(): boolean;
  submitQueuedNotices(options: { signal?: AbortSignal }): AsyncIterable<SDKMessage>;
};

export type SettleParams = {
  engine: NoticeTurns;
  services: SessionServices;
  signal: AbortSignal;
  /** Where the notice turns' frames go (the run's output). */
  write(message: SDKMessage): void;
};

/** Waits for the agents, runs the notice turns, stops what is left; returns what was stopped. */
export async function settleBackgroundWork({
  engine,
  services,
  signal,
  write,
}: SettleParams): Promise<StoppedTask[]> {
  const agents = services.agentTasks;
  // A session that started no background agent keeps the plain `-p` ending.
  if (agents.list().length === 0) return stopShells(services);
  const deadline = agents.now + agents.printWaitMs;
  for (;;) {
    const left = deadline - agents.now;
    if (agents.running().length > 0 && left > 0) await agents.waitForAll(left, signal);
    if (signal.aborted || !engine.hasQueuedNotices()) break;
    for await (const message of engine.submitQueuedNotices({ signal })) write(message);
    // The notice turn may have sent follow-ups or started new agents: wait for those too.
    if (agents.running().length === 0 && !engine.hasQueuedNotices()) break;
    if (agents.now >= deadline) break;
  }
  const stoppedAgents: StoppedTask[] = [];
  for (const agent of agents.running()) {
    await agents.stop(agent.id);
    stoppedAgents.push({
      task_id: agent.id,
      task_type: 'local_agent',
      description: agent.description,
      reason: 'wait_limit',
    });
  }
  return [...stoppedAgents, ...(await stopShells(services))];
}

async function stopShells(services: SessionServices): Promise<StoppedTask[]> {
  const running = services.shells.list().filter((shell) => shell.status === 'running');
  await Promise.all(running.map((shell) => services.shells.stop(shell.id)));
  return running.map((shell) => ({
    task_id: shell.id,
    task_type: 'local_bash',
    description: shellDescription(shell),
    reason: 'run_ended',
  }));
}

/** The final result, naming the background tasks the end of the run stopped. */
export function withStoppedTasks(
  result: SDKResultMessage,
  stopped: readonly StoppedTask[],
): SDKResultMessage & { stopped_background_tasks?: StoppedTask[] } {
  return stopped.length === 0 ? result : { ...result, stopped_background_tasks: [...stopped] };
}

/** One stderr line naming them, for a person reading a `-p` run. */
export function stoppedTasksLine(stopped: readonly StoppedTask[]): string | undefined {
  if (stopped.length === 0) return undefined;
  const names = stopped.map((task) => `${task.task_id} (${task.description})`).join(', ');
  const shells = stopped.filter((task) => task.task_type === 'local_bash').length;
  const agents = stopped.length - shells;
  const parts = [
    shells > 0
      ? `${shells} background shell${shells === 1 ? '' : 's'} still running at the end of the run`
      : '',
    agents > 0 ? `${agents} background agent${agents === 1 ? '' : 's'} still running after the wait` : '',
  ].filter(Boolean);
  return `yoke: stopped ${parts.join(' and ')}: ${names}`;
}
