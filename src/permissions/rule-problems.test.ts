import { describe, expect, it } from 'vitest';
import { createCanUseTool } from './can-use-tool';
import { corpusRequest, HOME, runCase } from './corpus-test-support';
import { buildPermissionContext } from './permission-context';
import { ANY_TOOL, readRule } from './rule-problems';

const FILE = '/p/.yoke/settings.json';
const project = { source: 'projectSettings' as const, file: FILE };

describe('readRule', () => {
  it('reads well-formed rules as before, whatever the tool', () => {
    expect(readRule('Bash(npm test)', 'deny', project)).toEqual({
      rule: { toolName: 'Bash', ruleContent: 'npm test', behavior: 'deny', source: 'projectSettings' },
    });
    expect(readRule(' Read ', 'allow', project).problem).toBeUndefined();
    expect(readRule('Task(reviewer)', 'allow', project).rule?.toolName).toBe('Agent');
    // MCP and unknown (plugin) tool names are case-sensitive and not checked.
    expect(readRule('mcp__DB__Query', 'deny', project).problem).toBeUndefined();
    expect(readRule('myPluginTool(x)', 'deny', project).problem).toBeUndefined();
  });

  it.each([
    ['Bash(echo:*', 'the closing ")" is missing', 'Bash'],
    ['Read(./.env', 'the closing ")" is missing', 'Read'],
    ['Bash(ls) extra', 'there is text after the closing ")"', 'Bash'],
    ['Bash echo', '"echo" after the tool name is not a specifier (expected Bash(specifier))', 'Bash'],
    ['bash(rm:*)', 'tool names are case-sensitive: "bash" should be "Bash"', 'Bash'],
    ['read', 'tool names are case-sensitive: "read" should be "Read"', 'Read'],
    ['WEBFETCH', 'tool names are case-sensitive: "WEBFETCH" should be "WebFetch"', 'WebFetch'],
    ['task(x', 'the closing ")" is missing', 'Agent'],
    ['./.env', 'it does not start with a tool name (expected Tool or Tool(specifier))', ANY_TOOL],
    ['(rm -rf)', 'it does not start with a tool name (expected Tool or Tool(specifier))', ANY_TOOL],
    ['', 'it is empty', ANY_TOOL],
  ])('a deny rule %j (%s) stands for %s until fixed', (text, problem, toolName) => {
    const { rule, problem: line } = readRule(text, 'deny', project);
    expect(rule).toEqual({
      toolName,
      behavior: 'deny',
      source: 'projectSettings',
      malformed: { text, problem, file: FILE },
    });
    const scope = toolName === ANY_TOOL ? 'every tool call' : `every ${toolName} call`;
    expect(line).toBe(
      `settings ${FILE}: deny rule ${JSON.stringify(text)} is malformed (${problem}); until it is fixed it denies ${scope}`,
    );
  });

  it('drops a malformed allow rule and says so; a malformed ask rule asks for the whole tool', () => {
    expect(readRule('Bash(git status', 'allow', { source: 'cliArg' })).toEqual({
      problem:
        '--allowedTools: allow rule "Bash(git status" is malformed (the closing ")" is missing); the rule is ignored',
    });
    expect(readRule('edit(src/**)', 'allow', project).rule).toBeUndefined();
    const ask = readRule('Bash(git push', 'ask', project);
    expect(ask.rule).toMatchObject({ toolName: 'Bash', behavior: 'ask' });
    expect(ask.problem).toMatch(/until it is fixed it asks before every Bash call$/);
    expect(readRule('Bash(rm:*', 'deny', { source: 'cliArg' }).problem).toMatch(/^--disallowedTools: /);
  });
});

