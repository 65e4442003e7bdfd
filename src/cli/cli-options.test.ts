import { describe, expect, it } from 'vitest';
import { CliUsageError } from './errors';
import { parseCliArgs } from './parse-args';

const parse = (argv: string[]) => parseCliArgs(argv).options;

/** The argv the Agent SDK produced for a fully loaded options object (agent-sdk-protocol §2.3). */
const SDK_ARGV = [
  '--output-format',
  'stream-json',
  '--verbose',
  '--input-format',
  'stream-json',
  '--max-thinking-tokens=4000',
  '--effort=high',
  '--max-turns=5',
  '--max-budget-usd=0.5',
  '--model=claude-sonnet-4-5',
  '--betas=context-1m-2025-08-07',
  '--json-schema={"type":"object","properties":{"answer":{"type":"string"}}}',
  '--permission-prompt-tool=stdio',
  '--resume=11111111-1111-1111-1111-111111111111',
  '--allowedTools=Read,Bash(git status:*)',
  '--disallowedTools=WebFetch',
  '--tools=Read,Bash,Edit',
  '--mcp-config',
  '{"mcpServers":{"fs":{"command":"node","args":["srv.js"],"env":{"TOKEN":"x"}}}}',
  '--setting-sources=',
  '--strict-mcp-config',
  '--permission-mode=acceptEdits',
  '--fallback-model=claude-haiku-4-5',
  '--include-hook-events',
  '--include-partial-messages',
  '--add-dir=/tmp/extra',
  '--fork-session',
  '--session-id=22222222-2222-2222-2222-222222222222',
  '--no-session-persistence',
  '--some-flag',
  '--other-flag',
  'v',
  '--settings',
  '{"permissions":{"allow":["Bash(ls:*)"]}}',
];

