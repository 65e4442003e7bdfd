import { describe, expect, it } from 'vitest';
import * as z from '../../lib/zod';
import { createBuiltinTools } from '../builtin';
import { type AnyTool, buildTool } from '../tool';
import { type DeferralInput, deferredToolsNotice, planToolDeferral, TOOL_SEARCH_TOOL_NAME } from './plan';
import { resolveToolSearchPolicy, schemaBudget, type ToolSearchPolicy, toolSearchWarnings } from './policy';
import { syntheticMcpServerTools } from './synthetic-tools';

const auto: ToolSearchPolicy = resolveToolSearchPolicy(undefined, {}).policy;

/** A deferrable tool whose schema costs exactly `tokens` by the fixed cost function below. */
function sized(name: string, tokens: number): AnyTool {
  const tool = buildTool({
    name,
    tier: 'read',
    isMcp: true,
    inputSchema: z.object({}),
    prompt: 'x',
    call: async () => ({ data: '' }),
  });
  cost.set(tool, tokens);
  return tool;
}
const cost = new WeakMap<AnyTool, number>();
const builtins = createBuiltinTools();

function plan(extra: AnyTool[], overrides: Partial<DeferralInput> = {}) {
  return planToolDeferral({
    tools: [...builtins, ...extra],
    policy: auto,
    contextWindow: 200_000,
    loaded: new Set(),
    referenced: new Set(),
    schemaTokens: (tool) => cost.get(tool) ?? 100,
    ...overrides,
  });
}
const names = (tools: readonly AnyTool[]) => tools.map((tool) => tool.name);

describe('the deferral decision', () => {
  it('sends every schema, and no ToolSearch, while the deferrable ones fit the budget', () => {
    const result = plan([sized('mcp__a__one', 2_500), sized('mcp__a__two', 2_500)]);
    expect(result.deferrableTokens).toBe(5_000);
    expect(result.deferred).toEqual([]);
    expect(names(result.upFront)).toContain('mcp__a__two');
    expect(names(result.upFront)).not.toContain(TOOL_SEARCH_TOOL_NAME);
    expect(deferredToolsNotice(result)).toBeUndefined();
  });

  it('defers all of them, sorted, with ToolSearch in its place, once they exceed 5k tokens', () => {
    const result = plan([sized('mcp__b__z', 2_500), sized('mcp__a__y', 2_501)]);
    expect(names(result.deferred)).toEqual(['mcp__a__y', 'mcp__b__z']);
    expect(result.unloaded).toEqual(['mcp__a__y', 'mcp__b__z']);
    expect(names(result.upFront)).toContain(TOOL_SEARCH_TOOL_NAME);
    expect(names(result.upFront).some((name) => name.startsWith('mcp__'))).toBe(false);
    // Built-ins are never deferred by default.
    expect(names(result.upFront)).toEqual(names(builtins));
  });

  it('holds a 1M-token window to the 5k cap, and a small window to 10 % of it', () => {
    const tools = [sized('mcp__a__big', 6_000)];
    expect(plan(tools, { contextWindow: 1_000_000 }).budget).toBe(5_000);
    expect(plan(tools, { contextWindow: 1_000_000 }).deferred).toHaveLength(1);
    const small = [sized('mcp__a__mid', 3_300)];
    expect(plan(small, { contextWindow: 32_000 }).budget).toBe(3_200);
    expect(plan(small, { contextWindow: 32_000 }).deferred).toHaveLength(1);
    expect(plan(small, { contextWindow: 200_000 }).deferred).toHaveLength(0);
  });

  it('follows both settings', () => {
    const tools = [sized('mcp__a__one', 1_000)];
    const tight = { ...auto, maxSchemaTokens: 999 };
    expect(plan(tools, { policy: tight }).deferred).toHaveLength(1);
    const percent = { ...auto, maxContextPercent: 0.4 };
    expect(schemaBudget(percent, 200_000)).toBe(800);
    expect(plan(tools, { policy: percent }).deferred).toHaveLength(1);
  });

  it('defers whatever the size with ENABLE_TOOL_SEARCH=true and never with false', () => {
    const tools = [sized('mcp__a__one', 10)];
    expect(plan(tools, { policy: { ...auto, mode: 'always' } }).deferred).toHaveLength(1);
    const off = plan([sized('mcp__a__two', 50_000)], { policy: { ...auto, mode: 'off' } });
    expect(off.deferred).toEqual([]);
    expect(names(off.upFront)).not.toContain(TOOL_SEARCH_TOOL_NAME);
  });

  it('keeps a tool whose server says alwaysLoad up front', () => {
    const pinned = buildTool({
      name: 'mcp__pinned__do',
      tier: 'read',
      isMcp: true,
      deferral: 'never',
      inputSchema: z.object({}),
      prompt: 'x',
      call: async () => ({ data: '' }),
    });
    const result = plan([pinned, sized('mcp__a__big', 9_000)]);
    expect(names(result.deferred)).toEqual(['mcp__a__big']);
    expect(names(result.upFront)).toContain('mcp__pinned__do');
  });

  it('defers the built-ins a setting names, even when nothing else is', () => {
    const result = plan([], { policy: { ...auto, deferBuiltins: ['NotebookEdit', 'WebFetch'] } });
    expect(names(result.deferred)).toEqual(['NotebookEdit', 'WebFetch']);
    expect(names(result.upFront)).not.toContain('NotebookEdit');
    expect(names(result.upFront)).toContain(TOOL_SEARCH_TOOL_NAME);
  });

  it('defers nothing when the pool has no ToolSearch to load with (--tools, a deny rule)', () => {
    const withoutSearch = builtins.filter((tool) => tool.name !== TOOL_SEARCH_TOOL_NAME);
    const result = plan([], {
      tools: [...withoutSearch, sized('mcp__a__big', 9_000)],
    });
    expect(result.deferred).toEqual([]);
    expect(names(result.upFront)).toContain('mcp__a__big');
  });

  it('sends loaded tools after the others, sorted, marked by whether their reference is in the history', () => {
    const tools = [sized('mcp__a__c', 3_000), sized('mcp__a__b', 3_000), sized('mcp__a__a', 3_000)];
    const result = plan(tools, { loaded: new Set(['mcp__a__c']), referenced: new Set(['mcp__a__a']) });
    expect(result.loaded.map(({ tool, referenced }) => [tool.name, referenced])).toEqual([
      ['mcp__a__a', true],
      ['mcp__a__c', false],
    ]);
    expect(result.unloaded).toEqual(['mcp__a__b']);
  });

  it('names every deferred tool in a notice that does not change when one is loaded', () => {
    const tools = syntheticMcpServerTools('github', 40);
    const before = plan(tools, { schemaTokens: () => 200 });
    const after = plan(tools, { schemaTokens: () => 200, loaded: new Set(['mcp__github__create_issue']) });
    const notice = deferredToolsNotice(before) ?? '';
    expect(notice).toContain('mcp__github__create_issue');
    expect(notice.split('\n')).toHaveLength(41);
    expect(deferredToolsNotice(after)).toBe(notice);
  });
});

