import { describe, expect, it } from 'vitest';
import * as z from '../lib/zod';
import {
  emptyPermissionContext,
  type PermissionRule,
  type ToolPermissionContext,
} from '../permissions/types';
import { assembleToolPool, findToolByName, getTools, toolSchemas } from './registry';
import { type AnyTool, buildTool, type ToolTier } from './tool';

function fakeTool(name: string, extra: Partial<AnyTool> & { tier?: ToolTier } = {}): AnyTool {
  return buildTool({
    name,
    tier: 'read',
    inputSchema: z.object({ q: z.string() }),
    prompt: `The ${name} tool.`,
    call: async () => ({ data: name }),
    ...extra,
  });
}

const deny = (toolName: string, ruleContent?: string): PermissionRule => ({
  toolName,
  behavior: 'deny',
  source: 'userSettings',
  ...(ruleContent === undefined ? {} : { ruleContent }),
});

const withRules = (rules: PermissionRule[], mode: ToolPermissionContext['mode'] = 'default') => ({
  ...emptyPermissionContext(mode),
  rules,
});

const names = (tools: readonly AnyTool[]) => tools.map((tool) => tool.name);

describe('getTools', () => {
  const tools = [
    fakeTool('Read'),
    fakeTool('Edit', { tier: 'write' }),
    fakeTool('Bash', { tier: 'exec', keptInPlanMode: true }),
    fakeTool('TaskStop', { aliases: ['KillShell'], tier: 'exec' }),
    fakeTool('Off', { isEnabled: () => false }),
  ];

  it('drops disabled tools', () => {
    expect(names(getTools(emptyPermissionContext(), tools))).toEqual(['Read', 'Edit', 'Bash', 'TaskStop']);
  });

  it('drops tools with a blanket deny, by name or alias, but keeps content-scoped denies', () => {
    const context = withRules([deny('Bash'), deny('KillShell'), deny('Edit', 'secret.txt')]);
    expect(names(getTools(context, tools))).toEqual(['Read', 'Edit']);
  });

  it('keeps a tool whose deny stands in for a malformed rule, so each call can say what to fix', () => {
    const standIn = {
      ...deny('Bash'),
      malformed: { text: 'Bash(rm:*', problem: 'the closing ")" is missing' },
    };
    expect(names(getTools(withRules([standIn]), tools))).toContain('Bash');
  });

  it('ignores blanket allow and ask rules', () => {
    const context = withRules([{ toolName: 'Bash', behavior: 'allow', source: 'session' }]);
    expect(names(getTools(context, tools))).toContain('Bash');
  });

  it('shows only read-tier tools (and those kept in plan mode, like Bash) in plan mode and every tier otherwise', () => {
    expect(names(getTools(emptyPermissionContext('plan'), tools))).toEqual(['Read', 'Bash']);
    // The fact decides, not the name: a Bash without it is hidden like any exec tool.
    const plainBash = fakeTool('Bash', { tier: 'exec' });
    expect(names(getTools(emptyPermissionContext('plan'), [plainBash]))).toEqual([]);
    expect(names(getTools(emptyPermissionContext('acceptEdits'), tools))).toHaveLength(4);
    expect(names(getTools(emptyPermissionContext('bypassPermissions'), tools))).toHaveLength(4);
  });
});

describe('assembleToolPool', () => {
  const mcp = (name: string, tier: ToolTier = 'read') => fakeTool(name, { isMcp: true, tier });

  it('sorts built-ins, then extra tools, each by name, and lets built-ins win a name clash', () => {
    const builtinRead = fakeTool('Read');
    const builtins = [fakeTool('Write', { tier: 'write' }), builtinRead, fakeTool('Bash', { tier: 'exec' })];
    const pool = assembleToolPool(emptyPermissionContext(), builtins, [
      mcp('mcp__z__search'),
      mcp('Read'),
      mcp('mcp__a__list'),
    ]);
    expect(names(pool)).toEqual(['Bash', 'Read', 'Write', 'mcp__a__list', 'mcp__z__search']);
    expect(pool[1]).toBe(builtinRead);
  });

  it('removes every tool of a server denied as mcp__server, and single MCP tools denied by name', () => {
    const builtins = [fakeTool('Read')];
    const extra = [
      mcp('mcp__github__list'),
      mcp('mcp__github__open'),
      mcp('mcp__gitlab__list'),
      mcp('mcp__fs__read'),
    ];
    const pool = assembleToolPool(withRules([deny('mcp__github'), deny('mcp__fs__read')]), builtins, extra);
    expect(names(pool)).toEqual(['Read', 'mcp__gitlab__list']);
    const wildcard = assembleToolPool(withRules([deny('mcp__gitlab__*')]), builtins, extra);
    expect(names(wildcard)).toEqual(['Read', 'mcp__fs__read', 'mcp__github__list', 'mcp__github__open']);
  });

  it('keeps write-tier MCP tools out of a plan-mode pool too', () => {
    const pool = assembleToolPool(
      emptyPermissionContext('plan'),
      [],
      [mcp('mcp__db__query'), mcp('mcp__db__drop', 'write'), mcp('Bash', 'exec')],
    );
    expect(names(pool)).toEqual(['mcp__db__query']);
  });
});

describe('findToolByName and toolSchemas', () => {
  it('finds by name first, then by alias', () => {
    const stop = fakeTool('TaskStop', { aliases: ['KillShell'] });
    const shadow = fakeTool('KillShell');
    expect(findToolByName([stop], 'KillShell')).toBe(stop);
    expect(findToolByName([stop, shadow], 'KillShell')).toBe(shadow);
    expect(findToolByName([stop], 'Nope')).toBeUndefined();
  });

  it('builds request schemas and counts the leading built-ins', () => {
    const pool = [fakeTool('Read'), fakeTool('mcp__a__b', { isMcp: true })];
    const { tools, builtinToolCount } = toolSchemas(pool);
    expect(builtinToolCount).toBe(1);
    expect(tools[0]).toEqual({
      name: 'Read',
      description: 'The Read tool.',
      input_schema: {
        type: 'object',
        properties: { q: { type: 'string' } },
        required: ['q'],
        additionalProperties: false,
      },
    });
    expect(toolSchemas([fakeTool('Read')]).builtinToolCount).toBe(1);
  });
});
