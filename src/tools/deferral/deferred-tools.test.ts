import { describe, expect, it } from 'vitest';
import type { MessageParam } from '../../model/types';
import { createBuiltinTools } from '../builtin';
import { DeferredTools, referencedTools } from './deferred-tools';
import { resolveToolSearchPolicy } from './policy';
import { syntheticMcpServerTools } from './synthetic-tools';

const pool = [...createBuiltinTools(), ...syntheticMcpServerTools('github', 60)];
const policy = resolveToolSearchPolicy(undefined, {}).policy;
const loadedBy = (...names: string[]): MessageParam[] => [
  { role: 'user', content: 'go' },
  {
    role: 'user',
    content: [
      {
        type: 'tool_result',
        tool_use_id: 't1',
        content: names.map((name) => ({ type: 'tool_reference' as const, tool_name: name })),
      },
    ],
  },
];

describe('DeferredTools', () => {
  it('keeps a load after compaction took its reference away, sent then as an ordinary tool', () => {
    const state = new DeferredTools(policy);
    const before = state.plan(pool, 200_000, loadedBy('mcp__github__create_issue'));
    expect(before.loaded.map(({ tool, referenced }) => [tool.name, referenced])).toEqual([
      ['mcp__github__create_issue', true],
    ]);
    const after = state.plan(pool, 200_000, [
      { role: 'user', content: 'Summary of the conversation so far…' },
    ]);
    expect(after.loaded.map(({ tool, referenced }) => [tool.name, referenced])).toEqual([
      ['mcp__github__create_issue', false],
    ]);
    expect(state.awaitsLoading(pool, 'mcp__github__create_issue')).toBe(false);
    expect(state.awaitsLoading(pool, 'mcp__github__get_issue')).toBe(true);
  });

  it('keeps two sessions apart, and one pool apart from another', () => {
    const one = new DeferredTools(policy);
    const two = new DeferredTools(policy);
    one.plan(pool, 200_000, loadedBy('mcp__github__create_issue'));
    expect(two.plan(pool, 200_000, []).loaded).toEqual([]);
    const otherPool = [...pool];
    expect(one.planFor(otherPool)).toBeUndefined();
    expect(one.awaitsLoading(otherPool, 'mcp__github__get_issue')).toBe(false);
  });

  it('counts for the context pipeline what the request sends: names, not the deferred schemas', () => {
    const state = new DeferredTools(policy);
    const deferredTokens = state.sentToolTokens(pool, 200_000) ?? 0;
    const offTokens = new DeferredTools({ ...policy, mode: 'off' }).sentToolTokens(pool, 200_000);
    expect(offTokens).toBeUndefined();
    const builtinsOnly = createBuiltinTools();
    expect(state.sentToolTokens(builtinsOnly, 200_000)).toBeUndefined();
    // 60 schemas of ~250 tokens each are not counted; their names and ToolSearch are.
    const everything = new DeferredTools({ ...policy, maxSchemaTokens: 1_000_000, maxContextPercent: 100 });
    const allSent = everything.sentToolTokens(pool, 200_000) ?? 0;
    expect(allSent - deferredTokens).toBeGreaterThan(10_000);
    state.plan(pool, 200_000, loadedBy('mcp__github__create_issue'));
    expect(state.sentToolTokens(pool, 200_000)).toBeGreaterThan(deferredTokens);
  });

  it('finds references only inside tool results', () => {
    expect([...referencedTools(loadedBy('A', 'B'))]).toEqual(['A', 'B']);
    expect(referencedTools([{ role: 'user', content: 'tool_reference A' }]).size).toBe(0);
  });
});
