import { describe, expect, it } from 'vitest';
import { MODEL, text } from '../engine/query-test-support';
import * as z from '../lib/zod';
import { messageText } from '../session/messages';
import { FakeProvider } from '../testing/fake-provider';
import { buildTool } from '../tools/tool';
import { runAgent } from './run-agent';
import { definition, ManualClock, parentWithRuntime, tierPool } from './test-support';

const usage = { inputTokens: 1000, outputTokens: 200, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
const echoCall = (id: string) => ({
  content: [{ type: 'tool_use' as const, id, name: 'Echo', input: { text: id } }],
  usage,
});

describe('runAgent', () => {
  it('runs the worker in a fresh context and reports text, usage, tool uses and cost', async () => {
    const provider = new FakeProvider([echoCall('t1'), { ...text('Found three files.'), usage }]);
    const { parent } = parentWithRuntime(provider);
    const costBefore = parent.services.costs.total().costUsd;
    const result = await runAgent({
      definition: definition(),
      prompt: 'List the files.',
      parent: { ...parent, messages: [] },
      signal: new AbortController().signal,
    });

    expect(result.finalText).toBe('Found three files.');
    expect(result.endReason).toBe('completed');
    expect(result.toolUses).toBe(1);
    expect(result.totalTokens).toBe(2400);
    expect(result.agentId).toMatch(/^a[0-9a-f]{16}$/);
    expect(result.costUsd).toBeGreaterThan(0);
    // The session's tracker includes the child's calls: the parent's cost and budget see them.
    expect(parent.services.costs.total().costUsd - costBefore).toBeCloseTo(result.costUsd);

    const [first] = provider.requests;
    expect(first?.system.map((part) => part.text).join('\n')).toContain(
      'You are the helper agent of a test.',
    );
    expect(first?.system.map((part) => part.text).join('\n')).toContain('Project rule: be brief.');
    expect(first?.messages).toHaveLength(1);
    expect(JSON.stringify(first?.messages[0])).toContain('List the files.');
  });

  it('offers a read-tier agent only read tools, and no agent ever the Agent tool', async () => {
    const provider = new FakeProvider([text('ok'), text('ok')]);
    const { parent } = parentWithRuntime(provider, { pool: tierPool() });
    const signal = new AbortController().signal;
    await runAgent({ definition: definition({ maxTier: 'read' }), prompt: 'look', parent, signal });
    await runAgent({ definition: definition(), prompt: 'do', parent, signal });
    const offered = provider.requests.map((request) => request.tools?.map((tool) => tool.name));
    expect(offered[0]).toEqual(['Echo']);
    expect(offered[1]).toEqual(['Echo', 'Run', 'Scribble']);
  });

  it('applies the allow-list and the deny-list of a definition', async () => {
    const provider = new FakeProvider([text('ok'), text('ok')]);
    const { parent } = parentWithRuntime(provider);
    const signal = new AbortController().signal;
    await runAgent({ definition: definition({ tools: ['Echo', 'Scribble'] }), prompt: 'a', parent, signal });
    await runAgent({ definition: definition({ disallowedTools: ['Run'] }), prompt: 'b', parent, signal });
    const offered = provider.requests.map((request) => request.tools?.map((tool) => tool.name));
    expect(offered).toEqual([
      ['Echo', 'Scribble'],
      ['Echo', 'Scribble'],
    ]);
  });

  it('stops a runaway worker at its turn limit', async () => {
    const provider = new FakeProvider((_request, index) => echoCall(`t${index}`));
    const { parent } = parentWithRuntime(provider);
    const result = await runAgent({
      definition: definition({ budget: { maxTurns: 3 } }),
      prompt: 'loop',
      parent,
      signal: new AbortController().signal,
    });
    expect(result.endReason).toBe('max_turns');
    expect(result.endMessage).toBe('The agent reached its turn limit (3 turns).');
    expect(provider.requests).toHaveLength(3);
  });

  it('stops a runaway worker when its token budget is spent (the call narrows the definition)', async () => {
    const provider = new FakeProvider((_request, index) => echoCall(`t${index}`));
    const { parent } = parentWithRuntime(provider);
    const result = await runAgent({
      definition: definition({ budget: { maxTokens: 100_000 } }),
      budget: { maxTokens: 2500 },
      prompt: 'loop',
      parent,
      signal: new AbortController().signal,
    });
    expect(result.endReason).toBe('max_tokens');
    expect(result.endMessage).toContain('2500 tokens');
    // 1200 tokens a call: the third call passes 2500, and no fourth is made.
    expect(provider.requests).toHaveLength(3);
  });

  it('stops a runaway worker when its wall time runs out, on the injected clock', async () => {
    const clock = new ManualClock();
    // Each model call takes a minute of the test's clock.
    const provider = new FakeProvider((_request, index) => {
      clock.advance(60_000);
      return echoCall(`t${index}`);
    });
    const { parent } = parentWithRuntime(provider, { clock });
    const result = await runAgent({
      definition: definition(),
      budget: { maxDurationMs: 150_000 },
      prompt: 'loop',
      parent,
      signal: new AbortController().signal,
    });
    expect(result.endReason).toBe('max_duration');
    expect(result.endMessage).toBe("The agent's time limit (150 s) ran out.");
    expect(provider.requests.length).toBeLessThanOrEqual(3);
    expect(result.durationMs).toBeGreaterThanOrEqual(150_000);
  });

  it('stops when the parent is interrupted', async () => {
    const parentAbort = new AbortController();
    const provider = new FakeProvider((_request, index) => {
      if (index === 1) parentAbort.abort();
      return echoCall(`t${index}`);
    });
    const { parent } = parentWithRuntime(provider);
    const result = await runAgent({
      definition: definition(),
      prompt: 'x',
      parent,
      signal: parentAbort.signal,
    });
    expect(['aborted_streaming', 'aborted_tools']).toContain(result.endReason);
    expect(provider.requests).toHaveLength(2);
  });

  it('continues an earlier run with its own conversation (SendMessage)', async () => {
    const provider = new FakeProvider([text('First answer.'), text('Second answer.')]);
    const { parent } = parentWithRuntime(provider);
    const signal = new AbortController().signal;
    const first = await runAgent({ definition: definition(), prompt: 'one', parent, signal });
    const second = await runAgent({
      definition: definition(),
      prompt: 'two',
      priorMessages: first.messages,
      agentId: first.agentId,
      parent,
      signal,
    });
    expect(second.agentId).toBe(first.agentId);
    expect(second.finalText).toBe('Second answer.');
    const texts = provider.requests[1]?.messages.map((message) =>
      typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
    );
    expect(texts?.join('|')).toContain('First answer.');
    expect(second.messages.filter((m) => m.type === 'user').map((m) => messageText(m))).toEqual([
      'one',
      'two',
    ]);
  });

  it('uses the model the call names, else the definition, else the parent', async () => {
    const provider = new FakeProvider([text('a'), text('b'), text('c')]);
    const { parent } = parentWithRuntime(provider);
    const signal = new AbortController().signal;
    await runAgent({ definition: definition(), prompt: 'x', parent, signal });
    await runAgent({ definition: definition({ model: 'claude-haiku-4-5' }), prompt: 'x', parent, signal });
    await runAgent({
      definition: definition({ model: 'claude-haiku-4-5' }),
      model: 'claude-opus-4-1',
      prompt: 'x',
      parent,
      signal,
    });
    expect(provider.requests.map((r) => r.model)).toEqual([MODEL, 'claude-haiku-4-5', 'claude-opus-4-1']);
  });
});

describe('runAgent and the session budget', () => {
  it('stops a worker once the session total (children included) reaches --max-budget-usd', async () => {
    const provider = new FakeProvider((_request, index) => echoCall(`t${index}`));
    const { parent } = parentWithRuntime(provider, { maxBudgetUsd: 0.01 });
    const result = await runAgent({
      definition: definition(),
      prompt: 'loop',
      parent,
      signal: new AbortController().signal,
    });
    expect(result.endReason).toBe('budget_exhausted');
    expect(parent.services.costs.total().costUsd).toBeGreaterThanOrEqual(0.01);
    // Each call costs about $0.006 at Sonnet prices: the second passes the budget, no third is made.
    expect(provider.requests).toHaveLength(2);
  });
});

describe('the worker permission mode', () => {
  it("takes the definition's mode, but a parent in plan mode keeps its worker planning", async () => {
    const modes: string[] = [];
    const provider = new FakeProvider([echoCall('a'), text('ok'), echoCall('b'), text('ok')]);
    const { parent } = parentWithRuntime(provider, {
      canUseTool: async (request) => {
        modes.push(request.context.permissionContext.mode);
        return { behavior: 'allow' };
      },
    });
    const signal = new AbortController().signal;
    const acceptEdits = definition({ permissionMode: 'acceptEdits' });
    await runAgent({ definition: acceptEdits, prompt: 'x', parent, signal });
    const planning = {
      ...parent,
      getPermissionContext: () => ({ ...parent.getPermissionContext(), mode: 'plan' as const }),
    };
    await runAgent({ definition: acceptEdits, prompt: 'y', parent: planning, signal });
    expect(modes).toEqual(['acceptEdits', 'plan']);
  });
});

describe('the worker state', () => {
  it("keeps the worker's to-do list apart from the parent's", async () => {
    const seen: unknown[] = [];
    const provider = new FakeProvider([
      { content: [{ type: 'tool_use', id: 't1', name: 'Probe', input: { text: 'x' } }] },
      text('done'),
    ]);
    const probe = buildTool({
      name: 'Probe',
      tier: 'read',
      inputSchema: z.object({ text: z.string() }),
      prompt: 'Reads the to-do list.',
      isReadOnly: () => true,
      call: async (_input, context) => {
        seen.push(context.getAppState().todos.length);
        context.setAppState(() => ({ todos: [] }));
        return { data: 'ok' };
      },
    });
    const withProbe = parentWithRuntime(provider, { pool: [probe] }).parent;
    withProbe.setAppState(() => ({
      todos: [{ content: 'parent task', status: 'pending', activeForm: 'Doing it' }],
    }));
    await runAgent({
      definition: definition(),
      prompt: 'x',
      parent: withProbe,
      signal: new AbortController().signal,
    });
    expect(seen).toEqual([0]);
    expect(withProbe.getAppState().todos).toHaveLength(1);
  });
});
