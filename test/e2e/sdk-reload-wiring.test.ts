/**
 * What `reloadPlugins()` rewires beyond commands and agents, through the unmodified Agent SDK
 * against the built CLI: the plugins' hooks (real hook commands writing to a log) and the
 * plugins' MCP servers (the fixture server over stdio), and `refuseIfBusy`.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTree } from '../../src/plugins/test-support';
import { tempProject } from './helpers';
import { bashGate, call, say, sdkSession } from './sdk-session';

const FIXTURE = resolve(import.meta.dirname, '../fixtures/mcp/fixture-server.mjs');

/** A hook group for `event` whose command appends `word` to `log`. */
const logHook = (event: string, log: string, word: string) => ({
  hooks: { [event]: [{ hooks: [{ type: 'command', command: `echo ${word} >> '${log}'` }] }] },
});

async function plugin(name: string, files: Record<string, string | object> = {}): Promise<string> {
  const root = await tempProject(`yoke-plugin-${name}-`);
  await writeTree(root, { '.claude-plugin/plugin.json': { name, version: '1.0.0' }, ...files });
  return root;
}

/** The words the hooks wrote since the last call (they run in parallel: sorted), and a fresh log. */
async function drain(log: string): Promise<string[]> {
  const words = (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean).sort();
  await writeFile(log, '');
  return words;
}

