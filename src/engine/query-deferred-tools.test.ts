/**
 * The query loop with deferred tools: what each request carries before and after the model
 * loads a tool with ToolSearch (tools/deferral), over the fake provider.
 */
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../model/types';
import { createUserMessage } from '../session/messages';
import { createBuiltinTools } from '../tools/builtin';
import { syntheticMcpServerTools } from '../tools/deferral/synthetic-tools';
import { makeContext } from '../tools/test-support';
import { requestsOf, runQuery, text } from './query-test-support';

const pool = [...createBuiltinTools(), ...syntheticMcpServerTools('github', 80)];
const toolNames = (request: ModelRequest | undefined) => (request?.tools ?? []).map((tool) => tool.name);
const systemText = (request: ModelRequest | undefined) =>
  (request?.system ?? []).map((part) => part.text).join('\n');

describe('deferred tools in the query loop', () => {
  it('names deferred tools only, loads one with ToolSearch, and keeps it loaded', async () => {
    const { provider, terminal } = await runQuery(
      [
        {
          content: [
            {
              type: 'tool_use',
              id: 't1',
              name: 'ToolSearch',
              input: { query: 'select:mcp__github__create_issue' },
            },
          ],
        },
        {
          content: [
            { type: 'tool_use', id: 't2', name: 'mcp__github__create_issue', input: { workspace: 'acme' } },
          ],
        },
        text('Created.'),
      ],
      {
        messages: [createUserMessage('open an issue')],
        toolUseContext: makeContext(pool),
      },
    );
    expect(terminal.reason).toBe('completed');
    const [first, second, third] = requestsOf(provider);

    expect(toolNames(first)).toContain('ToolSearch');
    expect(toolNames(first).some((name) => name.startsWith('mcp__'))).toBe(false);
    expect(systemText(first)).toContain('Deferred tools (80)');
    expect(systemText(first)).toContain('\nmcp__github__create_issue\n');

    // The reference is in the history; the schema follows the others, marked for defer_loading.
    expect(second?.tools?.at(-1)).toMatchObject({ name: 'mcp__github__create_issue', deferLoading: true });
    expect(toolNames(second).slice(0, -1)).toEqual(toolNames(first));
    expect(JSON.stringify(second?.messages)).toContain(
      '{"type":"tool_reference","tool_name":"mcp__github__create_issue"}',
    );
    // The call ran (it was loaded), and nothing before it in the request changed.
    expect(JSON.stringify(third?.messages)).toContain('github/create_issue ran with');
    expect(toolNames(third)).toEqual(toolNames(second));
    expect(third?.system).toEqual(first?.system);
  });

  it('sends every schema and no ToolSearch when the deferrable ones fit the budget', async () => {
    const small = [...createBuiltinTools(), ...syntheticMcpServerTools('tiny', 3)];
    const { provider } = await runQuery([text('Hi.')], { toolUseContext: makeContext(small) });
    const [request] = requestsOf(provider);
    expect(toolNames(request)).toContain('mcp__tiny__create_issue');
    expect(toolNames(request)).not.toContain('ToolSearch');
    expect(systemText(request)).not.toContain('Deferred tools');
  });
});
