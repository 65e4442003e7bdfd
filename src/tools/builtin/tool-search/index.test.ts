import { describe, expect, it } from 'vitest';
import type { MessageParam } from '../../../model/types';
import { syntheticMcpServerTools } from '../../deferral/synthetic-tools';
import { contentText, makeContext, runAllowed, toolUse } from '../../test-support';
import type { AnyTool } from '../../tool';
import { createBuiltinTools } from '..';

const pool: AnyTool[] = [...createBuiltinTools(), ...syntheticMcpServerTools('github', 60)];
const WINDOW = 200_000;

/** A session context whose latest request was planned with `history`, as the request builder does. */
function plannedContext(history: MessageParam[] = []) {
  const context = makeContext(pool);
  context.services.deferredTools.plan(pool, WINDOW, history);
  return context;
}

async function call(name: string, input: Record<string, unknown>, context = plannedContext()) {
  const result = await runAllowed(context, toolUse(name, input));
  return { result, text: contentText(result) };
}

describe('ToolSearch', () => {
  it('answers select: with one tool_reference per named tool', async () => {
    const { result } = await call('ToolSearch', {
      query: 'select:mcp__github__create_issue,mcp__github__list_label',
    });
    expect(result.is_error).toBeFalsy();
    expect(result.content).toEqual([
      { type: 'tool_reference', tool_name: 'mcp__github__create_issue' },
      { type: 'tool_reference', tool_name: 'mcp__github__list_label' },
    ]);
  });

  it('answers keywords with the best max_results matches', async () => {
    const { result } = await call('ToolSearch', { query: 'delete milestone', max_results: 2 });
    expect(result.content).toEqual([
      { type: 'tool_reference', tool_name: 'mcp__github__delete_milestone' },
      expect.objectContaining({ type: 'tool_reference' }),
    ]);
    const { result: five } = await call('ToolSearch', { query: 'milestone' });
    expect(five.content).toHaveLength(5);
  });

  it('says which selected names are loaded already or no tool, beside the ones it loaded', async () => {
    const { result } = await call('ToolSearch', {
      query: 'select:mcp__github__get_issue,Bash,mcp__gh__nope',
    });
    expect(result.content).toEqual([
      { type: 'tool_reference', tool_name: 'mcp__github__get_issue' },
      { type: 'text', text: 'Already loaded, call directly: Bash. No tool is named mcp__gh__nope.' },
    ]);
    const { text } = await call('ToolSearch', { query: 'select:Read' });
    expect(text).toBe('Already loaded, call directly: Read.');
    const { text: unknown } = await call('ToolSearch', { query: 'select:mcp__gh__nope' });
    expect(unknown).toBe(
      'No tool is named mcp__gh__nope. There are 60 deferred tools; try other words, or select:<name> with names from the list.',
    );
  });

  it('explains an empty result in words, with how many tools are deferred', async () => {
    const { result, text } = await call('ToolSearch', { query: 'kubernetes' });
    expect(result.is_error).toBeFalsy();
    expect(text).toBe(
      'No deferred tool matches "kubernetes". There are 60 deferred tools; try other words, or select:<name> with names from the list.',
    );
  });

  it('says so when nothing is deferred', async () => {
    const small = [...createBuiltinTools(), ...syntheticMcpServerTools('tiny', 2)];
    const context = makeContext(small);
    context.services.deferredTools.plan(small, WINDOW, []);
    const { text } = await call('ToolSearch', { query: 'tiny' }, context);
    expect(text).toMatch(/^No tool is deferred in this session/);
  });
});

describe('a call to a deferred tool', () => {
  it('that was never loaded is refused with how to load it, not run', async () => {
    const { result, text } = await call('mcp__github__create_issue', { workspace: 'acme' });
    expect(result.is_error).toBe(true);
    expect(text).toBe(
      'Error: mcp__github__create_issue is a deferred tool whose schema you have not loaded, so the call did not run. ' +
        'Load it with ToolSearch (query "select:mcp__github__create_issue"), then call it again as its schema says.',
    );
  });

  it('runs once a ToolSearch result in the history has loaded it', async () => {
    const history: MessageParam[] = [
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_1',
            content: [{ type: 'tool_reference', tool_name: 'mcp__github__create_issue' }],
          },
        ],
      },
    ];
    const { result, text } = await call(
      'mcp__github__create_issue',
      { workspace: 'acme' },
      plannedContext(history),
    );
    expect(result.is_error).toBeFalsy();
    expect(text).toBe('github/create_issue ran with {"workspace":"acme"}');
  });
});
