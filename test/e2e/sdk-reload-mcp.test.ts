/**
 * A session that started without any MCP server, and a plugin reload that brings the first:
 * through the unmodified Agent SDK against the built CLI, with the fixture MCP server over stdio.
 * The manager is made by the reload; the server connects then, not in the next session.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTree } from '../../src/plugins/test-support';
import { tempProject } from './helpers';
import { call, say, sdkSession } from './sdk-session';

const FIXTURE = resolve(import.meta.dirname, '../fixtures/mcp/fixture-server.mjs');

describe('reloadPlugins() in a session without MCP servers', () => {
  it('the new plugin’s server connects at once, its tools reach the next request, mcp_status lists it, and the session’s end stops it', async () => {
    const marker = join(await tempProject('yoke-markers-'), 'new');
    const fresh = await tempProject('yoke-plugin-fresh-');
    await writeTree(fresh, {
      '.claude-plugin/plugin.json': { name: 'fresh', version: '1.0.0' },
      '.mcp.json': {
        mcpServers: { new: { command: process.execPath, args: [FIXTURE, '--marker', marker] } },
      },
    });
    const s = await sdkSession({
      scenario: [say('one'), call('mcp__plugin_fresh_new__echo', { text: 'hi' }), say('two')],
      options: { allowedTools: ['mcp__plugin_fresh_new__echo'] },
    });
    await s.turn('hello');
    expect(s.inits[0]?.mcp_servers).toEqual([]);

    const reloaded = await s.q.reloadPlugins({ addPlugins: [{ type: 'local', path: fresh }] });
    expect(reloaded.error_count).toBe(0);
    expect(reloaded.mcpServers.map((m) => [m.name, m.status])).toEqual([['plugin_fresh_new', 'connected']]);
    const status = await s.q.mcpServerStatus();
    expect(status.map((m) => [m.name, m.status])).toEqual([['plugin_fresh_new', 'connected']]);

    await s.turn('call it');
    const tools = (s.request(1).tools ?? []).map((tool) => tool.name);
    expect(tools).toContain('mcp__plugin_fresh_new__echo');
    expect(s.requestText(2)).toContain('echo: hi');
    expect(s.inits[1]?.mcp_servers.map((m) => [m.name, m.status])).toEqual([
      ['plugin_fresh_new', 'connected'],
    ]);

    const starts = (await readFile(marker, 'utf8')).split('\n').filter(Boolean);
    expect(starts).toHaveLength(1);
    const pid = Number(starts[0]?.split(' ')[1]);
    await s.finish();
    // The session's close stopped the server (and waited for it to exit).
    expect(() => process.kill(pid, 0)).toThrow();
  });
});
