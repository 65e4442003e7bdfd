/** TaskOutput and TaskStop on background agents (the shell side is in the tools' own tests). */
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedWorker } from '../../../agents/background/test-support';
import { createUserMessage } from '../../../session/messages';
import { callTool, makeTestContext, resultText } from '../shared/test-context';
import { type TaskStopOutput, taskStopTool } from '../task-stop/index';
import { type TaskOutputOutput, taskOutputTool } from './index';

const contexts: ReturnType<typeof makeTestContext>[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.services.dispose()));
});

function launchAgent() {
  const context = makeTestContext();
  contexts.push(context);
  const worker = new ScriptedWorker();
  const agent = context.services.agentTasks.launch({
    name: 'scout',
    description: 'Survey the parser',
    prompt: 'Find where tokens are made',
    agentType: 'Explore',
    toolUseId: 'toolu_7',
    sessionDir: context.sessionDir,
    launcher: worker.launcher,
    onFinished: () => {},
  });
  return { context, worker, agent };
}

describe('TaskOutput on a background agent', () => {
  it('peeks without waiting, then blocks until the agent finishes and shows its result', async () => {
    const { context, worker, agent } = launchAgent();
    worker.last.request.onMessage(createUserMessage('looking at lexer.ts'));
    const peek = await callTool<TaskOutputOutput>(
      taskOutputTool,
      { task_id: 'scout', block: false },
      context,
    );
    expect(peek.data.retrieval_status).toBe('not_ready');
    expect(peek.data.task).toMatchObject({ task_id: agent.id, task_type: 'local_agent', status: 'running' });
    expect(peek.data.task.output).toContain('[message] looking at lexer.ts');

    const waiting = callTool<TaskOutputOutput>(taskOutputTool, { task_id: agent.id }, context);
    worker.last.end({ finalText: 'Tokens are made in lexer.ts:40' });
    const done = await waiting;
    expect(done.data.retrieval_status).toBe('success');
    expect(done.data.task).toMatchObject({ status: 'completed', result: 'Tokens are made in lexer.ts:40' });
    const text = resultText(taskOutputTool, done);
    expect(text).toContain(`Background agent ${agent.id} (Survey the parser): completed.`);
    expect(text).toContain('Result:\nTokens are made in lexer.ts:40');
    expect(text).not.toContain('looking at lexer.ts');
  });

  it('a blocking wait that runs out says so and leaves the agent running', async () => {
    const { context } = launchAgent();
    const out = await callTool<TaskOutputOutput>(taskOutputTool, { task_id: 'scout', timeout: 0 }, context);
    expect(out.data.retrieval_status).toBe('timeout');
    expect(resultText(taskOutputTool, out)).toContain('running (the wait timed out)');
  });

  it('names the shells and agents there are when the id is wrong', async () => {
    const { context, agent } = launchAgent();
    await expect(callTool(taskOutputTool, { task_id: 'bash_4' }, context)).rejects.toThrow(
      `No background task with id bash_4. Known background agents: ${agent.id} "scout" (Survey the parser).`,
    );
  });
});

describe('TaskStop on a background agent', () => {
  it('aborts its loop; it ends as killed', async () => {
    const { context, worker, agent } = launchAgent();
    const stopped = await callTool<TaskStopOutput>(taskStopTool, { task_id: 'scout' }, context);
    expect(worker.last.request.signal.aborted).toBe(true);
    expect(stopped.data).toMatchObject({ task_id: agent.id, task_type: 'local_agent' });
    expect(stopped.data.message).toContain('final status: killed');
    expect(context.services.agentTasks.get(agent.id)?.status).toBe('killed');
    const again = await callTool<TaskStopOutput>(taskStopTool, { task_id: agent.id }, context);
    expect(again.data.message).toContain('was not running any more (killed)');
  });

  it('refuses an agent that would stop itself (it would wait for its own call)', async () => {
    const { context, agent } = launchAgent();
    await expect(
      callTool(taskStopTool, { task_id: 'scout' }, { ...context, agentId: agent.id }),
    ).rejects.toThrow('An agent cannot stop itself');
    expect(context.services.agentTasks.get(agent.id)?.status).toBe('running');
  });
});
