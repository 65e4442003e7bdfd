import { describe, expect, it } from 'vitest';
import { type HookRunner, noopHooks } from '../hooks/types';
import type { CanUseToolFn } from '../permissions/types';
import type { ToolUseContext } from './context';
import { drain, executorFor, harness, ids, settle, take } from './executor-test-harness';
import { assistantWith, contentText, toolResults, toolUse } from './test-support';
import type { ToolEvent } from './tool-events';

describe('StreamingToolExecutor: scheduling', () => {
  it('starts a safe call at once and can finish it before the next tool_use arrives', async () => {
    const h = harness();
    const grep = h.make('Grep', { safe: true });
    const { executor, add } = executorFor([grep]);

    add('Grep', 'g1');
    await h.whenStarted('g1');
    expect(h.started).toEqual(['g1']);
    h.release('g1');
    // The model is still streaming: nothing else was added, yet g1's result is ready.
    const early = await take(executor, 3);
    expect(ids(early)).toEqual(['g1']);
    expect(early[0]).toEqual({ type: 'tool_started', toolUseId: 'g1', toolName: 'Grep' });
    expect(early[1]).toMatchObject({ type: 'tool_progress', toolName: 'Grep' });
    expect(executor.hasPending).toBe(false);

    add('Grep', 'g2');
    expect(executor.hasPending).toBe(true);
    h.release('g2');
    expect(ids(await drain(executor))).toEqual(['g2']);
  });

  it('holds an unsafe call until the running calls finish, and later calls behind it', async () => {
    const h = harness();
    const { executor, add } = executorFor([h.make('Grep', { safe: true }), h.make('Edit')]);
    add('Grep', 'g1');
    add('Edit', 'e1');
    add('Grep', 'g2');
    await h.whenStarted('g1');
    await settle();
    expect(h.started).toEqual(['g1']);

    h.release('g1');
    await h.whenStarted('e1');
    await settle();
    expect(h.started).toEqual(['g1', 'e1']);

    h.release('e1');
    h.release('g2');
    expect(ids(await drain(executor))).toEqual(['g1', 'e1', 'g2']);
    expect(h.maxRunning).toBe(1);
  });

  it("reports a queued call's start when it starts, after the call it waited for ended", async () => {
    const h = harness();
    const { executor, add } = executorFor([h.make('Grep', { safe: true }), h.make('Edit')]);
    add('Grep', 'g1');
    add('Edit', 'e1');
    await h.whenStarted('g1');
    // What is out now: g1's start and progress; e1 waits and says nothing of a start.
    const sofar = await take(executor, 2);
    expect(sofar.map((event) => event.type)).toEqual(['tool_started', 'tool_progress']);
    h.release('g1');
    await h.whenStarted('e1');
    h.release('e1');
    const rest = await drain(executor);
    const started = (id: string) =>
      rest.findIndex((event) => event.type === 'tool_started' && event.toolUseId === id);
    const resultOf = (id: string) => rest.findIndex((event) => ids([event])[0] === id);
    expect(started('e1')).toBeGreaterThan(resultOf('g1'));
    expect(started('e1')).toBeLessThan(resultOf('e1'));
  });

  it('runs [Grep, Grep, Write, Read, Read] as three batches: reads together, the write alone', async () => {
    const h = harness();
    const tools = [h.make('Grep', { safe: true }), h.make('Write'), h.make('Read', { safe: true })];
    const { executor, add } = executorFor(tools);
    add('Grep', 'g1');
    add('Grep', 'g2');
    add('Write', 'w');
    add('Read', 'r1');
    add('Read', 'r2');
    await Promise.all([h.whenStarted('g1'), h.whenStarted('g2')]);
    await settle();
    expect(h.started).toEqual(['g1', 'g2']);

    h.release('g1');
    await settle();
    expect(h.started).toEqual(['g1', 'g2']);
    h.release('g2');
    await h.whenStarted('w');
    await settle();
    expect(h.started).toEqual(['g1', 'g2', 'w']);

    h.release('w');
    await Promise.all([h.whenStarted('r1'), h.whenStarted('r2')]);
    h.release('r2');
    h.release('r1');
    expect(ids(await drain(executor))).toEqual(['g1', 'g2', 'w', 'r1', 'r2']);
    expect(h.maxRunning).toBe(2);
  });

  it('refuses a call added after the response was complete', () => {
    const h = harness();
    const { executor, add } = executorFor([h.make('Grep', { safe: true })]);
    executor.end();
    expect(() => add('Grep', 'late')).toThrow('a tool call was added after end()');
  });

  it('runs at most 10 safe calls at once by default', async () => {
    const h = harness();
    const { executor, add } = executorFor([h.make('Grep', { safe: true })]);
    const all = Array.from({ length: 12 }, (_, i) => `g${i}`);
    for (const id of all) add('Grep', id);
    await Promise.all(all.slice(0, 10).map((id) => h.whenStarted(id)));
    await settle();
    expect(h.started).toHaveLength(10);

    h.release('g3');
    await h.whenStarted('g10');
    await settle();
    expect(h.started).toHaveLength(11);
    for (const id of all) h.release(id);
    expect(ids(await drain(executor))).toEqual(all);
    expect(h.maxRunning).toBe(10);
  });

  it('honours a configured concurrency limit', async () => {
    const h = harness();
    const { executor, add } = executorFor([h.make('Grep', { safe: true })], { maxConcurrency: 2 });
    for (const id of ['a', 'b', 'c']) add('Grep', id);
    await Promise.all([h.whenStarted('a'), h.whenStarted('b')]);
    await settle();
    expect(h.started).toEqual(['a', 'b']);
    for (const id of ['a', 'b', 'c']) h.release(id);
    expect(ids(await drain(executor))).toEqual(['a', 'b', 'c']);
    expect(h.maxRunning).toBe(2);
  });

  it('yields results in model order even when a later call finishes first', async () => {
    const h = harness();
    const { executor, add } = executorFor([h.make('Grep', { safe: true })]);
    add('Grep', 'first');
    add('Grep', 'second');
    await Promise.all([h.whenStarted('first'), h.whenStarted('second')]);
    h.release('second');
    await settle();

    const sofar = await take(executor, 4);
    expect(sofar.every((event) => event.type === 'tool_progress' || event.type === 'tool_started')).toBe(
      true,
    );
    const reader = executor.results[Symbol.asyncIterator]();
    let third: IteratorResult<ToolEvent> | undefined;
    const reading = reader.next().then((step) => {
      third = step;
    });
    await settle();
    // 'second' is done, but its result waits for 'first'.
    expect(third).toBeUndefined();

    h.release('first');
    await reading;
    expect(ids([third!.value!])).toEqual(['first']);
    expect(ids(await drain(executor))).toEqual(['second']);
  });
});

