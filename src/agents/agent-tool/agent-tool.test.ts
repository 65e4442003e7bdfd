import { describe, expect, it } from 'vitest';
import { text } from '../../engine/query-test-support';
import { isSubagentProgress } from '../../engine/subagent-progress';
import { noopHooks } from '../../hooks/types';
import { createCanUseTool } from '../../permissions/can-use-tool';
import { emptyPermissionContext, type PermissionMode } from '../../permissions/types';
import { FakeProvider } from '../../testing/fake-provider';
import { runToolUse } from '../../tools/run-tool-use';
import { assistantWith, collect, contentText, toolResults, toolUse } from '../../tools/test-support';
import type { ToolProgress } from '../../tools/tool';
import type { BackgroundLaunchRequest } from '../background-launch';
import { BUILT_IN_AGENTS } from '../built-in';
import { AgentRegistry } from '../registry';
import { agentRuntimeOf } from '../runtime';
import { parentWithRuntime } from '../test-support';
import { createAgentTool } from '.';

const registry = new AgentRegistry(BUILT_IN_AGENTS);
const tool = createAgentTool(registry);

describe('the Agent tool', () => {
  it('runs a foreground worker and streams its messages as progress of the call', async () => {
    const { parent } = parentWithRuntime(new FakeProvider([text('All found.')]));
    const progress: ToolProgress[] = [];
    const result = await tool.call(
      { description: 'Find things', prompt: 'Find the config', subagent_type: 'Explore' },
      { ...parent, toolUseId: 'toolu_1' },
      (p) => progress.push(p),
    );
    expect(result.data).toMatchObject({ status: 'completed', agentType: 'Explore', totalToolUseCount: 0 });
    expect(tool.mapResultToContent(result.data)).toMatch(
      /^All found\.\n\n\[agent a[0-9a-f]{16} \(Explore\) · 0 tool uses · /,
    );
    const events = progress.map((p) => p.data).filter(isSubagentProgress);
    expect(events.map((e) => e.event.type === 'message' && e.event.message.type)).toEqual([
      'user',
      'assistant',
    ]);
    expect(progress.every((p) => p.toolUseId === 'toolu_1')).toBe(true);
  });

  it('is a read for a read-tier agent and not for general-purpose', async () => {
    expect(await tool.isReadOnly({ description: 'd', prompt: 'p', subagent_type: 'Plan' })).toBe(true);
    expect(await tool.isReadOnly({ description: 'd', prompt: 'p', subagent_type: 'general-purpose' })).toBe(
      false,
    );
  });

  it('hands a background call to the session launcher, and refuses it readably without one', async () => {
    const { parent } = parentWithRuntime(new FakeProvider([]));
    const input = {
      description: 'Long job',
      prompt: 'Do the long job',
      subagent_type: 'general-purpose',
      run_in_background: true,
    };
    await expect(tool.call(input, { ...parent, toolUseId: 'toolu_2' }, () => {})).rejects.toThrow(
      'Background agents are not available in this session; call Agent with run_in_background: false to wait for its report.',
    );
    const launched: BackgroundLaunchRequest[] = [];
    const runtime = agentRuntimeOf(parent.services);
    if (!runtime) throw new Error('no runtime');
    runtime.background = {
      launch: async (request) => {
        launched.push(request);
        return {
          status: 'async_launched',
          agentId: 'a1',
          description: request.description,
          prompt: request.prompt,
          outputFile: '/tmp/a1.output',
          message: 'Launched a1.',
        };
      },
    };
    const result = await tool.call(input, { ...parent, toolUseId: 'toolu_2' }, () => {});
    expect(tool.mapResultToContent(result.data)).toBe('Launched a1.');
    expect(launched[0]).toMatchObject({ toolUseId: 'toolu_2', prompt: 'Do the long job' });
    expect(launched[0]?.definition.agentType).toBe('general-purpose');
  });

  it('lists the agents in its description and refuses an unknown type before running', async () => {
    expect(tool.prompt()).toContain('- Explore (read-only): ');
    const { parent } = parentWithRuntime(new FakeProvider([]));
    expect(
      await tool.validateInput({ description: 'd', prompt: 'p', subagent_type: 'ghost' }, parent),
    ).toEqual({
      ok: false,
      message: 'There is no agent named "ghost". Use one of: Explore, general-purpose, Plan.',
    });
  });
});

describe('the Agent tool under the permission decision', () => {
  async function decide(
    input: Record<string, unknown>,
    options: { deny?: string; mode?: PermissionMode } = {},
  ) {
    const provider = new FakeProvider([text('report')]);
    const { parent } = parentWithRuntime(provider);
    const rules = options.deny
      ? [
          {
            toolName: 'Agent',
            ruleContent: options.deny,
            behavior: 'deny' as const,
            source: 'userSettings' as const,
          },
        ]
      : [];
    const context = {
      ...parent,
      tools: [tool],
      getPermissionContext: () => ({ ...emptyPermissionContext(options.mode), rules }),
    };
    const block = toolUse('Agent', { description: 'd', prompt: 'p', ...input });
    const { events } = await collect(
      runToolUse({
        block,
        assistantMessage: assistantWith([block]),
        context,
        // No prompt: a headless session, where an ask would be a deny.
        canUseTool: createCanUseTool(),
        hooks: noopHooks,
        signal: context.abortSignal,
      }),
    );
    const [result] = toolResults(events);
    if (!result) throw new Error('no result');
    return {
      denied: result.is_error === true,
      text: contentText(result),
      requests: provider.requests.length,
    };
  }

  it("runs without a prompt in a headless session (the worker's own calls are decided one by one)", async () => {
    expect(await decide({})).toMatchObject({ denied: false, requests: 1 });
  });

  it('obeys a deny rule on the agent type, the default type included', async () => {
    expect(await decide({}, { deny: 'general-purpose' })).toMatchObject({ denied: true, requests: 0 });
    expect(await decide({ subagent_type: 'Explore' }, { deny: 'general-purpose' })).toMatchObject({
      denied: false,
    });
  });

  it('runs in plan mode, where its worker plans too (run-agent.test.ts)', async () => {
    expect(await decide({ subagent_type: 'Plan' }, { mode: 'plan' })).toMatchObject({
      denied: false,
      requests: 1,
    });
    expect(await decide({}, { mode: 'plan' })).toMatchObject({ denied: false, requests: 1 });
  });
});

describe('the Agent tool schema', () => {
  it('requires only description and prompt, as the reference gives it', () => {
    expect(tool.inputJsonSchema.required).toEqual(['description', 'prompt']);
    expect(Object.keys(tool.inputJsonSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['subagent_type', 'model', 'effort', 'run_in_background', 'isolation']),
    );
  });
});
