import { describe, expect, it } from 'vitest';
import { chooseMainAgent, firstReplTurn, mainThreadAgent } from './main-agent';
import { AgentRegistry } from './registry';
import type { AgentDefinition } from './types';

const triage: AgentDefinition = {
  agentType: 'triage',
  description: 'Triages.',
  systemPrompt: 'You triage.',
  source: 'project',
  maxTier: 'exec',
  initialPrompt: 'List the open issues',
};
const agents = { mainThread: (name: string) => mainThreadAgent(new AgentRegistry([triage]), name) };

describe('the agent the main session runs as', () => {
  it('is --agent (an unknown one is an error), else the agent setting (an unknown one a warning)', () => {
    expect(chooseMainAgent(agents, 'triage', 'other').agent?.definition.agentType).toBe('triage');
    expect(() => chooseMainAgent(agents, 'nobody', undefined)).toThrow(
      '--agent: there is no agent named "nobody"',
    );
    expect(chooseMainAgent(agents, undefined, 'triage').agent?.definition.agentType).toBe('triage');
    expect(chooseMainAgent(agents, undefined, 'nobody')).toEqual({
      agent: undefined,
      warnings: [
        'settings: agent: there is no agent named "nobody"; known agents: triage. The session runs without one.',
      ],
    });
    expect(chooseMainAgent(agents, undefined, undefined)).toEqual({ agent: undefined, warnings: [] });
  });
});

describe("the REPL's first turn", () => {
  it('is the initialPrompt, then the prompt given; a resumed conversation gets only the prompt given', () => {
    expect(firstReplTurn('List the open issues', undefined, false)).toBe('List the open issues');
    expect(firstReplTurn('List the open issues', 'then label them', false)).toBe(
      'List the open issues\n\nthen label them',
    );
    expect(firstReplTurn('List the open issues', undefined, true)).toBeUndefined();
    expect(firstReplTurn('List the open issues', 'go on', true)).toBe('go on');
    expect(firstReplTurn(undefined, '  ', false)).toBeUndefined();
  });
});
