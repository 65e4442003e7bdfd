/** Background agents on the real runAgent and query loop, with a FakeProvider as the model. */
import { afterEach, describe, expect, it } from 'vitest';
import { text } from '../../engine/query-test-support';
import type { ModelRequest } from '../../model/types';
import { FakeProvider, type FakeStep } from '../../testing/fake-provider';
import type { ToolNotification } from '../../tools/context';
import { definition, parentWithRuntime } from '../test-support';
import { launchBackgroundAgent } from './launch';

const echoCall = (id: string) => ({
  content: [{ type: 'tool_use' as const, id, name: 'Echo', input: { text: id } }],
});

/** Holds the model's answer to one request until the test opens it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

// Each test's session ends after it: its agents stopped and their output files written, so no
// write lands after the test file's temp folder is gone.
const sessions: { dispose(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((services) => services.dispose()));
});

function setup(script: (request: ModelRequest, index: number) => FakeStep, held?: Promise<void>) {
  const provider = new FakeProvider(script, {
    sleep: (_ms, signal) =>
      new Promise((resolve, reject) => {
        const stop = () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
        if (signal?.aborted) return stop();
        signal?.addEventListener('abort', stop, { once: true });
        void held?.then(() => resolve());
      }),
  });
  const { parent } = parentWithRuntime(provider);
  sessions.push(parent.services);
  const notices: ToolNotification[] = [];
  const context = { ...parent, messages: [], notify: (n: ToolNotification) => notices.push(n) };
  const launch = () =>
    launchBackgroundAgent({
      parent: context,
      definition: definition(),
      prompt: 'Count the files.',
      description: 'Count files',
      name: 'counter',
      toolUseId: 'toolu_bg1',
    });
  const tasks = parent.services.agentTasks;
  const ended = (id: string) => tasks.wait(id, 60_000, new AbortController().signal);
  return { provider, notices, launch, tasks, ended, context };
}

const userTexts = (request: ModelRequest | undefined) => JSON.stringify(request?.messages ?? []);

describe('launchBackgroundAgent', () => {
  it('returns async_launched at once and notifies the parent with the result when the worker ends', async () => {
    const { provider, notices, launch, tasks, ended } = setup((_r, i) =>
      i === 0 ? echoCall('t1') : text('There are 3 files.'),
    );
    const out = launch();
    expect(out).toMatchObject({
      status: 'async_launched',
      description: 'Count files',
      prompt: 'Count the files.',
    });
    expect(out.agentId).toMatch(/^a[0-9a-f]{16}$/);
    expect(out.message).toContain(`SendMessage with to: '${out.agentId}'`);
    expect(notices).toHaveLength(0);
    await ended(out.agentId);
    expect(tasks.get(out.agentId)).toMatchObject({ status: 'completed', result: 'There are 3 files.' });
    expect(notices).toHaveLength(1);
    expect(notices[0]?.toolUseId).toBe('toolu_bg1');
    expect(notices[0]?.forModel).toContain('<result>There are 3 files.</result>');
    expect(notices[0]?.forModel).toContain('<tool_uses>1</tool_uses>');
    // The worker started fresh: its first request holds its task and nothing of the parent's.
    expect(provider.requests[0]?.messages).toHaveLength(1);
  });

  it('a follow-up sent while it runs reaches the worker at its next turn boundary', async () => {
    const held = gate();
    const { provider, notices, launch, tasks, ended } = setup(
      (_r, i) =>
        i === 0 ? { reply: echoCall('t1'), delayMs: 1 } : text('Counted, and checked the docs too.'),
      held.opened,
    );
    const { agentId } = launch();
    await new Promise((resolve) => setImmediate(resolve));
    expect(tasks.send('counter', 'Also look at docs/.')).toBe('queued');
    held.open();
    await ended(agentId);
    expect(provider.requests).toHaveLength(2);
    expect(userTexts(provider.requests[0])).not.toContain('Also look at docs/.');
    expect(userTexts(provider.requests[1])).toContain('Also look at docs/.');
    expect(notices).toHaveLength(1);
  });

  it('a follow-up to a finished agent continues its own conversation and notifies again', async () => {
    const { provider, notices, launch, tasks, ended } = setup((_r, i) =>
      i === 0 ? text('3 files.') : text('Of those, 1 is a test.'),
    );
    const { agentId } = launch();
    await ended(agentId);
    expect(tasks.send(agentId, 'How many are tests?')).toBe('resumed');
    await ended(agentId);
    const second = provider.requests[1];
    expect(second?.messages).toHaveLength(3);
    expect(userTexts(second)).toContain('Count the files.');
    expect(userTexts(second)).toContain('3 files.');
    expect(userTexts(second)).toContain('How many are tests?');
    expect(notices.map((n) => n.forModel?.match(/<result>(.*)<\/result>/)?.[1])).toEqual([
      '3 files.',
      'Of those, 1 is a test.',
    ]);
    expect(tasks.get(agentId)?.runs).toBe(2);
  });

  it('stopping it aborts the model call in flight; it ends as killed and nobody is notified', async () => {
    const held = gate();
    const { notices, launch, tasks } = setup(() => ({ reply: text('never'), delayMs: 1 }), held.opened);
    const { agentId } = launch();
    await new Promise((resolve) => setImmediate(resolve));
    const stopped = await tasks.stop(agentId);
    expect(stopped.status).toBe('killed');
    expect(notices).toHaveLength(0);
  });
});
