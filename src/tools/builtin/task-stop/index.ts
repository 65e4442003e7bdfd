/**
 * TaskStop (aliases KillShell, KillBash): stops a background task and reports how it ended. A
 * background shell's whole process group is killed; a background agent's loop is aborted (its
 * running tool calls with it) and it ends as `killed`, without a notification.
 */
import * as z from '../../../lib/zod';
import type { ToolUseContext } from '../../context';
import { buildTool, ToolError } from '../../tool';
import { shellLabel, shellStatusText } from '../bash/describe-shell';
import { agentLabel, agentStatusText, unknownTaskMessage } from '../shared/background-tasks';
import prompt from './prompt.md';

const inputSchema = z.lazy(() =>
  z.strictObject({
    task_id: z
      .optional(z.string())
      .check(
        z.describe(
          'The id of the background task to stop: a shell (e.g. bash_1) or an agent (its id or name)',
        ),
      ),
    shell_id: z.optional(z.string()).check(z.describe('Deprecated: use task_id')),
  }),
);

export type TaskStopInput = z.infer<typeof inputSchema>;

/** compat-surface §1.4: `message`, `task_id`, `task_type`, `command?`. */
export type TaskStopOutput = {
  message: string;
  task_id: string;
  task_type: 'local_bash' | 'local_agent';
  command?: string;
};

const taskIdOf = (input: TaskStopInput) => input.task_id ?? input.shell_id ?? '';

async function stopAgent(id: string, context: ToolUseContext): Promise<TaskStopOutput> {
  const { shells, agentTasks } = context.services;
  const before = agentTasks.get(id);
  if (!before) throw new ToolError(unknownTaskMessage(id, shells.list(), agentTasks.list()));
  // Stopping waits for the agent's loop to end, which waits for this very call: it would never return.
  if (before.id === context.agentId)
    throw new ToolError('An agent cannot stop itself; end your turn with your answer instead.');
  const running = before.status === 'running' || before.status === 'pending';
  const after = running ? await agentTasks.stop(before.id) : before;
  return {
    message: running
      ? `Stopped background agent ${agentLabel(after)}; final status: ${agentStatusText(after)}. What it wrote so far is in ${after.outputPath}.`
      : `Background agent ${agentLabel(before)} was not running any more (${agentStatusText(before)}).`,
    task_id: before.id,
    task_type: 'local_agent',
  };
}

export const taskStopTool = buildTool<TaskStopInput, TaskStopOutput>({
  name: 'TaskStop',
  aliases: ['KillShell', 'KillBash'],
  inputSchema,
  tier: 'exec',
  prompt,
  description: (input) => `Stop ${taskIdOf(input)}`,
  interruptBehavior: () => 'block',
  validateInput: async (input) =>
    taskIdOf(input) === ''
      ? { ok: false, message: 'Give the id of the task to stop as task_id.' }
      : { ok: true },
  mapResultToContent: (out) => out.message,
  async call(input, context) {
    const id = taskIdOf(input);
    const { shells } = context.services;
    const before = shells.get(id);
    if (!before) return { data: await stopAgent(id, context) };
    if (before.status !== 'running') {
      return {
        data: {
          message: `Background shell ${shellLabel(before)} was not running any more (${shellStatusText(before)}).`,
          task_id: id,
          task_type: 'local_bash',
          command: before.command,
        },
      };
    }
    const after = await shells.stop(id);
    return {
      data: {
        message: `Stopped background shell ${shellLabel(after)}; final status: ${shellStatusText(after)}.`,
        task_id: id,
        task_type: 'local_bash',
        command: after.command,
      },
    };
  },
});
