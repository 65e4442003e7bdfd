/** Which servers a session knows and starts, from real files: scopes, precedence, approval, strict mode. */
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeUserFile } from '../config/project-trust';
import { userStatePath } from '../config/user-state';
import {
  loadMcpConfiguration,
  McpConfigError,
  type McpConfigInput,
  standaloneConfigInput,
} from './config-sources';
import { recordProjectServerChoice } from './project-approval';

let root: string;
let project: string;
let env: Record<string, string>;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'yoke-mcp-config-')));
  project = join(root, 'proj');
  await mkdir(project, { recursive: true });
  env = {
    HOME: join(root, 'home'),
    YOKE_HOME: join(root, 'home', '.yoke'),
    CLAUDE_CONFIG_DIR: join(root, 'claude'),
  };
  await mkdir(env.YOKE_HOME as string, { recursive: true });
  await mkdir(env.CLAUDE_CONFIG_DIR as string, { recursive: true });
});
afterEach(async () => rm(root, { recursive: true, force: true }));

const input = (over: Partial<McpConfigInput> = {}): McpConfigInput => ({
  ...standaloneConfigInput(project, env),
  ...over,
});
const stdio = (command: string) => ({ command, args: [] });
const writeJson = (path: string, value: unknown) => writeFile(path, JSON.stringify(value));

describe('MCP config sources', () => {
  it('merges local > project > user, Yoke state over ~/.claude.json, and --mcp-config over all', async () => {
    await writeJson(claudeUserFile(env), {
      mcpServers: { a: stdio('claude-user-a'), b: stdio('claude-user-b') },
      projects: { [project]: { mcpServers: { c: stdio('claude-local-c') } } },
    });
    await writeJson(userStatePath(env), {
      mcpServers: { a: stdio('yoke-user-a'), d: stdio('yoke-user-d') },
      projects: { [project]: { mcpServers: { d: stdio('yoke-local-d') } } },
    });
    await writeJson(join(project, '.mcp.json'), {
      mcpServers: { b: stdio('project-b'), c: stdio('project-c') },
    });
    const config = await loadMcpConfiguration(
      input({ mcpConfigs: [JSON.stringify({ mcpServers: { e: { type: 'http', url: 'http://x' } } })] }),
    );
    const summary = config.servers.map((s) => [
      s.name,
      s.source,
      s.config.type === 'stdio' ? s.config.command : s.config.url,
    ]);
    expect(summary).toEqual([
      ['a', 'user', 'yoke-user-a'],
      ['b', 'project', 'project-b'],
      ['c', 'local', 'claude-local-c'],
      ['d', 'local', 'yoke-local-d'],
      ['e', 'dynamic', 'http://x'],
    ]);
    expect(config.problems).toEqual([]);
  });

  it('--strict-mcp-config keeps only --mcp-config servers; a file path works as well as inline JSON', async () => {
    await writeJson(join(project, '.mcp.json'), { mcpServers: { p: stdio('p') } });
    await writeJson(join(project, 'servers.json'), { mcpServers: { f: stdio('from-file') } });
    const config = await loadMcpConfiguration(input({ mcpConfigs: ['servers.json'], strict: true }));
    expect(config.servers.map((s) => s.name)).toEqual(['f']);
  });

  it('refuses an unusable --mcp-config with the reason, and reports bad entries elsewhere without losing the rest', async () => {
    await expect(loadMcpConfiguration(input({ mcpConfigs: ['{"mcpServers": {'] }))).rejects.toThrow(
      /--mcp-config: invalid JSON at line 1/,
    );
    await expect(loadMcpConfiguration(input({ mcpConfigs: ['missing.json'] }))).rejects.toBeInstanceOf(
      McpConfigError,
    );
    await expect(
      loadMcpConfiguration(input({ mcpConfigs: ['{"mcpServers":{"x":{"type":"ws","url":"u"}}}'] })),
    ).rejects.toThrow('MCP server "x": unknown type "ws"; expected stdio, http or sse');
    await writeJson(join(project, '.mcp.json'), { mcpServers: { good: stdio('g'), bad: { args: [1] } } });
    const config = await loadMcpConfiguration(input());
    expect(config.servers.map((s) => s.name)).toEqual(['good']);
    expect(config.problems).toEqual([
      `${join(project, '.mcp.json')}: MCP server "bad": "command" must be a non-empty string`,
    ]);
  });

  it('starts .mcp.json servers headless, but interactively only once approved (an untrusted project cannot approve itself)', async () => {
    await writeJson(join(project, '.mcp.json'), { mcpServers: { p: stdio('p'), q: stdio('q') } });
    expect((await loadMcpConfiguration(input())).servers.every((s) => s.disabledReason === undefined)).toBe(
      true,
    );
    const selfApproved = [
      { source: 'projectSettings' as const, settings: { enableAllProjectMcpServers: true } },
    ];
    const waiting = await loadMcpConfiguration(input({ interactive: true, settingsSources: selfApproved }));
    expect(waiting.servers.map((s) => s.disabledReason)).toEqual([
      "it comes from this folder's .mcp.json and waits for your approval",
      "it comes from this folder's .mcp.json and waits for your approval",
    ]);
    const trusted = await loadMcpConfiguration(
      input({ interactive: true, trusted: true, settingsSources: selfApproved }),
    );
    expect(trusted.servers.map((s) => s.disabledReason)).toEqual([undefined, undefined]);

    await recordProjectServerChoice(env, project, 'p', true);
    await recordProjectServerChoice(env, project, 'q', false);
    const state = JSON.parse(await readFile(userStatePath(env), 'utf8'));
    expect(state.projects[project]).toEqual({ enabledMcpjsonServers: ['p'], disabledMcpjsonServers: ['q'] });
    const remembered = await loadMcpConfiguration(input({ interactive: true }));
    expect(remembered.servers.map((s) => [s.name, s.disabledReason])).toEqual([
      ['p', undefined],
      ['q', 'you declined it for this folder'],
    ]);
  });

  it('disabledMcpjsonServers turns a project server off even headless', async () => {
    await writeJson(join(project, '.mcp.json'), { mcpServers: { p: stdio('p') } });
    const sources = [
      {
        source: 'userSettings' as const,
        path: '/u/settings.json',
        settings: { disabledMcpjsonServers: ['p'] },
      },
    ];
    const config = await loadMcpConfiguration(input({ settingsSources: sources }));
    expect(config.servers[0]?.disabledReason).toBe(
      'turned off by disabledMcpjsonServers in /u/settings.json',
    );
  });
});
