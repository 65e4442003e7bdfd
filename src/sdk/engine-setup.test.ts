import { describe, expect, it } from 'vitest';
import { setUpEngine } from './engine-setup';
import { startTestPeer } from './mcp-test-peer';
import type { SessionEngine, StreamJsonEngineExtras } from './types';

describe('setUpEngine', () => {
  it('hands the SDK MCP servers and their status to system/init through initExtras', async () => {
    const peer = await startTestPeer('calc');
    const created: StreamJsonEngineExtras[] = [];
    const warnings: string[] = [];
    const { mcpConnections } = await setUpEngine(
      {
        cliOptions: {},
        createEngine: async (options) => {
          created.push(options);
          return { engine: {} as SessionEngine };
        },
        channel: peer.channel,
        onPermissionWaiting: () => {},
        warn: (message) => warnings.push(message),
      },
      { extras: {}, hooks: undefined, sdkMcpServers: ['calc', 'nope'], mcpCallTimeouts: {} },
    );
    expect(created[0]?.initExtras).toEqual({
      mcp_servers: [
        { name: 'calc', status: 'connected', source: 'sdk' },
        { name: 'nope', status: 'failed', source: 'sdk' },
      ],
    });
    expect(created[0]?.extraTools?.map((t) => t.name)).toEqual(['mcp__calc__add', 'mcp__calc__fail']);
    expect(warnings).toHaveLength(1);
    await Promise.all(mcpConnections.map((c) => c.close()));
  });

  it('leaves initExtras unset without SDK MCP servers', async () => {
    const peer = await startTestPeer('calc');
    const created: StreamJsonEngineExtras[] = [];
    await setUpEngine(
      {
        cliOptions: {},
        createEngine: async (options) => {
          created.push(options);
          return { engine: {} as SessionEngine };
        },
        channel: peer.channel,
        onPermissionWaiting: () => {},
        warn: () => {},
      },
      undefined,
    );
    expect(created[0]?.initExtras).toBeUndefined();
  });
});