describe('buildPermissionContext with malformed rules', () => {
  it('reports every malformed rule with its file, from settings and flags', () => {
    const problems: string[] = [];
    const context = buildPermissionContext({
      settingsSources: [
        {
          source: 'userSettings',
          path: '/home/u/.yoke/settings.json',
          settings: { permissions: { deny: ['Bash(echo:*'] } },
        },
        { source: 'projectSettings', path: FILE, settings: { permissions: { allow: ['bash(ls)', 'Read'] } } },
        // `--settings` rules are named by their file, or by the flag for inline JSON.
        { source: 'flagSettings', path: '/tmp/extra.json', settings: { permissions: { ask: ['Edit(x'] } } },
        { source: 'flagSettings', settings: { permissions: { deny: ['Read(.env'] } } },
      ],
      cliDisallowed: ['Write(/etc/x'],
      onRuleProblem: (problem) => problems.push(problem),
      // Untrusted, the project's allow rules are skipped unread (trust gating).
      projectTrusted: true,
    });
    expect(problems).toEqual([
      'settings /home/u/.yoke/settings.json: deny rule "Bash(echo:*" is malformed (the closing ")" is missing); until it is fixed it denies every Bash call',
      'settings /p/.yoke/settings.json: allow rule "bash(ls)" is malformed (tool names are case-sensitive: "bash" should be "Bash"); the rule is ignored',
      'settings /tmp/extra.json: ask rule "Edit(x" is malformed (the closing ")" is missing); until it is fixed it asks before every Edit call',
      'settings --settings: deny rule "Read(.env" is malformed (the closing ")" is missing); until it is fixed it denies every Read call',
      '--disallowedTools: deny rule "Write(/etc/x" is malformed (the closing ")" is missing); until it is fixed it denies every Write call',
    ]);
    expect(
      context.rules.map((r) => `${r.behavior} ${r.toolName}${r.ruleContent ? `(${r.ruleContent})` : ''}`),
    ).toEqual(['deny Bash', 'allow Read', 'ask Edit', 'deny Read', 'deny Write']);
  });
});

describe('what a malformed rule does to calls', () => {
  const denyBroken = async (
    deny: string,
    call: { cmd?: string; tool?: string; input?: Record<string, unknown> },
  ) => {
    const context = buildPermissionContext({
      settingsSources: [
        { source: 'projectSettings', path: FILE, settings: { permissions: { deny: [deny] } } },
      ],
      mode: 'bypassPermissions',
    });
    return runCase({ ...call, mode: 'bypassPermissions', expect: 'deny' }, { permissionContext: context });
  };

  // Calibration: before, `Bash(rm:*` failed to parse and was dropped without a word, so in
  // bypassPermissions (or under a broad allow rule) the very command it was written to stop ran.
  it('a deny rule missing its ")" denies the whole tool it names, even in bypassPermissions', async () => {
    expect(await denyBroken('Bash(rm:*', { cmd: 'rm -rf build' })).toBe('deny');
    expect(await denyBroken('Bash(rm:*', { cmd: 'ls' })).toBe('deny');
    // A command that does not even parse is still a Bash call.
    expect(await denyBroken('Bash(rm:*', { cmd: 'if then' })).toBe('deny');
    expect(await denyBroken('Bash(rm:*', { tool: 'Read', input: { file_path: '/home/u/proj/a' } })).toBe(
      'allow',
    );
  });

  it('a wrong-case deny rule denies the tool it meant', async () => {
    expect(
      await denyBroken('read(./.env)', { tool: 'Read', input: { file_path: '/home/u/proj/.env' } }),
    ).toBe('deny');
    expect(await denyBroken('read(./.env)', { cmd: 'ls' })).toBe('allow');
  });

  it('a deny rule without a readable tool name denies every tool', async () => {
    expect(await denyBroken('./.env', { tool: 'Read', input: { file_path: '/home/u/proj/README.md' } })).toBe(
      'deny',
    );
    expect(await denyBroken('./.env', { cmd: 'ls' })).toBe('deny');
    expect(await denyBroken('./.env', { tool: 'mcp__db__query', input: {} })).toBe('deny');
  });

  it('names the broken rule in the refusal', async () => {
    const context = buildPermissionContext({
      settingsSources: [
        { source: 'projectSettings', path: FILE, settings: { permissions: { deny: ['Bash(rm:*'] } } },
      ],
    });
    const canUseTool = createCanUseTool({ home: HOME });
    const decision = await canUseTool(
      corpusRequest('Bash', { command: 'ls' }, { permissionContext: context }, { isReadOnly: true }),
    );
    expect(decision).toMatchObject({
      behavior: 'deny',
      message: `Denied by rule "Bash(rm:*" (projectSettings, ${FILE}), which is malformed (the closing ")" is missing) and so denies all of Bash until it is fixed.`,
    });
  });
});