describe('ENABLE_TOOL_SEARCH', () => {
  const mode = (value: string) => resolveToolSearchPolicy(undefined, { ENABLE_TOOL_SEARCH: value });
  it('reads true, false, auto and auto:N', () => {
    expect(mode('true').policy.mode).toBe('always');
    expect(mode('1').policy.mode).toBe('always');
    expect(mode('false').policy.mode).toBe('off');
    expect(mode('auto').policy).toEqual(auto);
    expect(mode('auto:5').policy).toMatchObject({ mode: 'auto', maxContextPercent: 5 });
  });

  it('keeps auto and says what it accepts for a value it cannot read', () => {
    const result = mode('sometimes');
    expect(result.policy).toEqual(auto);
    expect(result.warning).toMatch(
      /ENABLE_TOOL_SEARCH="sometimes" is not understood; use true, false, auto or auto:N/,
    );
    expect(mode('auto:150').warning).toBeDefined();
  });

  it('takes the budget and the deferred built-ins from the settings', () => {
    const { policy } = resolveToolSearchPolicy(
      { maxSchemaTokens: 2_000, maxContextPercent: 3, deferTools: ['WebFetch'] },
      {},
    );
    expect(policy).toEqual({
      mode: 'auto',
      maxSchemaTokens: 2_000,
      maxContextPercent: 3,
      deferBuiltins: ['WebFetch'],
    });
  });
});

describe('toolSearchWarnings', () => {
  it('names deferTools entries that are no built-in, and an unreadable ENABLE_TOOL_SEARCH', () => {
    const warnings = toolSearchWarnings(
      { deferTools: ['NotebookEdit', 'Notebook', 'mcp__x__y'] },
      { ENABLE_TOOL_SEARCH: 'maybe' },
      ['Bash', 'NotebookEdit'],
    );
    expect(warnings).toEqual([
      expect.stringMatching(/^ENABLE_TOOL_SEARCH="maybe" is not understood/),
      'toolSearch.deferTools: "Notebook", "mcp__x__y" are no built-in tool; built-ins are Bash, NotebookEdit.',
    ]);
    expect(toolSearchWarnings({ deferTools: ['Bash'] }, {}, ['Bash'])).toEqual([]);
  });
});
