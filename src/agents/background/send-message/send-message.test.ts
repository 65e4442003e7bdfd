import { afterEach, describe, expect, it } from 'vitest';
import { bashTool } from '../../../tools/builtin/bash/index';
import { callTool, makeTestContext } from '../../../tools/builtin/shared/test-context';
import { ScriptedWorker } from '../test-support';
import { type SendMessageOutput, sendMessageTool } from './index';

const contexts: ReturnType<typeof makeTestContext>[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.services.dispose()));
});

function withAgent() {
  const context = makeTestContext();
  contexts.push(context);
  const worker = new ScriptedWorker();
  const agent = context.services.agentTasks.launch({
    name: 'docs-writer',
    description: 'Write the docs',
    prompt: 'Document the CLI flags',
    agentType: 'general-purpose',
    toolUseId: 'toolu_3',
    sessionDir: context.sessionDir,
    launcher: worker.launcher,
    onFinished: () => {},
  });
  return { context, worker, agent };
}

describe('SendMessage', () => {
  it('queues a follow-up for a running agent', async () => {
    const { context, worker, agent } = withAgent();
    const out = await callTool<SendMessageOutput>(
      sendMessageTool,
      { to: 'docs-writer', message: 'Include --agents.' },
      context,
    );
    expect(out.data).toMatchObject({ delivery: 'queued', agentId: agent.id });
    expect(worker.last.inbox).toEqual([{ kind: 'prompt', content: 'Include --agents.' }]);
  });

  it('continues a finished agent with its own conversation', async () => {
    const { context, worker, agent } = withAgent();
    worker.last.end();
    await context.services.agentTasks.wait(agent.id, 1000, new AbortController().signal);
    const out = await callTool<SendMessageOutput>(
      sendMessageTool,
      { to: agent.id, message: 'Now the examples.' },
      context,
    );
    expect(out.data.delivery).toBe('resumed');
    expect(out.data.message).toContain('was completed and now continues');
    expect(worker.runs).toHaveLength(2);
    expect(worker.last.request.prompt).toBe('Now the examples.');
    expect(worker.last.request.priorMessages.length).toBeGreaterThan(0);
  });

  it('refuses a shell id and an unknown name, naming the agents there are', async () => {
    const { context, agent } = withAgent();
    await callTool(bashTool, { command: 'true', run_in_background: true }, context);
    await expect(callTool(sendMessageTool, { to: 'bash_1', message: 'hi' }, context)).rejects.toThrow(
      'bash_1 is a background shell, which cannot take messages',
    );
    await expect(callTool(sendMessageTool, { to: 'nobody', message: 'hi' }, context)).rejects.toThrow(
      `No background task with id nobody. Known background agents: ${agent.id} "docs-writer" (Write the docs).`,
    );
    await expect(callTool(sendMessageTool, { to: 'docs-writer', message: '  ' }, context)).rejects.toThrow(
      'The message is empty',
    );
  });
});
