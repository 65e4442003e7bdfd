import { describe, expect, it } from 'vitest';
import { createMcpTool, mcpToolName, toToolResultContent } from './tool-adapter';

const context = (signal = new AbortController().signal) => ({ abortSignal: signal }) as never;

describe('MCP tool adapter', () => {
  it('names tools mcp__<server>__<tool>, replacing characters the API refuses', () => {
    expect(mcpToolName('calc', 'add')).toBe('mcp__calc__add');
    expect(mcpToolName('my server', 'do.it')).toBe('mcp__my_server__do_it');
  });

  it('passes the JSON Schema through and accepts any object input', () => {
    const schema = { $schema: 'x', type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };
    const tool = createMcpTool(
      's',
      { name: 't', description: 'Search', inputSchema: schema },
      async () => ({}),
    );
    expect(tool.inputJsonSchema).toEqual({
      type: 'object',
      properties: { q: { type: 'string' } },
      required: ['q'],
    });
    expect(tool.inputSchema.safeParse({ anything: 1 }).success).toBe(true);
    expect(tool.prompt()).toBe('Search');
    expect(tool.isMcp).toBe(true);
  });

  it('is exec unless the server says readOnlyHint', async () => {
    const plain = createMcpTool('s', { name: 'w' }, async () => ({}));
    const reader = createMcpTool('s', { name: 'r', annotations: { readOnlyHint: true } }, async () => ({}));
    expect([plain.tier, await plain.isReadOnly({}), plain.isConcurrencySafe({})]).toEqual([
      'exec',
      false,
      false,
    ]);
    expect([reader.tier, await reader.isReadOnly({}), reader.isConcurrencySafe({})]).toEqual([
      'read',
      true,
      true,
    ]);
  });

  it('calls through with the input and the abort signal, and maps isError', async () => {
    const abort = new AbortController();
    const calls: unknown[] = [];
    const tool = createMcpTool('s', { name: 't' }, async (args, { signal }) => {
      calls.push({ args, same: signal === abort.signal });
      return { content: [{ type: 'text', text: 'nope' }], isError: true };
    });
    const result = await tool.call({ x: 1 }, context(abort.signal), () => {});
    expect(calls).toEqual([{ args: { x: 1 }, same: true }]);
    expect(result).toMatchObject({ content: 'nope', isError: true });
  });

  it('maps text, images, resources and unknown content', () => {
    expect(
      toToolResultContent({
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }),
    ).toBe('a\nb');
    expect(
      toToolResultContent({
        content: [
          { type: 'text', text: 'see' },
          { type: 'image', mimeType: 'image/png', data: 'AAA' },
          { type: 'image', mimeType: 'image/tiff', data: 'AAA' },
          { type: 'resource', resource: { uri: 'file:///x', text: 'inside' } },
          { type: 'resource', resource: { uri: 'file:///i.png', mimeType: 'image/png', blob: 'BBB' } },
          { type: 'resource', resource: { uri: 'file:///z.zip', mimeType: 'application/zip', blob: 'CCC' } },
          { type: 'audio', data: 'x', mimeType: 'audio/wav' },
        ],
      }),
    ).toEqual([
      { type: 'text', text: 'see' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAA' } },
      { type: 'text', text: '[image of unsupported type image/tiff omitted]' },
      { type: 'text', text: '[resource file:///x]\ninside' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'BBB' } },
      { type: 'text', text: '[binary resource file:///z.zip (application/zip) omitted]' },
      { type: 'text', text: '[audio content omitted]' },
    ]);
    expect(toToolResultContent({ content: [], structuredContent: { n: 1 } })).toBe('{"n":1}');
  });
});
