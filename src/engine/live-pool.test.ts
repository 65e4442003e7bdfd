/**
 * A live tool pool in the engine (what MCP servers use): the pool is read at each turn and again
 * after each tool round, `system/init` takes its facts, its notices reach the model once per
 * change, and a prompt's context follows the prompt.
 */
import { describe, expect, it } from 'vitest';
import { noopHooks } from '../hooks/types';
import * as z from '../lib/zod';
import { allowAll } from '../permissions/types';
import { FakeProvider, type FakeStep } from '../testing/fake-provider';
import { buildTool } from '../tools/tool';
import { QueryEngine } from './query-engine';
import type { LiveToolPool } from './query-engine-config';
import { echoTool, text } from './query-test-support';
import type { SDKMessage } from './sdk-messages';

const lateTool = buildTool({
  name: 'mcp__srv__late',
  tier: 'read',
  isMcp: true,
  inputSchema: z.object({}),
  prompt: 'Arrives later.',
  call: async () => ({ data: 'late result' }),
});

function setup() {
  const state = { connected: false, notices: ['MCP server "srv" is still connecting.'] };
  const live: LiveToolPool = {
    tools: () => (state.connected ? [echoTool(), lateTool] : [echoTool()]),
    initExtras: () => ({ mcp_servers: [{ name: 'srv', status: state.connected ? 'connected' : 'pending' }] }),
    notices: () => state.notices,
    promptContext: async (prompt) =>
      prompt.includes('@srv:') ? [`contents of ${prompt.split(' ').at(-1)}`] : [],
  };
  const steps: FakeStep[] = [
    // The first call: the server is still connecting; the model uses a tool meanwhile.
    { content: [{ type: 'tool_use', id: 'e1', name: 'Echo', input: { text: 'x' } }] },
    { content: [{ type: 'tool_use', id: 'l1', name: 'mcp__srv__late', input: {} }] },
    text('done'),
    text('second'),
  ];
  const provider = new FakeProvider((_request, index) => {
    // The server finishes connecting while the first response streams.
    if (index === 0) {
      state.connected = true;
      state.notices = [];
    }
    return steps[index] as FakeStep;
  });
  const engine = new QueryEngine({
    cwd: '/project',
    provider,
    model: 'claude-opus-5-5',
    tools: [],
    livePool: live,
    canUseTool: allowAll,
    hooks: noopHooks,
    environment: { cwd: '/project', platform: 'linux', date: '2026-12-01', isGitRepo: false, model: 'm' },
  });
  return { engine, provider };
}

async function turn(engine: QueryEngine, prompt: string): Promise<SDKMessage[]> {
  const out: SDKMessage[] = [];
  for await (const m of engine.submitMessage(prompt)) out.push(m);
  return out;
}

const names = (provider: FakeProvider, i: number) => (provider.requests[i]?.tools ?? []).map((t) => t.name);

describe('a live tool pool', () => {
  it('joins tools after a tool round, tells notices once per change, and adds a prompt’s context', async () => {
    const { engine, provider } = setup();
    const first = await turn(engine, 'use @srv:doc://a');
    expect(first[0]).toMatchObject({ subtype: 'init', mcp_servers: [{ name: 'srv', status: 'pending' }] });
    expect(names(provider, 0)).toEqual(['Echo']);
    expect(names(provider, 1)).toEqual(['Echo', 'mcp__srv__late']);
    const firstRequest = JSON.stringify(provider.requests[0]?.messages);
    expect(firstRequest).toContain('MCP server \\"srv\\" is still connecting.');
    expect(firstRequest).toContain('contents of @srv:doc://a');
    expect(JSON.stringify(provider.requests[2]?.messages)).toContain('late result');

    const second = await turn(engine, 'again');
    expect(second[0]).toMatchObject({ subtype: 'init', mcp_servers: [{ name: 'srv', status: 'connected' }] });
    const told = JSON.stringify(provider.requests[3]?.messages);
    expect(told.match(/still connecting/g)).toHaveLength(1);
    expect(told).toContain('Every MCP server the model was told about is connected now.');
  });
});
