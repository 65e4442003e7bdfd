// biome-ignore-all lint/suspicious/noTemplateCurlyInString: a config's `${VAR}` is part of what is tested.
/**
 * The session's MCP servers against real processes: the fixture server (test/fixtures/mcp), the
 * reference server-everything and server-filesystem, a command that does not exist, a server that
 * hangs at start and one that crashes mid-call and is restarted.
 */
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mcpServerTools } from '../tools/mcp/server-tools';
import type { ConfiguredServer } from './config-sources';
import { loadMcpConfiguration } from './config-sources';
import { connectionOptionsFromEnv, McpManager } from './manager';
import { answerProjectServer, serversAwaitingApproval } from './project-approval';
import type { McpServerConfig } from './server-config';

const require = createRequire(import.meta.url);
const FIXTURE = resolve(__dirname, '../../test/fixtures/mcp/fixture-server.mjs');
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

const stdio = (args: string[], extra: Partial<McpServerConfig> = {}): McpServerConfig =>
  ({ type: 'stdio', command: process.execPath, args, env: {}, ...extra }) as McpServerConfig;
const server = (
  name: string,
  config: McpServerConfig,
  extra: Partial<ConfiguredServer> = {},
): ConfiguredServer => ({
  name,
  config,
  source: 'dynamic',
  ...extra,
});

let dir: string;
let manager: McpManager | undefined;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'yoke-mcp-')));
});
afterEach(async () => {
  await manager?.close();
  manager = undefined;
  await rm(dir, { recursive: true, force: true });
});

function start(
  servers: ConfiguredServer[],
  env: Record<string, string> = {},
  restartDelaysMs = [0],
): McpManager {
  manager = new McpManager(servers, {
    ...connectionOptionsFromEnv({ PATH: process.env.PATH ?? '', ...env }, dir),
    restartDelaysMs,
  });
  manager.start();
  return manager;
}

/** Resolves at the first change after which `done()` holds. */
function until(m: McpManager, done: () => boolean): Promise<void> {
  if (done()) return Promise.resolve();
  return new Promise((resolveWait) => {
    const stop = m.onChange(() => {
      if (done()) {
        stop();
        resolveWait();
      }
    });
  });
}

const signal = () => new AbortController().signal;