describe('reloadPlugins() rewires hooks and MCP servers', () => {
  it('a changed plugin’s hook runs in its new form, a new one’s runs, a removed one’s stops; settings hooks and SDK callbacks stay', async () => {
    const home = await tempProject('yoke-home-');
    const log = join(await tempProject('yoke-log-'), 'hooks.log');
    await writeFile(
      join(home, 'settings.json'),
      JSON.stringify(logHook('UserPromptSubmit', log, 'settings')),
    );
    const kit = await plugin('kit', { 'hooks/hooks.json': logHook('UserPromptSubmit', log, 'kit-v1') });
    let callbacks = 0;
    const s = await sdkSession({
      scenario: [say('one'), say('two'), say('three')],
      home,
      options: {
        plugins: [{ type: 'local', path: kit }],
        hooks: {
          UserPromptSubmit: [
            {
              hooks: [
                async () => {
                  callbacks += 1;
                  return {};
                },
              ],
            },
          ],
        },
      },
    });
    await s.turn('hello');
    expect(await drain(log)).toEqual(['kit-v1', 'settings']);

    await writeTree(kit, { 'hooks/hooks.json': logHook('UserPromptSubmit', log, 'kit-v2') });
    const extra = await plugin('extra', { 'hooks/hooks.json': logHook('UserPromptSubmit', log, 'extra') });
    const reloaded = await s.q.reloadPlugins({ addPlugins: [{ type: 'local', path: extra }] });
    expect(reloaded.plugins.map((p) => p.name)).toEqual(['kit', 'extra']);
    expect(reloaded.error_count).toBe(0);
    await s.turn('again');
    expect(await drain(log)).toEqual(['extra', 'kit-v2', 'settings']);

    // The added plugin's folder is gone: it is skipped (one problem), and its hook with it.
    await rm(extra, { recursive: true });
    const third = await s.q.reloadPlugins();
    expect(third.plugins.map((p) => p.name)).toEqual(['kit']);
    expect(third.error_count).toBe(1);
    await s.turn('once more');
    await s.finish();
    expect(await drain(log)).toEqual(['kit-v2', 'settings']);
    expect(callbacks).toBe(3);
    // Each turn's system/init lists the plugins of that turn.
    expect(s.inits.map((init) => init.plugins.map((p) => p.name))).toEqual([
      ['kit'],
      ['kit', 'extra'],
      ['kit'],
    ]);
  });

  it('a session that started without any hook gets the hooks of a plugin added later', async () => {
    const log = join(await tempProject('yoke-log-'), 'hooks.log');
    const s = await sdkSession();
    await s.turn('hello');
    const late = await plugin('late', { 'hooks/hooks.json': logHook('UserPromptSubmit', log, 'late') });
    await s.q.reloadPlugins({ addPlugins: [{ type: 'local', path: late }] });
    await s.turn('again');
    await s.finish();
    expect(await drain(log)).toEqual(['late']);
  });

  it('plugin MCP servers: a new one connects, a changed one restarts, a removed one goes, an unchanged one stays; the model sees the new tools', async () => {
    const markers = await tempProject('yoke-markers-');
    const server = (name: string, ...extra: string[]) => ({
      command: process.execPath,
      args: [FIXTURE, '--marker', join(markers, name), ...extra],
    });
    const kit = await plugin('kit', {
      '.mcp.json': { mcpServers: { keep: server('keep'), change: server('change') } },
    });
    const old = await plugin('old', { '.mcp.json': { mcpServers: { gone: server('gone') } } });
    const s = await sdkSession({
      scenario: [say('one'), call('mcp__plugin_fresh_new__echo', { text: 'hi' }), say('two')],
      options: {
        plugins: [
          { type: 'local', path: kit },
          { type: 'local', path: old },
        ],
        allowedTools: ['mcp__plugin_fresh_new__echo'],
      },
    });
    await s.turn('hello');

    await writeTree(kit, {
      '.mcp.json': { mcpServers: { keep: server('keep'), change: server('change', '--tools', '1') } },
    });
    await rm(old, { recursive: true });
    const fresh = await plugin('fresh', { '.mcp.json': { mcpServers: { new: server('new') } } });
    const reloaded = await s.q.reloadPlugins({ addPlugins: [{ type: 'local', path: fresh }] });
    expect(reloaded.mcpServers.map((m) => [m.name, m.status])).toEqual([
      ['plugin_fresh_new', 'connected'],
      ['plugin_kit_change', 'connected'],
      ['plugin_kit_keep', 'connected'],
    ]);
    const starts = async (name: string) =>
      (await readFile(join(markers, name), 'utf8').catch(() => '')).split('\n').filter(Boolean).length;
    expect(
      Object.fromEntries(
        await Promise.all(['keep', 'change', 'gone', 'new'].map(async (n) => [n, await starts(n)])),
      ),
    ).toEqual({ keep: 1, change: 2, gone: 1, new: 1 });

    await s.turn('call it');
    await s.finish();
    const tools = (s.request(1).tools ?? []).map((tool) => tool.name);
    expect(tools).toEqual(
      expect.arrayContaining([
        'mcp__plugin_fresh_new__echo',
        'mcp__plugin_kit_change__tool_001',
        'mcp__plugin_kit_keep__echo',
      ]),
    );
    expect(tools.filter((name) => name.startsWith('mcp__plugin_old_gone__'))).toEqual([]);
    expect(s.requestText(2)).toContain('echo: hi');
    const init = s.inits[1];
    expect(init?.mcp_servers.map((m) => m.name)).toEqual([
      'plugin_fresh_new',
      'plugin_kit_change',
      'plugin_kit_keep',
    ]);
    expect(init?.tools).toContain('mcp__plugin_fresh_new__echo');
  });

  it('refuseIfBusy: refused while a turn runs, with the reason; served once idle; the capability is advertised', async () => {
    const gate = await bashGate();
    const s = await sdkSession({
      scenario: [gate.call, say('done')],
      onToolCall: gate.onToolCall,
      cwd: gate.cwd,
    });
    const turn = s.turn('hello');
    await gate.started;
    const extra = await plugin('extra', { 'commands/hi.md': '---\ndescription: Hi\n---\nHI\n' });
    await expect(
      s.q.reloadPlugins({ addPlugins: [{ type: 'local', path: extra }], refuseIfBusy: true }),
    ).rejects.toThrow(
      'The session is busy (a turn is running), so nothing was reloaded (refuse_if_busy); ask again once it is idle.',
    );
    await gate.open();
    await turn;
    const served = await s.q.reloadPlugins({
      addPlugins: [{ type: 'local', path: extra }],
      refuseIfBusy: true,
    });
    expect(served.commands.map((c) => c.name)).toContain('extra:hi');
    // The SDK's type leaves `capabilities` out of the initialize answer; the real CLI sends it there too.
    const answer = (await s.q.initializationResult()) as unknown as { capabilities?: string[] };
    expect(answer.capabilities).toContain('reload_plugins_refuse_if_busy_v1');
    await s.finish();
    expect(s.inits[0]?.capabilities).toContain('reload_plugins_refuse_if_busy_v1');
  });

  it('without refuseIfBusy, a reload during a turn is held: the new hooks do not fire inside that turn, and do from the next', async () => {
    const gate = await bashGate();
    const log = join(await tempProject('yoke-log-'), 'hooks.log');
    const s = await sdkSession({
      scenario: [gate.call, say('done'), say('second')],
      onToolCall: gate.onToolCall,
      cwd: gate.cwd,
    });
    const turn = s.turn('hello');
    await gate.started;
    const watcher = await plugin('watcher', {
      'hooks/hooks.json': {
        hooks: {
          ...logHook('PostToolUse', log, 'post-tool').hooks,
          ...logHook('UserPromptSubmit', log, 'prompt').hooks,
        },
      },
    });
    const held = await s.q.reloadPlugins({ addPlugins: [{ type: 'local', path: watcher }] });
    expect(held.plugins.map((p) => p.name)).toEqual(['watcher']);
    await gate.open();
    await turn;
    // The Bash call ended after the reload was answered, inside the turn that was running: no hook.
    expect(await drain(log)).toEqual([]);
    await s.turn('again');
    await s.finish();
    expect(await drain(log)).toEqual(['prompt']);
  });
});