describe('parseCliArgs', () => {
  it('parses the full SDK argv without error', () => {
    const { options, warnings } = parseCliArgs(SDK_ARGV);
    expect(warnings).toEqual([
      'ignoring unknown option --some-flag',
      'ignoring unknown option --other-flag and its value "v"',
    ]);
    expect(options).toMatchObject({
      print: true,
      outputFormat: 'stream-json',
      inputFormat: 'stream-json',
      verbose: true,
      maxThinkingTokens: 4000,
      effort: 'high',
      maxTurns: 5,
      maxBudgetUsd: 0.5,
      model: 'claude-sonnet-4-5',
      betas: ['context-1m-2025-08-07'],
      jsonSchema: { type: 'object', properties: { answer: { type: 'string' } } },
      permissionPromptTool: 'stdio',
      resume: '11111111-1111-1111-1111-111111111111',
      allowedTools: ['Read', 'Bash(git status:*)'],
      disallowedTools: ['WebFetch'],
      tools: ['Read', 'Bash', 'Edit'],
      mcpConfigs: ['{"mcpServers":{"fs":{"command":"node","args":["srv.js"],"env":{"TOKEN":"x"}}}}'],
      settingSources: [],
      strictMcpConfig: true,
      permissionMode: 'acceptEdits',
      fallbackModel: 'claude-haiku-4-5',
      includeHookEvents: true,
      includePartialMessages: true,
      addDirs: ['/tmp/extra'],
      forkSession: true,
      sessionId: '22222222-2222-2222-2222-222222222222',
      sessionPersistence: false,
      settings: '{"permissions":{"allow":["Bash(ls:*)"]}}',
    });
  });

  it('has the defaults of a plain run', () => {
    const options = parse(['-p', 'hi']);
    expect(options).toMatchObject({
      print: true,
      prompt: 'hi',
      outputFormat: 'text',
      inputFormat: 'text',
      verbose: false,
      allowedTools: [],
      addDirs: [],
      sessionPersistence: true,
      debug: false,
    });
    expect(options.tools).toBeUndefined();
    expect(options.settingSources).toBeUndefined();
  });

  it('reads list flags as comma/space lists, repeated, or both', () => {
    const options = parse(['--allowedTools', 'Read Edit', '--allowed-tools=Bash(git commit -m a, b),Grep']);
    expect(options.allowedTools).toEqual(['Read', 'Edit', 'Bash(git commit -m a, b)', 'Grep']);
    expect(parse(['--add-dir', '/a', '--add-dir=/b,/c']).addDirs).toEqual(['/a', '/b', '/c']);
    expect(parse(['--setting-sources', 'user,project']).settingSources).toEqual(['user', 'project']);
  });

  it('reads --tools: empty is none, default is the default set, else names', () => {
    expect(parse(['--tools=']).tools).toEqual([]);
    expect(parse(['--tools', 'default']).tools).toBeUndefined();
    expect(parse(['--tools', 'Read,Task']).tools).toEqual(['Read', 'Task']);
  });

  it('reads --resume with an id, and without one as the picker (refused with -p)', () => {
    expect(parse(['-r', 'abc'])).toMatchObject({ resume: 'abc', resumePicker: false });
    expect(parse(['--resume'])).toMatchObject({ resume: undefined, resumePicker: true });
    expect(parse(['-r', '--model', 'opus'])).toMatchObject({ resumePicker: true, model: 'opus' });
    expect(() => parse(['-p', 'hi', '--resume'])).toThrow(/--resume needs a session id with --print/);
  });

  it('reads --debug with and without a filter, and --debug-file', () => {
    expect(parse(['--debug']).debug).toBe(true);
    expect(parse(['-d']).debug).toBe(true);
    expect(parse(['--debug=api'])).toMatchObject({ debug: true, debugFilter: 'api' });
    expect(parse(['--debug-file', '/tmp/d.log']).debugFile).toBe('/tmp/d.log');
  });

  it('treats --input-format stream-json as headless even without -p', () => {
    expect(parse(['--input-format=stream-json', '--output-format=stream-json', '--verbose']).print).toBe(
      true,
    );
    expect(parse(['hello']).print).toBe(false);
  });

  it.each([
    [['--max-turns=abc'], '--max-turns must be a whole number of at least 1 (got "abc").'],
    [['--max-turns=0'], '--max-turns must be a whole number'],
    [['--max-budget-usd', 'x'], '--max-budget-usd must be a number above 0'],
    [['--output-format=xml'], '--output-format must be one of text, json, stream-json'],
    [['--permission-mode=yolo'], '--permission-mode must be one of'],
    [['--setting-sources=user,team'], '--setting-sources must be one of user, project, local'],
    [['--json-schema=[1]'], '--json-schema must be a JSON object (got an array).'],
    [
      ['--json-schema={"type":"object",}'],
      '--json-schema is not valid JSON: column 18: a comma before \'}\' (JSON allows no comma after the last item; remove it) (at "}").',
    ],
    [
      ['--json-schema={"type": obj}'],
      '--json-schema is not valid JSON: column 10: unexpected \'o\' (at "obj}").',
    ],
    [['--agents={"a":1}'], '--agents: the definition of "a" must be a JSON object.'],
    [['--effort=extreme'], '--effort must be one of'],
    [['--thinking=sometimes'], '--thinking must be one of'],
  ])('rejects %j with one clear line', (argv, message) => {
    expect(() => parse(argv)).toThrow(CliUsageError);
    expect(() => parse(argv)).toThrow(message);
  });

  it('rejects flag combinations the real CLI rejects', () => {
    expect(() => parse(['-p', '--output-format=stream-json'])).toThrow(
      'When using --print, --output-format=stream-json requires --verbose.',
    );
    expect(() => parse(['-p', '--input-format=stream-json'])).toThrow(
      '--input-format=stream-json requires --output-format=stream-json.',
    );
    expect(() => parse(['-p', '--include-partial-messages'])).toThrow(
      '--include-partial-messages requires --print and --output-format=stream-json.',
    );
  });
});
