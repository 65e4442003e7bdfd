import { describe, expect, it } from 'vitest';
import { ControlChannel } from './control-channel';
import { connectSdkMcpServer } from './mcp-bridge';
import { startTestPeer } from './mcp-test-peer';

const toolContext = () => ({ abortSignal: new AbortController().signal }) as never;

describe('SDK MCP bridge', () => {
  it('handshakes over mcp_message and exposes the tools as mcp__server__tool', async () => {
    const peer = await startTestPeer('calc');
    const connection = await connectSdkMcpServer(peer.channel, 'calc');
    expect(connection.status).toBe('connected');
    expect(connection.serverInfo).toEqual({ name: 'calc-server', version: '1.2.3' });
    expect(peer.methods).toEqual(['initialize', 'notifications/initialized', 'tools/list']);
    expect(connection.tools.map((t) => t.name)).toEqual(['mcp__calc__add', 'mcp__calc__fail']);
    const add = connection.tools[0];
    expect(add?.tier).toBe('read');
    expect(add?.inputJsonSchema).toMatchObject({ type: 'object', properties: { a: { type: 'number' } } });
    await connection.close();
  });

  it('runs tools/call and maps the result, including isError', async () => {
    const peer = await startTestPeer('calc');
    const connection = await connectSdkMcpServer(peer.channel, 'calc');
    const [add, fail] = connection.tools;
    const sum = await add?.call({ a: 40, b: 2 }, toolContext(), () => {});
    expect(sum).toMatchObject({ content: '42', isError: false });
    const failed = await fail?.call({}, toolContext(), () => {});
    expect(failed).toMatchObject({ content: 'it broke', isError: true });
    expect(peer.methods.at(-1)).toBe('tools/call');
    await connection.close();
  });

  it('reports a server the host does not know as failed instead of throwing', async () => {
    const peer = await startTestPeer('calc');
    const connection = await connectSdkMcpServer(peer.channel, 'nope');
    expect(connection.status).toBe('failed');
    expect(connection.error).toContain('SDK MCP server not found: nope');
    expect(connection.tools).toEqual([]);
  });

  it('fails promptly when the host can no longer answer', async () => {
    const channel = new ControlChannel(() => {});
    channel.close('stdin was closed');
    const connection = await connectSdkMcpServer(channel, 'calc');
    expect(connection).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('stdin was closed'),
    });
  });

  it('delivers server-originated messages to the client', async () => {
    const peer = await startTestPeer('calc');
    const connection = await connectSdkMcpServer(peer.channel, 'calc');
    const seen: unknown[] = [];
    const previous = connection.transport.onmessage;
    connection.transport.onmessage = (message) => {
      seen.push(message);
      previous?.(message);
    };
    connection.transport.deliver({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    expect(seen).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
    await connection.close();
  });
});
