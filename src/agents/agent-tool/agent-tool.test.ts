import { describe, expect, it } from 'vitest';
import { text } from '../../engine/query-test-support';
import { isSubagentProgress } from '../../engine/subagent-progress';
import { FakeProvider } from '../../testing/fake-provider';
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

  it('is a read for a read-tier agent (allowed in plan mode) and not for general-purpose', async () => {
    expect(await tool.isReadOnly({ description: 'd', prompt: 'p', subagent_type: 'Plan' })).toBe(true);
    expect(await tool.isReadOnly({ description: 'd', prompt: 'p' })).toBe(false);
  });

  it('hands a background call to the session launcher, and refuses it readably without one', async () => {
    const { parent } = parentWithRuntime(new FakeProvider([]));
    const input = { description: 'Long job', prompt: 'Do the long job', run_in_background: true };
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
