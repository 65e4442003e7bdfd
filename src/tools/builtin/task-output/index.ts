/**
 * TaskOutput: what a background task did since the last look, optionally waiting for it to
 * finish. A task is a background shell (Bash `run_in_background`) or a background agent (Agent
 * `run_in_background`); the read position is kept per task, so repeated calls page through new
 * output.
 */
import * as z from '../../../lib/zod';
import type { ToolUseContext } from '../../context';
import { buildTool, ToolError } from '../../tool';
import { shellDescription } from '../bash/describe-shell';
import { truncateMiddle } from '../bash/output';
import type { BackgroundShellInfo } from '../bash/shells';
import { unknownTaskMessage } from '../shared/background-tasks';
import { type AgentTaskOutput, agentOutputText, agentTaskOutput } from './agent-output';
import prompt from './prompt.md';

export const DEFAULT_WAIT_MS = 30_000;
export const MAX_WAIT_MS = 600_000;

const inputSchema = z.lazy(() =>
  z.strictObject({
    task_id: z
      .string()
      .check(z.describe('The id of the background task: a shell (e.g. bash_1) or an agent (its id or name)')),
    block: z.optional(z.boolean()).check(z.describe('Wait for the task to finish (default true)')),
    timeout: z
      .optional(z.number().check(z.nonnegative(), z.maximum(MAX_WAIT_MS)))
      .check(
        z.describe(
          `How long to wait in milliseconds when blocking (default ${DEFAULT_WAIT_MS}, max ${MAX_WAIT_MS})`,
        ),
      ),
  }),
);

export type TaskOutputInput = z.infer<typeof inputSchema>;

export type ShellTaskOutput = {
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

export type TaskOutputOutput = {
  /** `success`: the task has finished; `timeout`: the wait ran out; `not_ready`: still running. */
  retrieval_status: 'success' | 'timeout' | 'not_ready';
  task: ShellTaskOutput | AgentTaskOutput;
};

function mapResultToContent(out: TaskOutputOutput): string {
  const { task } = out;
  const waited = out.retrieval_status === 'timeout' ? ' (the wait timed out)' : '';
  if (task.task_type === 'local_agent') return agentOutputText(task, waited);
  const exit = task.exitCode !== null ? `, exit code ${task.exitCode}` : '';
  const header = `Background shell ${task.task_id} (${task.description}): ${task.status}${exit}${waited}.`;
  const body = task.output === '' ? '(no new output)' : `New output:\n${task.output.replace(/\n+$/, '')}`;
  return `${header}\n${body}\nFull output file: ${task.outputFile}`;
}

type Retrieval = TaskOutputOutput['retrieval_status'];

/** Waits as the input asks; how the wait ended. */
async function retrieve(
  running: boolean,
  input: TaskOutputInput,
  wait: (timeoutMs: number) => Promise<boolean>,
): Promise<Retrieval> {
  if (!running) return 'success';
  if (input.block === false) return 'not_ready';
  return (await wait(input.timeout ?? DEFAULT_WAIT_MS)) ? 'success' : 'timeout';
}

async function shellOutput(
  known: BackgroundShellInfo,
  input: TaskOutputInput,
  context: ToolUseContext,
): Promise<TaskOutputOutput> {
  const { shells } = context.services;
  const retrieval = await retrieve(known.status === 'running', input, (ms) =>
    shells.wait(known.id, ms, context.abortSignal),
  );
  const shell = shells.get(known.id) ?? known;
  const output = await shells.readNewOutput(known.id);
  return {
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
  };
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
    const { shells, agentTasks } = context.services;
    const shell = shells.get(input.task_id);
    if (shell) return { data: await shellOutput(shell, input, context) };
    const known = agentTasks.get(input.task_id);
    if (!known) throw new ToolError(unknownTaskMessage(input.task_id, shells.list(), agentTasks.list()));
    const running = known.status === 'running' || known.status === 'pending';
    const retrieval = await retrieve(running, input, (ms) =>
      agentTasks.wait(known.id, ms, context.abortSignal),
    );
    const agent = agentTasks.get(known.id) ?? known;
    return { data: { retrieval_status: retrieval, task: await agentTaskOutput(agent, context) } };
  },
});
