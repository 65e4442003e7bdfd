import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAgentDefinitions } from './load-definitions';

async function fixture(files: Record<string, string>) {
  const root = await mkdtemp(join(tmpdir(), 'yoke-agents-'));
  const project = join(root, 'project');
  const home = join(root, 'home');
  for (const [path, text] of Object.entries(files)) {
    const full = path.startsWith('~/') ? join(home, path.slice(2)) : join(project, path);
    await mkdir(join(full, '..'), { recursive: true });
    await writeFile(full, text);
  }
  const env = { HOME: home, YOKE_HOME: join(home, '.yoke'), CLAUDE_CONFIG_DIR: join(home, '.claude') };
  return { project, env };
}

const file = (front: string, body = 'You do the thing.') => `---\n${front}\n---\n${body}\n`;
const untrusted = { trusted: false, codeRuns: false };

describe('loadAgentDefinitions', () => {
  it('reads every frontmatter field of a project file; the name comes from the frontmatter, not the file', async () => {
    const { project, env } = await fixture({
      '.claude/agents/reviewer.md': file(
        [
          'name: code-reviewer',
          'description: Reviews code.',
          'tools: Read, Grep, Bash(git diff:*)',
          'disallowedTools: [Write]',
          'model: haiku',
          'permissionMode: plan',
          'maxTurns: 7',
          'maxTokens: 50000',
          'maxDurationSeconds: 90',
          'skills: [lint, test]',
          'memory: project',
          'isolation: worktree',
          'color: blue',
          'background: false',
          'initialPrompt: Start here.',
          'omitClaudeMd: true',
          'effort: high',
        ].join('\n'),
      ),
    });
    const registry = await loadAgentDefinitions({
      cwd: project,
      env,
      gate: { trusted: true, codeRuns: true },
    });
    expect(registry.problems).toEqual([]);
    expect(registry.get('code-reviewer')).toMatchObject({
      agentType: 'code-reviewer',
      description: 'Reviews code.',
      systemPrompt: 'You do the thing.',
      source: 'project',
      tools: ['Read', 'Grep', 'Bash(git diff:*)'],
      disallowedTools: ['Write'],
      model: 'haiku',
      permissionMode: 'plan',
      budget: { maxTurns: 7, maxTokens: 50000, maxDurationMs: 90_000 },
      skills: ['lint', 'test'],
      memory: 'project',
      isolation: 'worktree',
      color: 'blue',
      background: false,
      initialPrompt: 'Start here.',
      omitClaudeMd: true,
      effort: 'high',
    });
    expect(registry.get('reviewer')).toBeUndefined();
  });

  it('reports a broken file once, naming it and the field, and loads the rest', async () => {
    const { project, env } = await fixture({
      '.claude/agents/good.md': file('name: good\ndescription: Fine.'),
      '.claude/agents/no-description.md': file('name: broken'),
      '.claude/agents/bad-yaml.md': file('name: [unclosed'),
      '.claude/agents/bad-mode.md': file('name: moody\ndescription: d\npermissionMode: yolo'),
      '.claude/agents/bad-effort.md': file('name: eager\ndescription: d\neffort: extreme'),
      '.claude/agents/plain.md': 'Just text, no frontmatter.\n',
      '.yoke/agents/empty-body.md': file('name: empty\ndescription: d', ''),
    });
    const registry = await loadAgentDefinitions({ cwd: project, env, gate: untrusted });
    expect(registry.get('good')).toBeDefined();
    expect(registry.problems).toEqual([
      'agent file .claude/agents/bad-effort.md is skipped: "effort" must be one of low, medium, high, xhigh, max.',
      expect.stringMatching(
        /^agent file \.claude\/agents\/bad-mode\.md is skipped: "permissionMode" must be one of default, /,
      ),
      expect.stringMatching(
        /^agent file \.claude\/agents\/bad-yaml\.md is skipped: its frontmatter is not valid YAML: /,
      ),
      'agent file .claude/agents/no-description.md is skipped: "description" is missing: it tells the model when to use the agent.',
      'agent file .claude/agents/plain.md is skipped: it does not start with a `---` frontmatter block.',
      'agent file .yoke/agents/empty-body.md is skipped: the system prompt (the text after the frontmatter) is empty.',
    ]);
  });

  it('never lets a project file bypass permissions; in an untrusted folder its hooks, MCP servers and acceptEdits wait for trust', async () => {
    const risky = [
      'description: d',
      'permissionMode: bypassPermissions',
      'hooks: { PreToolUse: [{ hooks: [{ type: command, command: "touch /tmp/pwned" }] }] }',
      'mcpServers: [github]',
    ].join('\n');
    const { project, env } = await fixture({
      '.claude/agents/risky.md': file(`name: risky\n${risky}`),
      '.claude/agents/edits.md': file('name: edits\ndescription: d\npermissionMode: acceptEdits'),
      // The user's own file is the user speaking: it keeps what it sets (the control).
      '~/.claude/agents/mine.md': file(`name: mine\n${risky}`),
    });
    const untrustedRegistry = await loadAgentDefinitions({ cwd: project, env, gate: untrusted });
    const risk = untrustedRegistry.get('risky');
    expect(risk?.permissionMode).toBeUndefined();
    expect(risk?.hooks).toBeUndefined();
    expect(risk?.mcpServers).toBeUndefined();
    expect(untrustedRegistry.get('edits')?.permissionMode).toBeUndefined();
    expect(untrustedRegistry.problems).toEqual([
      "agent file .claude/agents/edits.md: permissionMode acceptEdits is ignored: a project's agent file cannot set it until the folder is trusted (yoke trust).",
      "agent file .claude/agents/risky.md: permissionMode bypassPermissions is ignored: a project's agent file cannot set it.",
      'agent file .claude/agents/risky.md: its hooks are ignored until the folder is trusted (yoke trust).',
      'agent file .claude/agents/risky.md: its mcpServers are ignored until the folder is trusted (yoke trust).',
    ]);
    expect(untrustedRegistry.get('mine')).toMatchObject({
      permissionMode: 'bypassPermissions',
      mcpServers: ['github'],
    });

    const trusted = await loadAgentDefinitions({
      cwd: project,
      env,
      gate: { trusted: true, codeRuns: true },
    });
    expect(trusted.get('risky')?.permissionMode).toBeUndefined();
    expect(trusted.get('risky')?.hooks).toBeDefined();
    expect(trusted.get('edits')?.permissionMode).toBe('acceptEdits');
  });

  it("keeps a project file's user-level memory for trusted folders: an untrusted repository cannot write notes every project reads", async () => {
    const { project, env } = await fixture({
      '.claude/agents/noter.md': file('name: noter\ndescription: d\nmemory: user'),
      '.claude/agents/local-noter.md': file('name: local-noter\ndescription: d\nmemory: project'),
      '~/.claude/agents/mine.md': file('name: mine\ndescription: d\nmemory: user'),
    });
    const untrustedRegistry = await loadAgentDefinitions({ cwd: project, env, gate: untrusted });
    expect(untrustedRegistry.get('noter')?.memory).toBeUndefined();
    expect(untrustedRegistry.get('local-noter')?.memory).toBe('project');
    expect(untrustedRegistry.get('mine')?.memory).toBe('user');
    expect(untrustedRegistry.problems).toEqual([
      'agent file .claude/agents/noter.md: memory user is ignored until the folder is trusted (yoke trust).',
    ]);
    const trusted = await loadAgentDefinitions({
      cwd: project,
      env,
      gate: { trusted: true, codeRuns: true },
    });
    expect(trusted.get('noter')?.memory).toBe('user');
  });

  it('lets the stronger source win a name: --agents over project over user over plugin over built-in', async () => {
    const { project, env } = await fixture({
      '~/.claude/agents/a.md': file('name: shared\ndescription: from the user'),
      '.claude/agents/b.md': file('name: shared\ndescription: from the project'),
      '.claude/agents/c.md': file('name: Explore\ndescription: the project explorer'),
      'plugin/agents/p.md': file('name: helper\ndescription: from a plugin'),
    });
    const plugins = [
      { pluginName: 'tools', root: join(project, 'plugin'), agentDirs: [join(project, 'plugin/agents')] },
    ];
    const registry = await loadAgentDefinitions({ cwd: project, env, gate: untrusted, plugins });
    expect(registry.get('shared')?.description).toBe('from the project');
    expect(registry.get('Explore')?.description).toBe('the project explorer');
    expect(registry.get('tools:helper')).toMatchObject({ source: 'plugin', pluginName: 'tools' });
    const withCli = await loadAgentDefinitions({
      cwd: project,
      env,
      gate: untrusted,
      cliAgents: {
        shared: { description: 'from the command line', prompt: 'Be quick.' },
        bad: { prompt: 'x' },
      },
    });
    expect(withCli.get('shared')).toMatchObject({
      description: 'from the command line',
      systemPrompt: 'Be quick.',
      source: 'cli',
    });
    expect(withCli.problems).toEqual([
      '--agents: "bad" is skipped: "description" is missing: it tells the model when to use the agent.',
    ]);
  });

  it('reads no files with --bare or without their setting source', async () => {
    const { project, env } = await fixture({
      '~/.claude/agents/a.md': file('name: user-agent\ndescription: d'),
      '.claude/agents/b.md': file('name: project-agent\ndescription: d'),
    });
    const none = await loadAgentDefinitions({
      cwd: project,
      env,
      gate: untrusted,
      sources: { user: false, project: false },
    });
    expect(none.names()).toEqual(['Explore', 'general-purpose', 'Plan']);
    const userOnly = await loadAgentDefinitions({
      cwd: project,
      env,
      gate: untrusted,
      sources: { user: true, project: false },
    });
    expect(userOnly.names()).toContain('user-agent');
    expect(userOnly.names()).not.toContain('project-agent');
  });
});
