/**
 * The seam between the Agent tool and background agents: a call with `run_in_background` (or a
 * definition with `background: true`) is handed to the session's `BackgroundAgentLauncher`, which
 * starts the worker with `runAgent` and answers at once. Sessions without one refuse such calls
 * with a readable tool error.
 */
import type { EffortLevel } from '../model/effort';
import type { ToolUseContext } from '../tools/context';
import type { AnyTool } from '../tools/tool';
import type { AgentBudget, AgentDefinition } from './types';

/** What the tool answers for a background launch (the reference's `async_launched` output). */
export type AsyncLaunchedOutput = {
  status: 'async_launched';
  agentId: string;
  description: string;
  prompt: string;
  outputFile: string;
  /** The text the model reads (how to wait, read and continue the agent). */
  message: string;
};

export type BackgroundLaunchRequest = {
  definition: AgentDefinition;
  description: string;
  prompt: string;
  /** The Agent call this launch answers: its notification names it. */
  toolUseId: string;
  /** The context of the Agent call (the worker's parent). */
  parent: ToolUseContext;
  /** Makes a background agent addressable by this name too (SendMessage, TaskOutput, TaskStop). */
  name?: string;
  model?: string;
  effort?: EffortLevel;
  budget?: AgentBudget;
  /** A last cut of the worker's pool (coordinator mode's worker tool set): for runAgent's `toolFilter`. */
  toolFilter?: (tool: AnyTool) => boolean;
};

export interface BackgroundAgentLauncher {
  launch(request: BackgroundLaunchRequest): Promise<AsyncLaunchedOutput>;
}

export const BACKGROUND_UNAVAILABLE =
  'Background agents are not available in this session; call Agent with run_in_background: false to wait for its report.';