describe('StreamingToolExecutor: failures and interrupts', () => {
  it('cancels running siblings when a call of a tool that says so fails, but still runs calls queued after', async () => {
    const h = harness();
    const tools = [
      h.make('Bash', { safe: true, failureCancelsSiblings: true }),
      h.make('Grep', { safe: true }),
      h.make('Edit'),
    ];
    const querySignal = new AbortController().signal;
    const { executor, add } = executorFor(tools, { contextOverrides: { abortSignal: querySignal } });
    add('Grep', 'g1');
    add('Bash', 'b1');
    add('Edit', 'e1');
    const [grepSignal] = await Promise.all([h.whenStarted('g1'), h.whenStarted('b1')]);

    h.release('b1', 'fail');
    await h.whenStarted('e1');
    expect(grepSignal.aborted).toBe(true);
    expect(querySignal.aborted).toBe(false);
    h.release('e1');

    const results = toolResults(await drain(executor));
    expect(results.map((r) => [r.tool_use_id, r.is_error ?? false])).toEqual([
      ['g1', true],
      ['b1', true],
      ['e1', false],
    ]);
    expect(contentText(results[0]!)).toMatch(/sibling Bash command .*failed/);
    expect(contentText(results[2]!)).toBe('Edit e1 done');
  });

  it('does not cancel siblings when another tool fails, whatever its name', async () => {
    const h = harness();
    // Named like the shell, but without the fact: the name decides nothing.
    const { executor, add } = executorFor([h.make('Grep', { safe: true }), h.make('Bash', { safe: true })]);
    add('Bash', 'bad');
    add('Grep', 'good');
    const [, goodSignal] = await Promise.all([h.whenStarted('bad'), h.whenStarted('good')]);
    h.release('bad', 'fail');
    await settle();
    expect(goodSignal.aborted).toBe(false);
    h.release('good');
    const results = toolResults(await drain(executor));
    expect(results.map((r) => r.is_error ?? false)).toEqual([true, false]);
  });

  it('on interrupt cancels `cancel` tools, lets `block` tools finish, and never starts queued calls', async () => {
    const h = harness();
    const interrupt = new AbortController();
    const tools = [
      h.make('Fetch', { safe: true, interrupt: 'cancel' }),
      h.make('Build', { safe: true }),
      h.make('Edit'),
    ];
    const { executor, add } = executorFor(tools, { contextOverrides: { abortSignal: interrupt.signal } });
    add('Fetch', 'f1');
    add('Build', 'k1');
    add('Edit', 'e1');
    const [fetchSignal, buildSignal] = await Promise.all([h.whenStarted('f1'), h.whenStarted('k1')]);

    interrupt.abort();
    expect(fetchSignal.aborted).toBe(true);
    expect(buildSignal.aborted).toBe(false);
    await settle();
    expect(executor.hasPending).toBe(true);
    h.release('k1');
    add('Edit', 'e2');

    const results = toolResults(await drain(executor));
    expect(results.map((r) => [r.tool_use_id, r.is_error ?? false])).toEqual([
      ['f1', true],
      ['k1', false],
      ['e1', true],
      ['e2', true],
    ]);
    expect(contentText(results[0]!)).toMatch(/interrupted by user/i);
    expect(contentText(results[1]!)).toBe('Build k1 done');
    expect(contentText(results[2]!)).toMatch(/Interrupted by user/);
    expect(contentText(results[3]!)).toMatch(/Interrupted by user/);
    expect(h.started).toEqual(['f1', 'k1']);
  });

  it('discard aborts running calls and yields nothing more', async () => {
    const h = harness();
    const { executor, add } = executorFor([h.make('Grep', { safe: true }), h.make('Edit')]);
    add('Grep', 'g1');
    add('Edit', 'e1');
    const signal = await h.whenStarted('g1');

    executor.discard();
    expect(signal.aborted).toBe(true);
    expect(executor.hasPending).toBe(false);
    h.release('g1');
    await settle();
    expect(await drain(executor)).toEqual([]);
    add('Grep', 'late');
    await settle();
    expect(h.started).toEqual(['g1']);
  });

  it('gives every tool_use exactly one result, whatever happens to it', async () => {
    const h = harness();
    const canUseTool: CanUseToolFn = async ({ toolUseId }) =>
      toolUseId === 'denied' ? { behavior: 'deny', message: 'Denied.' } : { behavior: 'allow' };
    const hooks: HookRunner = {
      ...noopHooks,
      postToolUse: async () => ({ preventContinuation: { stopReason: 'enough' } }),
    };
    const { executor, add } = executorFor([h.make('Grep', { safe: true })], { canUseTool, hooks });
    add('Grep', 'ok');
    add('Nope', 'unknown');
    add('Grep', 'invalid', { id: 42 });
    add('Grep', 'denied');
    const malformed = toolUse('Grep', {}, 'malformed');
    executor.addTool(malformed, assistantWith([malformed]), '{"id": ');
    h.release('ok');

    const events = await drain(executor);
    expect(ids(events)).toEqual(['ok', 'unknown', 'invalid', 'denied', 'malformed']);
    expect(events.filter((e) => e.type === 'permission_denied')).toHaveLength(1);
    expect(executor.preventContinuation).toEqual({ stopReason: 'enough' });
  });
});

describe('StreamingToolExecutor: context', () => {
  it('applies context modifiers in model order, and a later serial call sees them', async () => {
    const h = harness();
    const appendCwd = (part: string) => (ctx: ToolUseContext) => ({ ...ctx, cwd: `${ctx.cwd}/${part}` });
    const tools = [
      h.make('A', { safe: true, modifier: appendCwd('a') }),
      h.make('B', { safe: true, modifier: appendCwd('b') }),
      h.make('Edit'),
    ];
    const { executor, add, context } = executorFor(tools);
    add('A', 'a1');
    add('B', 'b1');
    add('Edit', 'e1');
    await Promise.all([h.whenStarted('a1'), h.whenStarted('b1')]);

    h.release('b1');
    await settle();
    expect(executor.context.cwd).toBe(context.cwd);

    h.release('a1');
    await h.whenStarted('e1');
    expect(h.cwdSeen.get('e1')).toBe(`${context.cwd}/a/b`);
    h.release('e1');
    await drain(executor);
    expect(executor.context.cwd).toBe(`${context.cwd}/a/b`);
  });
});
