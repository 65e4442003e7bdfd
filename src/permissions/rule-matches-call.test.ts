import { describe, expect, it } from 'vitest';
import { CORPUS_TOOLS } from './corpus-test-support';
import { type RuleCall, ruleMatchesCall } from './rule-matches-call';

const roots = { cwd: '/home/u/proj/pkg', projectRoot: '/home/u/proj', home: '/home/u' };
/** A call of the tool by that name, with the access the real tool declares (`none` for others). */
const callOf = (toolName: string, input: Record<string, unknown>): RuleCall => ({
  toolName,
  access: CORPUS_TOOLS.find((tool) => tool.name === toolName)?.access ?? 'none',
  input,
});
const matches = (rule: string, toolName: string, input: Record<string, unknown>) =>
  ruleMatchesCall(rule, callOf(toolName, input), roots);
const bash = (rule: string, command: string) => matches(rule, 'Bash', { command });
const file = (rule: string, tool: string, file_path: string) => matches(rule, tool, { file_path });

describe('ruleMatchesCall for Bash', () => {
  it('matches legacy prefix rules on whole words', async () => {
    expect(await bash('Bash(git push:*)', 'git push origin main')).toBe(true);
    expect(await bash('Bash(git push:*)', 'git push')).toBe(true);
    expect(await bash('Bash(git push:*)', 'git pushx')).toBe(false);
    expect(await bash('Bash(git push:*)', 'ls -la')).toBe(false);
  });

  it('matches when any unit of a compound command matches', async () => {
    expect(await bash('Bash(git push:*)', 'npm test && git push origin main')).toBe(true);
    expect(await bash('Bash(git push:*)', 'git status; ls | wc -l')).toBe(false);
    expect(await bash('Bash(git push:*)', 'FOO=1 git push')).toBe(true);
    expect(await bash('Bash(git push:*)', 'timeout 60 git push')).toBe(true);
    expect(await bash('Bash(git push:*)', "sh -c 'git push --force'")).toBe(true);
    expect(await bash('Bash(git push:*)', '/usr/bin/git push')).toBe(true);
  });

  it('matches wildcard and exact rules', async () => {
    expect(await bash('Bash(npm *)', 'npm')).toBe(true);
    expect(await bash('Bash(npm *)', 'cd web && npm run build')).toBe(true);
    expect(await bash('Bash(np*)', 'npm --version')).toBe(true);
    expect(await bash('Bash(git * main)', 'git push origin main')).toBe(true);
    expect(await bash('Bash(git * main)', 'git push origin dev')).toBe(false);
    expect(await bash('Bash(npm)', 'npm --version')).toBe(false);
    expect(await bash('Bash(npm test)', 'npm test > out.txt')).toBe(true);
  });

  it('matches every command for a bare or starred Bash rule', async () => {
    expect(await bash('Bash', 'anything at all')).toBe(true);
    expect(await bash('Bash(*)', 'ls')).toBe(true);
  });

  it('matches a line that does not parse, since nothing rules the command out', async () => {
    expect(await bash('Bash(git push:*)', 'ls "unterminated')).toBe(true);
  });

  it('never matches a call without a command string', async () => {
    expect(await matches('Bash(ls:*)', 'Bash', {})).toBe(false);
  });
});

describe('ruleMatchesCall for other tools', () => {
  it('matches file tools by gitignore-style path globs', async () => {
    expect(await file('Edit(*.ts)', 'Edit', '/home/u/proj/pkg/src/a.ts')).toBe(true);
    expect(await file('Edit(*.ts)', 'Edit', '/home/u/proj/pkg/src/a.js')).toBe(false);
    expect(await file('Edit(src/**)', 'Edit', '/home/u/proj/pkg/src/deep/a.ts')).toBe(true);
    expect(await file('Edit(src/**)', 'Edit', '/home/u/proj/src/a.ts')).toBe(false);
    expect(await file('Edit(/src/**)', 'Edit', '/home/u/proj/src/a.ts')).toBe(true);
    expect(await file('Read(//etc/**)', 'Read', '/etc/passwd')).toBe(true);
    expect(await file('Read(~/notes)', 'Read', '/home/u/notes/x.md')).toBe(true);
    expect(await file('Read(.env)', 'Read', 'config/.env')).toBe(true);
  });

  it('lets an Edit rule cover Write and a Read rule cover Grep, as permission rules do', async () => {
    expect(await file('Edit(*.md)', 'Write', '/home/u/proj/pkg/README.md')).toBe(true);
    expect(await matches('Read(src/**)', 'Grep', { pattern: 'x', path: 'src/lib' })).toBe(true);
  });

  it('matches WebFetch by domain, subdomains included', async () => {
    const fetch = (rule: string, url: string) => matches(rule, 'WebFetch', { url });
    expect(await fetch('WebFetch(domain:example.com)', 'https://example.com/a')).toBe(true);
    expect(await fetch('WebFetch(domain:example.com)', 'https://docs.example.com/a')).toBe(true);
    expect(await fetch('WebFetch(domain:example.com)', 'https://example.org/a')).toBe(false);
    expect(await fetch('WebFetch(domain:example.com)', 'not a url')).toBe(false);
    expect(await fetch('WebFetch', 'https://anywhere.test/')).toBe(true);
  });

  it('matches MCP server and tool rules', async () => {
    const mcp = (rule: string) => matches(rule, 'mcp__git__status', {});
    expect(await mcp('mcp__git')).toBe(true);
    expect(await mcp('mcp__git__*')).toBe(true);
    expect(await mcp('mcp__git__status')).toBe(true);
    expect(await mcp('mcp__git__log')).toBe(false);
  });

  it('never matches a rule naming another tool', async () => {
    expect(await matches('Bash(ls:*)', 'Read', { file_path: '/x', command: 'ls' })).toBe(false);
    expect(await file('Read', 'Edit', '/home/u/proj/a.ts')).toBe(false);
    expect(await bash('Edit(*.ts)', 'ls a.ts')).toBe(false);
    expect(await matches('WebFetch', 'WebSearch', { query: 'x' })).toBe(false);
  });

  it("goes by the tool's declared access, not its name", async () => {
    const scribe = {
      toolName: 'Scribe',
      access: 'file-edit' as const,
      input: { file_path: '/home/u/proj/pkg/a.md' },
    };
    expect(await ruleMatchesCall('Edit(*.md)', scribe, roots)).toBe(true);
    const plainBash = { toolName: 'Bash', access: 'none' as const, input: { command: 'git push' } };
    // Without the shell access the command is not read as a command line: only a bare rule names it.
    expect(await ruleMatchesCall('Bash(git push:*)', plainBash, roots)).toBe(false);
    expect(await ruleMatchesCall('Bash', plainBash, roots)).toBe(true);
  });

  it('resolves legacy tool-name aliases on both sides', async () => {
    const agent = { subagent_type: 'reviewer', prompt: 'x' };
    expect(await matches('Task(reviewer)', 'Agent', agent)).toBe(true);
    expect(await matches('Agent(reviewer)', 'Task', agent)).toBe(true);
  });

  it('matches nothing for an unparsable rule', async () => {
    expect(await bash('Bash(git push', 'git push')).toBe(false);
    expect(await bash('', 'git push')).toBe(false);
  });
});
