import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionServices } from '../../session-services';
import { bashTool } from '../bash/index';
import { callTool, makeTestContext, resultText } from '../shared/test-context';
import { type TaskOutputOutput, taskOutputTool } from './index';

const contexts: ReturnType<typeof makeTestContext>[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.services.dispose()));
});

async function startShell(command: string, overrides: Parameters<typeof makeTestContext>[0] = {}) {
  const context = makeTestContext(overrides);
  contexts.push(context);
  await callTool(bashTool, { command, run_in_background: true }, context);
  return context;
}

describe('TaskOutput', () => {
  it('returns new output incrementally and blocks until the shell finishes', async () => {
    const context = await startShell(
      'echo first; while [ ! -f go ]; do sleep 0.02; done; echo second; exit 2',
    );
    // Not blocking: whatever is there now (possibly nothing yet), status running.
    const peek = await callTool<TaskOutputOutput>(
      taskOutputTool,
      { task_id: 'bash_1', block: false },
      context,
    );
    expect(peek.data.retrieval_status).toBe('not_ready');
    expect(peek.data.task.status).toBe('running');

    const waitedOut = await callTool<TaskOutputOutput>(
      taskOutputTool,
      { task_id: 'bash_1', timeout: 300 },
      context,
    );
    expect(waitedOut.data.retrieval_status).toBe('timeout');
    expect(`${peek.data.task.output}${waitedOut.data.task.output}`).toBe('first\n');

    writeFileSync(join(context.cwd, 'go'), '');
    const done = await callTool<TaskOutputOutput>(taskOutputTool, { task_id: 'bash_1' }, context);
    expect(done.data.retrieval_status).toBe('success');
    expect(done.data.task).toMatchObject({
      status: 'failed',
      exitCode: 2,
      output: 'second\n',
      task_type: 'local_bash',
    });
    const text = resultText(taskOutputTool, done);
    expect(text).toContain('failed, exit code 2');
    expect(text).toContain('New output:\nsecond');

    const again = await callTool<TaskOutputOutput>(taskOutputTool, { task_id: 'bash_1' }, context);
    expect(again.data.task.output).toBe('');
    expect(resultText(taskOutputTool, again)).toContain('(no new output)');
  });

  it('stops waiting when the call is aborted', async () => {
    const context = await startShell('sleep 100');
    const controller = new AbortController();
    const pending = callTool<TaskOutputOutput>(
      taskOutputTool,
      { task_id: 'bash_1', timeout: 600_000 },
      { ...context, abortSignal: controller.signal },
    );
    controller.abort();
    expect((await pending).data.retrieval_status).toBe('timeout');
  });

  it('names the known shells when the id is wrong', async () => {
    const context = await startShell('true');
    await expect(callTool(taskOutputTool, { task_id: 'bash_9' }, context)).rejects.toThrow(
      'No background task with id bash_9. Known background shells: bash_1.',
    );
  });

  it("keeps new output within the session's Bash output budget, head and tail", async () => {
    const env = { ...process.env };
    const services = new SessionServices({ env, settings: { bashOutputMaxChars: 4_000 } });
    const context = await startShell('seq 1 5000', { env, services });
    const result = await callTool<TaskOutputOutput>(taskOutputTool, { task_id: 'bash_1' }, context);
    const { output, outputFile } = result.data.task;
    expect(output.length).toBeLessThan(4_300);
    expect(output.startsWith('1\n2\n3\n')).toBe(true);
    expect(output.endsWith('4999\n5000\n')).toBe(true);
    expect(output).toContain(`characters omitted here. The full output is saved at ${outputFile}`);
  });
});
