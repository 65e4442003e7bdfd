/**
 * TaskStop (aliases KillShell, KillBash): kills a background shell's whole process group and
 * reports how it ended.
 */
import * as z from '../../../lib/zod';
import { buildTool, ToolError } from '../../tool';
import { shellLabel, shellStatusText, unknownShellMessage } from '../bash/describe-shell';
import prompt from './prompt.md';

const inputSchema = z.strictObject({
  task_id: z.optional(z.string()).check(z.describe('The id of the background task to stop, e.g. bash_1')),
  shell_id: z.optional(z.string()).check(z.describe('Deprecated: use task_id')),
});

export type TaskStopInput = z.infer<typeof inputSchema>;

/** compat-surface §1.4: `message`, `task_id`, `task_type`, `command?`. */
export type TaskStopOutput = {
  message: string;
  task_id: string;
  task_type: 'local_bash';
  command?: string;
};

const taskIdOf = (input: TaskStopInput) => input.task_id ?? input.shell_id ?? '';

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
    if (!before) throw new ToolError(unknownShellMessage(id, shells.list()));
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
