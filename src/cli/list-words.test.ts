import { describe, expect, it } from 'vitest';
import { continuesRuleList } from './list-words';
import { parseCliArgs } from './parse-args';
import { everyBuiltinTool } from './session-builtins';

/** The lists and prompt a command line parses to. */
function parsed(argv: string[]) {
  const { options } = parseCliArgs(argv);
  return {
    prompt: options.prompt,
    allowed: options.allowedTools,
    disallowed: options.disallowedTools,
    tools: options.tools,
  };
}

describe("Claude Code's variadic list flags", () => {
  it('take space-separated rules, rules with spaces inside parentheses kept whole', () => {
    expect(parsed(['-p', 'go', '--allowedTools', 'Bash(git log:*)', 'Read', 'Edit'])).toMatchObject({
      prompt: 'go',
      allowed: ['Bash(git log:*)', 'Read', 'Edit'],
    });
    expect(
      parsed(['-p', 'go', '--disallowedTools', 'Bash(rm -rf:*)', 'WebFetch', '--tools', 'Read', 'Grep']),
    ).toMatchObject({ prompt: 'go', disallowed: ['Bash(rm -rf:*)', 'WebFetch'], tools: ['Read', 'Grep'] });
  });

  it('take comma lists and repeated flags too', () => {
    expect(
      parsed([
        '-p',
        'go',
        '--allowedTools',
        'Read,Edit',
        'Bash(npm test, npm run lint)',
        '--allowedTools=Grep',
      ]),
    ).toMatchObject({
      allowed: ['Read', 'Edit', 'Bash(npm test, npm run lint)', 'Grep'],
    });
  });

  it('end at the prompt: a word that is no rule is the prompt, with the list before or after it', () => {
    expect(parsed(['-p', '--allowedTools', 'Read', 'Edit', 'fix the failing test'])).toMatchObject({
      prompt: 'fix the failing test',
      allowed: ['Read', 'Edit'],
    });
    expect(parsed(['-p', 'fix the failing test', '--allowedTools', 'Read', 'Edit'])).toMatchObject({
      prompt: 'fix the failing test',
      allowed: ['Read', 'Edit'],
    });
    // A one-word prompt that names no tool is the prompt as well.
    expect(parsed(['-p', '--allowedTools', 'Read', 'hello'])).toMatchObject({
      prompt: 'hello',
      allowed: ['Read'],
    });
  });

  it('end at --: every word before it is in the list, the prompt after it', () => {
    expect(parsed(['-p', '--allowedTools', 'Read', 'Edit', '--', 'Summarize'])).toMatchObject({
      prompt: 'Summarize',
      allowed: ['Read', 'Edit'],
    });
    expect(parsed(['-p', '--allowedTools', 'Read', 'MyPluginTool', '--', 'go'])).toMatchObject({
      prompt: 'go',
      allowed: ['Read', 'MyPluginTool'],
    });
  });

  it('end at the next flag', () => {
    expect(
      parsed(['-p', '--tools', 'Read', 'Grep', '--allowedTools', 'Read', '--max-turns', '3', 'go']),
    ).toMatchObject({
      prompt: 'go',
      tools: ['Read', 'Grep'],
      allowed: ['Read'],
    });
  });

  it('read MCP names, wildcards, aliases, any case and near misses of a built-in as list words', () => {
    for (const word of [
      'mcp__db__query',
      'mcp__db__*',
      'Task',
      'read',
      'Bsah',
      'Agent(Explore)',
      'lsp',
      'Read,Edit',
    ]) {
      expect(continuesRuleList(word), word).toBe(true);
    }
    for (const word of ['hello', 'fix the tests', 'Summarize', 'what?', 'src/cli/run.ts', '']) {
      expect(continuesRuleList(word), word).toBe(false);
    }
  });

  it('know every built-in tool a session offers by name', () => {
    for (const tool of everyBuiltinTool()) expect(continuesRuleList(tool.name), tool.name).toBe(true);
  });
});
