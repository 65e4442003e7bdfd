import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bashTool } from '../bash/index';
import { isAlive, waitFor } from '../bash/test-helpers';
import { callTool, makeTestContext } from '../shared/test-context';
import { type TaskStopOutput, taskStopTool } from './index';

const contexts: ReturnType<typeof makeTestContext>[] = [];
function freshContext() {
  const made = makeTestContext();
  contexts.push(made);
  return made;
}
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((made) => made.services.dispose()));
});

describe('TaskStop', () => {
  it('kills the shell and its whole process group', async () => {
    const context = freshContext();
    const pidFile = join(context.cwd, 'child.pid');
    await callTool(
      bashTool,
      { command: `sleep 100 & echo $! > ${pidFile}; sleep 100`, run_in_background: true },
      context,
    );
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), 'the pid file');
    const result = await callTool<TaskStopOutput>(taskStopTool, { task_id: 'bash_1' }, context);
    expect(result.data).toMatchObject({ task_id: 'bash_1', task_type: 'local_bash' });
    expect(result.data.message).toContain('final status: killed');
    expect(context.services.shells.get('bash_1')?.status).toBe('killed');
    const childPid = Number(readFileSync(pidFile, 'utf8').trim());
    await waitFor(() => !isAlive(childPid), `background child ${childPid} to die`);
  });

  it('accepts the deprecated shell_id and the legacy names', async () => {
    const context = freshContext();
    await callTool(bashTool, { command: 'true', run_in_background: true }, context);
    await context.services.shells.wait('bash_1', 10_000, new AbortController().signal);
    const result = await callTool<TaskStopOutput>(taskStopTool, { shell_id: 'bash_1' }, context);
    expect(result.data.message).toContain('was not running any more (completed with exit code 0)');
    expect(taskStopTool.aliases).toEqual(['KillShell', 'KillBash']);
  });

  it('requires an id and rejects unknown ones', async () => {
    const context = freshContext();
    await expect(callTool(taskStopTool, {}, context)).rejects.toThrow('task_id');
    await expect(callTool(taskStopTool, { task_id: 'bash_7' }, context)).rejects.toThrow(
      'No background task',
    );
  });
});
