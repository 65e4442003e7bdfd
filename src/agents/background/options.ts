/**
 * The options of a session's background agents, from the `backgroundAgents` settings: how often a
 * running agent's progress is summarized and how long `-p` waits for running agents.
 */
import type { Settings } from '../../config/settings-schema';
import type { SideCallClient } from '../../model/side-call';
import type { AgentClock } from '../types';

export const DEFAULT_PROGRESS_INTERVAL_MS = 30_000;
export const DEFAULT_PRINT_WAIT_MS = 600_000;

export type AgentTasksOptions = {
  /** Where progress summaries are asked; without it there are none. */
  sideCalls?: SideCallClient;
  /** Progress summaries and waits run on it (tests move a manual one). */
  clock?: AgentClock;
  /** How often a running agent's progress is summarized; 0 turns summaries off. */
  progressIntervalMs?: number;
  /** How long `-p` waits for running agents before its final result. */
  printWaitMs?: number;
};

/** The `backgroundAgents` settings as the registry's options. */
export function backgroundAgentOptions(
  settings: Settings['backgroundAgents'],
): Pick<AgentTasksOptions, 'progressIntervalMs' | 'printWaitMs'> {
  return {
    ...(settings?.progressIntervalMs !== undefined
      ? { progressIntervalMs: settings.progressIntervalMs }
      : {}),
    ...(settings?.printWaitMs !== undefined ? { printWaitMs: settings.printWaitMs } : {}),
  };
}
