import { describe, expect, it } from 'vitest';
import { CodedControlError, type ControlContext, handleControlRequest } from './control-handlers';
import type { SdkMcpConnection } from './mcp-bridge';
import type { McpServerControl, SessionEngine, SessionReloader } from './types';

function fakeEngine() {
  const engine = {
    currentModel: 'claude-sonnet-5-5',
    permissionMode: 'default',
    sessionId: 's',
    thinking: undefined as number | null | undefined,
    setModel(model: string) {
      engine.currentModel = model;
    },
    setPermissionMode(mode: string) {
      engine.permissionMode = mode;
    },
    setMaxThinkingTokens(tokens: number | null) {
      engine.thinking = tokens;
    },
    interrupt() {},
    submitMessage: undefined as never,
  };
  return engine;
}

function context(overrides: Partial<ControlContext> = {}) {
  const engine = fakeEngine();
  const events: string[] = [];
  const ctx: ControlContext = {
    initialize: async () => ({ commands: [] }),
    engine: async () => engine as unknown as SessionEngine,
    defaultModel: () => 'claude-opus-5-5',
    turnRunning: () => true,
    busyWith: () => 'a turn is running',
    interruptTurn: () => {
      events.push('interrupted');
    },
    queuedTurns: () => [],
    mcpConnections: () => [],
    mcpServers: async () => undefined,
    reloader: async () => undefined,
    ...overrides,
  };
  return { ctx, engine, events };
}

const ask = (ctx: ControlContext, request: Record<string, unknown>) => handleControlRequest(ctx, request);

