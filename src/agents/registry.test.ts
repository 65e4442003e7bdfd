import { describe, expect, it } from 'vitest';
import { BUILT_IN_AGENTS } from './built-in';
import { AgentRegistry } from './registry';
import type { AgentDefinition } from './types';

const named = (agentType: string): AgentDefinition => ({
  ...(BUILT_IN_AGENTS[0] as AgentDefinition),
  agentType,
  source: 'user',
});

describe('AgentRegistry.names', () => {
  it('sorts as localeCompare does for agent names: case-insensitive, lower case first', () => {
    const names = [
      'Plan',
      'general-purpose',
      'Explore',
      'zeta',
      'Zeta',
      'my-agent2',
      'my-agent10',
      'plugin:x',
      'ab',
      'a-b',
    ];
    const registry = new AgentRegistry(names.map(named));
    expect(registry.names()).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(registry.names()).toEqual([
      'a-b',
      'ab',
      'Explore',
      'general-purpose',
      'my-agent10',
      'my-agent2',
      'Plan',
      'plugin:x',
      'zeta',
      'Zeta',
    ]);
  });
});
