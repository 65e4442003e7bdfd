/** /reload-plugins' summary and its refusals (the rewiring itself: test/e2e/tui/reload-plugins.test.ts). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandText, createTestHost, type TestHost } from '../test-host';

let host: TestHost;
beforeEach(async () => {
  host = await createTestHost();
});
afterEach(() => host.cleanup());

describe('/reload-plugins', () => {
  it('sums up the plugins, commands, agents, plugin servers and problems after the reload', async () => {
    host.reloadPlugins = async () => ({
      plugins: [{ name: 'kit', version: '1.0.0' }, { name: 'extra' }],
      commands: 21,
      agents: 1,
      problems: 2,
      mcpServers: [
        { name: 'plugin_kit_fx', status: 'connected' },
        { name: 'plugin_extra_db', status: 'failed', error: 'command not found: db-server' },
      ],
    });
    expect(await commandText(host, '/reload-plugins')).toBe(
      [
        'Reloaded 2 plugins: kit 1.0.0, extra · 21 commands · 1 agent.',
        'Plugin MCP servers: plugin_kit_fx connected, plugin_extra_db failed (command not found: db-server).',
        '2 problems (said above): what it names was skipped.',
      ].join('\n'),
    );
  });

  it('says why it cannot reload: a turn running, or a host without reloads', async () => {
    host.reloadPlugins = async () => {
      throw new Error('wait for the running turn to end (or press Esc), then run it again.');
    };
    expect(await commandText(host, '/reload-plugins')).toBe(
      '/reload-plugins failed: wait for the running turn to end (or press Esc), then run it again.',
    );
    delete host.reloadPlugins;
    expect(await commandText(host, '/reload-plugins')).toBe('This session cannot reload plugins.');
  });
});