describe('control requests from the host', () => {
  it('interrupt: the receipt is returned first and the abort runs after it', async () => {
    const { ctx, events } = context();
    const answer = await ask(ctx, { subtype: 'interrupt' });
    expect(answer.payload).toEqual({ still_queued: [] });
    expect(events).toEqual([]);
    answer.afterAnswer?.();
    expect(events).toEqual(['interrupted']);
  });

  it('interrupt with no turn running is a plain success; cancel_queued drops waiting turns', async () => {
    const idle = context({ turnRunning: () => false });
    const answer = await ask(idle.ctx, { subtype: 'interrupt' });
    expect(answer).toEqual({ payload: {} });
    const busy = context({ queuedTurns: (cancel) => (cancel ? ['u2'] : ['u2']) });
    expect((await ask(busy.ctx, { subtype: 'interrupt', cancel_queued: true })).payload).toEqual({
      still_queued: [],
      cancelled: ['u2'],
    });
    expect((await ask(busy.ctx, { subtype: 'interrupt' })).payload).toEqual({ still_queued: ['u2'] });
  });

  it('set_permission_mode answers the mode in effect and refuses unknown modes', async () => {
    const { ctx, engine } = context();
    expect((await ask(ctx, { subtype: 'set_permission_mode', mode: 'acceptEdits' })).payload).toEqual({
      mode: 'acceptEdits',
    });
    expect(engine.permissionMode).toBe('acceptEdits');
    await expect(ask(ctx, { subtype: 'set_permission_mode', mode: 'yolo' })).rejects.toThrow(
      /Unknown permission mode/,
    );
  });

  it('set_model resolves aliases; null and "default" go back to the starting model', async () => {
    const { ctx, engine } = context();
    expect((await ask(ctx, { subtype: 'set_model', model: 'haiku' })).payload).toEqual({
      model: 'claude-haiku-5-5',
    });
    expect((await ask(ctx, { subtype: 'set_model', model: null })).payload).toEqual({
      model: 'claude-opus-5-5',
    });
    engine.currentModel = 'x';
    expect((await ask(ctx, { subtype: 'set_model', model: 'default' })).payload).toEqual({
      model: 'claude-opus-5-5',
    });
  });

  it('set_max_thinking_tokens sets or resets the budget', async () => {
    const { ctx, engine } = context();
    expect(
      (await ask(ctx, { subtype: 'set_max_thinking_tokens', max_thinking_tokens: 2048 })).payload,
    ).toEqual({});
    expect(engine.thinking).toBe(2048);
    await ask(ctx, { subtype: 'set_max_thinking_tokens', max_thinking_tokens: null });
    expect(engine.thinking).toBeNull();
  });

  it('mcp_status lists the SDK servers; mcp_message relays to the named server', async () => {
    const delivered: unknown[] = [];
    const connection = {
      name: 'calc',
      status: 'connected',
      serverInfo: { name: 'calc-server', version: '1' },
      descriptors: [{ name: 'add', description: 'Add', annotations: { readOnlyHint: true } }],
      tools: [],
      transport: { deliver: (m: unknown) => delivered.push(m) },
    } as unknown as SdkMcpConnection;
    const { ctx } = context({ mcpConnections: () => [connection] });
    expect((await ask(ctx, { subtype: 'mcp_status' })).payload).toEqual({
      mcpServers: [
        {
          name: 'calc',
          status: 'connected',
          scope: 'sdk',
          source: 'sdk',
          serverInfo: { name: 'calc-server', version: '1' },
          tools: [
            { name: 'add', description: 'Add', annotations: { readOnly: true, destructive: undefined } },
          ],
        },
      ],
    });
    const note = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };
    expect((await ask(ctx, { subtype: 'mcp_message', server_name: 'calc', message: note })).payload).toEqual(
      {},
    );
    expect(delivered).toEqual([note]);
    await expect(ask(ctx, { subtype: 'mcp_message', server_name: 'x', message: note })).rejects.toThrow(
      'SDK MCP server not found: x',
    );
  });

  it('mcp_status adds the configured servers; mcp_reconnect and mcp_toggle act on them, not on SDK servers', async () => {
    const calls: string[] = [];
    const control: McpServerControl = {
      statuses: () => [
        {
          name: 'fx',
          status: 'failed',
          source: 'project',
          transport: 'stdio',
          error: 'boom',
          tools: [],
          prompts: [],
        },
      ],
      reconnect: async (name) => {
        calls.push(`reconnect ${name}`);
      },
      setEnabled: async (name, enabled) => {
        calls.push(`toggle ${name} ${enabled}`);
      },
    };
    const sdkServer = { name: 'calc', status: 'connected', descriptors: [] } as unknown as SdkMcpConnection;
    const { ctx } = context({ mcpServers: async () => control, mcpConnections: () => [sdkServer] });
    expect((await ask(ctx, { subtype: 'mcp_status' })).payload.mcpServers).toEqual([
      { name: 'calc', status: 'connected', scope: 'sdk', source: 'sdk', tools: [] },
      { name: 'fx', status: 'failed', scope: 'project', source: 'project', error: 'boom' },
    ]);
    await ask(ctx, { subtype: 'mcp_reconnect', serverName: 'fx' });
    await ask(ctx, { subtype: 'mcp_toggle', serverName: 'fx', enabled: false });
    expect(calls).toEqual(['reconnect fx', 'toggle fx false']);
    await expect(ask(ctx, { subtype: 'mcp_reconnect', serverName: 'calc' })).rejects.toThrow(
      'MCP server "calc" lives in the SDK host; connect or disconnect it there.',
    );
    await expect(ask(ctx, { subtype: 'mcp_toggle', serverName: 'fx' })).rejects.toThrow(
      'mcp_toggle needs "enabled": true or false.',
    );
    const { ctx: none } = context();
    await expect(ask(none, { subtype: 'mcp_reconnect', serverName: 'fx' })).rejects.toThrow(
      'No MCP server named "fx": this session has none configured.',
    );
  });

  it('reload_skills and reload_plugins: now when idle, at the next turn while one runs; add_plugins must be absolute', async () => {
    const calls: unknown[] = [];
    const reloader: SessionReloader = {
      beforeTurn: () => {},
      skills: async (options) => {
        calls.push(['skills', options.idle()]);
        return { skills: [{ name: 'deploy', description: 'Ship it', argumentHint: '' }] };
      },
      plugins: async (options) => {
        calls.push(['plugins', options.idle(), options.addPluginDirs]);
        return { commands: [], agents: [], plugins: [{ name: 'p', path: '/p' }], error_count: 0 };
      },
    };
    const idle = context({ turnRunning: () => false, reloader: async () => reloader });
    expect((await ask(idle.ctx, { subtype: 'reload_skills' })).payload).toEqual({
      skills: [{ name: 'deploy', description: 'Ship it', argumentHint: '' }],
    });
    const busy = context({ reloader: async () => reloader });
    const answer = await ask(busy.ctx, {
      subtype: 'reload_plugins',
      add_plugins: [{ type: 'local', path: '/opt/plugins/extra' }],
    });
    expect(answer.payload).toEqual({
      commands: [],
      agents: [],
      plugins: [{ name: 'p', path: '/p' }],
      error_count: 0,
      mcpServers: [],
    });
    expect(calls).toEqual([
      ['skills', true],
      ['plugins', false, ['/opt/plugins/extra']],
    ]);
    await expect(
      ask(busy.ctx, { subtype: 'reload_plugins', add_plugins: [{ type: 'local', path: 'rel/dir' }] }),
    ).rejects.toThrow(
      'add_plugins[0] must be {"type": "local", "path": <absolute path>}; nothing was reloaded.',
    );
    expect(calls).toHaveLength(2);
    const { ctx: without } = context();
    await expect(ask(without, { subtype: 'reload_skills' })).rejects.toThrow(
      'This session cannot reload plugins or skills.',
    );
  });

  it('a reload asks whether the session is idle once the files are read, not when the request came', async () => {
    let running = false;
    const seen: boolean[] = [];
    const reloader: SessionReloader = {
      beforeTurn: () => {},
      skills: async ({ idle }) => {
        // A turn starts while the files are read: the new set must wait for the next one.
        running = true;
        seen.push(idle());
        return { skills: [] };
      },
      plugins: async () => ({ commands: [], agents: [], plugins: [], error_count: 0 }),
    };
    const { ctx } = context({ turnRunning: () => running, reloader: async () => reloader });
    await ask(ctx, { subtype: 'reload_skills' });
    expect(seen).toEqual([false]);
  });

  it('reload_plugins with refuse_if_busy: refused with reload_plugins_busy while busy, served when idle; unset, held', async () => {
    const calls: boolean[] = [];
    const reloader: SessionReloader = {
      beforeTurn: () => {},
      skills: async () => ({ skills: [] }),
      plugins: async ({ idle }) => {
        calls.push(idle());
        return { commands: [], agents: [], plugins: [], error_count: 0 };
      },
    };
    const busy = context({ reloader: async () => reloader });
    const refused = ask(busy.ctx, { subtype: 'reload_plugins', refuse_if_busy: true });
    await expect(refused).rejects.toThrow(
      'The session is busy (a turn is running), so nothing was reloaded (refuse_if_busy); ask again once it is idle.',
    );
    await expect(refused).rejects.toBeInstanceOf(CodedControlError);
    await expect(refused).rejects.toMatchObject({ code: 'reload_plugins_busy' });
    // Queued messages or background agents count as busy even between turns.
    const queued = context({
      turnRunning: () => false,
      busyWith: () => 'a message is queued for a turn',
      reloader: async () => reloader,
    });
    await expect(ask(queued.ctx, { subtype: 'reload_plugins', refuse_if_busy: true })).rejects.toThrow(
      'The session is busy (a message is queued for a turn)',
    );
    await expect(ask(busy.ctx, { subtype: 'reload_plugins', refuse_if_busy: 'yes' })).rejects.toThrow(
      'refuse_if_busy must be true or false; nothing was reloaded.',
    );
    expect(calls).toEqual([]);
    const idle = context({
      turnRunning: () => false,
      busyWith: () => undefined,
      reloader: async () => reloader,
    });
    await ask(idle.ctx, { subtype: 'reload_plugins', refuse_if_busy: true });
    await ask(busy.ctx, { subtype: 'reload_plugins', refuse_if_busy: false });
    expect(calls).toEqual([true, false]);
  });

  it('refuses every other subtype by name', async () => {
    const { ctx } = context();
    await expect(ask(ctx, { subtype: 'rewind_files' })).rejects.toThrow(
      'Unsupported control request subtype: rewind_files',
    );
  });
});
