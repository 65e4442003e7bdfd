import { describe, expect, it } from 'vitest';
import type { PermissionRule } from '../permissions/types';
import { ruleToolTypos } from './rule-tool-typos';

const BUILTINS = [
  { name: 'Bash', aliases: [] },
  { name: 'Read', aliases: [] },
  { name: 'Agent', aliases: ['Task'] },
  { name: 'WebFetch', aliases: [] },
];

const rule = (toolName: string, extra: Partial<PermissionRule> = {}): PermissionRule => ({
  toolName,
  behavior: 'allow',
  source: 'cliArg',
  ...extra,
});

describe('ruleToolTypos', () => {
  it('names the tool a misspelt rule meant, and what the rule does instead', () => {
    expect(
      ruleToolTypos(
        [
          rule('Bsah', { ruleContent: 'npm test' }),
          rule('Raed', { behavior: 'deny', source: 'userSettings' }),
          rule('WebFecth', { behavior: 'ask', source: 'projectSettings', ruleContent: 'domain:x.org' }),
          rule('Raed', { behavior: 'deny', source: 'flagSettings' }),
        ],
        BUILTINS,
      ),
    ).toEqual([
      '--allowedTools: allow rule "Bsah(npm test)" names no tool Yoke has (did you mean Bash?); it allows nothing',
      'user settings: deny rule "Raed" names no tool Yoke has (did you mean Read?); it denies nothing',
      'project settings: ask rule "WebFecth(domain:x.org)" names no tool Yoke has (did you mean WebFetch?); it asks about nothing',
      '--settings: deny rule "Raed" names no tool Yoke has (did you mean Read?); it denies nothing',
    ]);
  });

  it('leaves alone built-ins, aliases, MCP tools, wildcards, malformed rules and names far from any tool', () => {
    const rules = [
      rule('Bash', { ruleContent: 'npm test:*' }),
      rule('Task'),
      rule('mcp__github__get_isue'),
      rule('*', { behavior: 'deny' }),
      rule('Read', { behavior: 'deny', malformed: { text: 'read(', problem: 'x' } }),
      rule('Bash', { behavior: 'deny', malformed: { text: 'Bsah(', problem: 'x' } }),
      rule('WebSearch', { behavior: 'deny' }),
      rule('NotebookEdit'),
    ];
    expect(ruleToolTypos(rules, BUILTINS)).toEqual([]);
  });
});
