/**
 * TaskOutput: the output a background shell wrote since the last look, optionally waiting for
 * it to finish. The read position is kept per shell, so repeated calls page through new output.
 */
import * as z from '../../../lib/zod';
import { buildTool, ToolError } from '../../tool';
import { shellDescription, unknownShellMessage } from '../bash/describe-shell';
import { truncateMiddle } from '../bash/output';
import prompt from './prompt.md';

export const DEFAULT_WAIT_MS = 30_000;
export const MAX_WAIT_MS = 600_000;

const inputSchema = z.strictObject({
  task_id: z.string().check(z.describe('The id of the background shell, e.g. bash_1')),
  block: z.optional(z.boolean()).check(z.describe('Wait for the shell to finish (default true)')),
  timeout: z
    .optional(z.number().check(z.nonnegative(), z.maximum(MAX_WAIT_MS)))
    .check(
      z.describe(
        `How long to wait in milliseconds when blocking (default ${DEFAULT_WAIT_MS}, max ${MAX_WAIT_MS})`,
      ),
    ),
});

export type TaskOutputInput = z.infer<typeof inputSchema>;

export type TaskOutputOutput = {
  /** `success`: the shell has finished; `timeout`: the wait ran out; `not_ready`: still running. */
  retrieval_status: 'success' | 'timeout' | 'not_ready';
  task: {
    task_id: string;
    task_type: 'local_bash';
    status: 'running' | 'completed' | 'failed' | 'killed';
    description: string;
    command: string;
    /** New output since the previous call (shortened in the middle when huge). */
    output: string;
    exitCode: number | null;
    outputFile: string;
  };
};

function mapResultToContent(out: TaskOutputOutput): string {
  const { task } = out;
  const waited = out.retrieval_status === 'timeout' ? ' (the wait timed out)' : '';
  const exit = task.exitCode !== null ? `, exit code ${task.exitCode}` : '';
  const header = `Background shell ${task.task_id} (${task.description}): ${task.status}${exit}${waited}.`;
  const body = task.output === '' ? '(no new output)' : `New output:\n${task.output.replace(/\n+$/, '')}`;
  return `${header}\n${body}\nFull output file: ${task.outputFile}`;
}

export const taskOutputTool = buildTool<TaskOutputInput, TaskOutputOutput>({
  name: 'TaskOutput',
  inputSchema,
  tier: 'read',
  prompt,
  description: (input) => `Output of ${input.task_id}`,
  isConcurrencySafe: () => true,
  isReadOnly: () => true,
  interruptBehavior: () => 'cancel',
  mapResultToContent,
  async call(input, context) {
    const { shells } = context.services;
    const known = shells.get(input.task_id);
    if (!known) throw new ToolError(unknownShellMessage(input.task_id, shells.list()));
    let retrieval: TaskOutputOutput['retrieval_status'] =
      known.status === 'running' ? 'not_ready' : 'success';
    if (known.status === 'running' && input.block !== false) {
      const ended = await shells.wait(input.task_id, input.timeout ?? DEFAULT_WAIT_MS, context.abortSignal);
      retrieval = ended ? 'success' : 'timeout';
    }
    const shell = shells.get(input.task_id) ?? known;
    const output = await shells.readNewOutput(input.task_id);
    return {
      data: {
        retrieval_status: retrieval,
        task: {
          task_id: shell.id,
          task_type: 'local_bash',
          status: shell.status,
          description: shellDescription(shell),
          command: shell.command,
          output: truncateMiddle(output, context.services.settings.bashOutputMaxChars, shell.outputPath),
          exitCode: shell.exitCode,
          outputFile: shell.outputPath,
        },
      },
    };
  },
});