describe('MCP manager', () => {
  it('connects in parallel and reports each server: connected, failed with the reason, disabled', async () => {
    const m = start([
      server('fx', stdio([FIXTURE])),
      server('missing', stdio([], { command: 'yoke-no-such-mcp-server' } as Partial<McpServerConfig>)),
      server('off', stdio([FIXTURE]), { disabledReason: 'turned off by disabledMcpjsonServers in x' }),
      server('unset', stdio(['${YOKE_TEST_UNSET_DIR}/s.js'])),
    ]);
    expect(m.statuses().map((s) => s.status)).toEqual(['pending', 'pending', 'disabled', 'failed']);
    await m.whenSettled();
    const byName = Object.fromEntries(m.statuses().map((s) => [s.name, s]));
    expect(byName.fx?.status).toBe('connected');
    expect(byName.fx?.tools.map((t) => t.name)).toEqual(['echo', 'destroy', 'crash', 'big', 'add_tool']);
    expect(byName.missing).toMatchObject({
      status: 'failed',
      error: 'command not found: yoke-no-such-mcp-server',
    });
    expect(byName.unset).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('unset variable YOKE_TEST_UNSET_DIR'),
    });
    expect(mcpServerTools(m).map((t) => t.name)).toEqual([
      'mcp__fx__echo',
      'mcp__fx__destroy',
      'mcp__fx__crash',
      'mcp__fx__big',
      'mcp__fx__add_tool',
    ]);
    expect(m.notices()).toEqual([
      'MCP server "missing" is not available: command not found: yoke-no-such-mcp-server. Its tools (mcp__missing__*) cannot be called; tell the user if they need it (`yoke mcp get missing` shows its config).',
      'MCP server "off" is configured but not started (turned off by disabledMcpjsonServers in x); its tools (mcp__off__*) are not available.',
      expect.stringContaining('MCP server "unset" is not available: unset variable YOKE_TEST_UNSET_DIR'),
    ]);
    expect(m.promptCommands()).toEqual(['mcp__fx__greet']);
  });

  it('says in words why an HTTP server could not be reached', async () => {
    // A port that was free a moment ago: nothing listens there, so the connection is refused.
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const { port } = closed.address() as AddressInfo;
    await new Promise((done) => closed.close(done));
    const m = start([
      server('docs', { type: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: {} } as McpServerConfig),
    ]);
    await m.whenSettled();
    // Before: "could not reach the server: ECONNREFUSED".
    expect(m.statuses()[0]).toMatchObject({
      status: 'failed',
      error:
        'could not reach the server: connection refused (ECONNREFUSED): is the server running, on that port?',
    });
  });

  it('maps annotations: readOnlyHint → read tier and concurrent; destructiveHint → destructive; else exec', async () => {
    const m = start([server('fx', stdio([FIXTURE]))]);
    await m.whenSettled();
    const [echo, destroy, crash] = mcpServerTools(m);
    expect([echo?.tier, echo?.isConcurrencySafe({}), echo?.isDestructive({})]).toEqual(['read', true, false]);
    expect([destroy?.tier, destroy?.isConcurrencySafe({}), destroy?.isDestructive({})]).toEqual([
      'exec',
      false,
      true,
    ]);
    expect([crash?.tier, crash?.isConcurrencySafe({}), crash?.deferral]).toEqual([
      'exec',
      false,
      'when-over-budget',
    ]);
  });

  it('lists a server with 200 tools in full (every one deferrable), and alwaysLoad keeps them up front', async () => {
    const m = start([
      server('many', stdio([FIXTURE, '--tools', '200'])),
      server('pinned', stdio([FIXTURE], { alwaysLoad: true } as Partial<McpServerConfig>)),
    ]);
    await m.whenSettled();
    const many = mcpServerTools(m).filter((t) => t.name.startsWith('mcp__many__tool_'));
    expect(many).toHaveLength(200);
    expect(many.every((t) => t.deferral === 'when-over-budget')).toBe(true);
    expect(
      mcpServerTools(m)
        .filter((t) => t.name.startsWith('mcp__pinned__'))
        .every((t) => t.deferral === 'never'),
    ).toBe(true);
  });

  it('gives up on a server that hangs at initialize, with the reason', async () => {
    const m = start([server('stuck', stdio([FIXTURE, '--hang']))], { MCP_TIMEOUT: '500' });
    await m.whenSettled();
    expect(m.statuses()[0]).toMatchObject({
      status: 'failed',
      error: 'it did not finish starting within 500 ms (raise MCP_TIMEOUT if it is just slow)',
    });
  });

  it('a server that crashes mid-call fails that call, is reported, and is restarted', async () => {
    const marker = join(dir, 'starts.txt');
    const m = start([server('fx', stdio([FIXTURE, '--marker', marker]))]);
    await m.whenSettled();
    const connection = m.connection('fx');
    await expect(connection?.callTool('crash', {}, signal())).rejects.toThrow(/Connection closed/);
    await until(m, () => connection?.status === 'connected' && (connection?.descriptors.length ?? 0) > 0);
    expect((await readFile(marker, 'utf8')).trim().split('\n')).toHaveLength(2);
    const again = await connection?.callTool('echo', { text: 'back' }, signal());
    expect(again?.content).toEqual([{ type: 'text', text: 'echo: back' }]);
  });

  it('names a dropped server to the model while it is down, and stops retrying when the delays run out', async () => {
    const m = start([server('fx', stdio([FIXTURE]))], {}, []);
    await m.whenSettled();
    await m
      .connection('fx')
      ?.callTool('crash', {}, signal())
      .catch(() => {});
    await until(m, () => m.statuses()[0]?.status === 'failed');
    expect(m.statuses()[0]?.error).toBe(
      'the server exited (fixture: crashing on purpose); gave up after 0 tries, reconnect it with /mcp or mcp_reconnect',
    );
    expect(mcpServerTools(m)).toEqual([]);
    await m.reconnect('fx');
    expect(m.statuses()[0]?.status).toBe('connected');
  });

  it('tools/list_changed updates the tools', async () => {
    const m = start([server('fx', stdio([FIXTURE]))]);
    await m.whenSettled();
    await m.connection('fx')?.callTool('add_tool', {}, signal());
    await until(m, () => mcpServerTools(m).some((t) => t.name === 'mcp__fx__late'));
    expect(mcpServerTools(m).map((t) => t.name)).toContain('mcp__fx__late');
  });

  it('a plugin reload keeps an unchanged server, restarts a changed one, closes a removed one, starts a new one', async () => {
    const marker = (name: string) => join(dir, `${name}.starts`);
    const fixture = (name: string, ...extra: string[]) =>
      stdio([FIXTURE, '--marker', marker(name), ...extra]);
    const plugin = (name: string, config: McpServerConfig) => server(name, config, { source: 'plugin' });
    const m = start([
      plugin('plugin_a_keep', fixture('keep')),
      plugin('plugin_a_change', fixture('change')),
      plugin('plugin_b_gone', fixture('gone')),
      // A user's server of the same name as a plugin's stays the user's, as at start.
      server('plugin_c_new', fixture('user')),
    ]);
    await m.whenSettled();
    const changes = await m.replacePluginServers([
      plugin('plugin_a_keep', fixture('keep')),
      plugin('plugin_a_change', fixture('change', '--tools', '1')),
      plugin('plugin_c_new', fixture('shadowed')),
      plugin('plugin_d_new', fixture('new')),
    ]);
    expect(changes).toEqual({
      added: ['plugin_d_new'],
      removed: ['plugin_b_gone'],
      reconnected: ['plugin_a_change'],
    });
    expect(m.statuses().map((s) => [s.name, s.status, s.source])).toEqual([
      ['plugin_a_change', 'connected', 'plugin'],
      ['plugin_a_keep', 'connected', 'plugin'],
      ['plugin_c_new', 'connected', 'dynamic'],
      ['plugin_d_new', 'connected', 'plugin'],
    ]);
    const starts = async (name: string) =>
      (await readFile(marker(name), 'utf8').catch(() => '')).split('\n').filter(Boolean).length;
    expect(await Promise.all(['keep', 'change', 'gone', 'user', 'shadowed', 'new'].map(starts))).toEqual([
      1, 2, 1, 1, 0, 1,
    ]);
    // The processes of the removed server and of the changed one's old start have exited.
    const firstPid = async (name: string) => Number((await readFile(marker(name), 'utf8')).split(/\s+/)[1]);
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect([
      alive(await firstPid('gone')),
      alive(await firstPid('change')),
      alive(await firstPid('keep')),
    ]).toEqual([false, false, true]);
    const names = mcpServerTools(m).map((t) => t.name);
    expect(names).toContain('mcp__plugin_a_change__tool_001');
    expect(names).toContain('mcp__plugin_d_new__echo');
    expect(names.filter((n) => n.startsWith('mcp__plugin_b_gone__'))).toEqual([]);
    // Nothing changed: nothing is restarted.
    expect(
      await m.replacePluginServers([
        plugin('plugin_a_keep', fixture('keep')),
        plugin('plugin_a_change', fixture('change', '--tools', '1')),
        plugin('plugin_d_new', fixture('new')),
      ]),
    ).toEqual({ added: [], removed: [], reconnected: [] });
    expect(await starts('change')).toBe(2);
  });

  it('mcp_toggle turns a server off and on again', async () => {
    const m = start([server('fx', stdio([FIXTURE]))]);
    await m.whenSettled();
    await m.setEnabled('fx', false);
    expect(m.statuses()[0]).toMatchObject({ status: 'disabled', error: 'turned off for this session' });
    expect(mcpServerTools(m)).toEqual([]);
    await m.setEnabled('fx', true);
    expect(m.statuses()[0]?.status).toBe('connected');
    await expect(m.reconnect('nope')).rejects.toThrow('No MCP server named "nope"; configured: fx');
  });

  it('a .mcp.json server waiting for approval starts once the user approves it, and the answer is kept', async () => {
    const env = {
      HOME: dir,
      YOKE_HOME: join(dir, '.yoke'),
      CLAUDE_CONFIG_DIR: join(dir, '.claude'),
      PATH: process.env.PATH ?? '',
    };
    await writeFile(
      join(dir, '.mcp.json'),
      JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: [FIXTURE] } } }),
    );
    const input = {
      cwd: dir,
      env,
      mcpConfigs: [],
      strict: false,
      bare: false,
      settingsSources: [],
      trusted: true,
      interactive: true,
    };
    const m = start((await loadMcpConfiguration(input)).servers);
    expect(serversAwaitingApproval(m)).toEqual(['fx']);
    expect(m.notices()[0]).toContain('waits for your approval');
    await answerProjectServer(env, dir, m, 'fx', true);
    expect(m.statuses()[0]?.status).toBe('connected');
    expect(serversAwaitingApproval(m)).toEqual([]);
    const next = await loadMcpConfiguration(input);
    expect(next.servers[0]?.disabledReason).toBeUndefined();
  });

  it('works with the reference servers: server-everything (structured content, images) and server-filesystem', async () => {
    await writeFile(join(dir, 'hello.txt'), 'hello from disk');
    const m = start([
      server('everything', stdio([EVERYTHING, 'stdio'])),
      server('fs', stdio([FILESYSTEM, dir])),
    ]);
    await m.whenSettled();
    expect(m.statuses().map((s) => [s.name, s.status])).toEqual([
      ['everything', 'connected'],
      ['fs', 'connected'],
    ]);
    const sum = await m.connection('everything')?.callTool('get-sum', { a: 2, b: 40 }, signal());
    expect(JSON.stringify(sum?.content)).toContain('42');
    const image = await m.connection('everything')?.callTool('get-tiny-image', {}, signal());
    expect(image?.content?.some((c) => c.type === 'image' && c.mimeType === 'image/png')).toBe(true);
    const read = mcpServerTools(m).find((t) => t.name === 'mcp__fs__read_text_file');
    expect(read?.tier).toBe('read');
    const file = await m
      .connection('fs')
      ?.callTool('read_text_file', { path: join(dir, 'hello.txt') }, signal());
    expect(JSON.stringify(file?.content)).toContain('hello from disk');
    expect((await m.connection('everything')?.listResources(signal()))?.length).toBeGreaterThan(0);
  });
});
