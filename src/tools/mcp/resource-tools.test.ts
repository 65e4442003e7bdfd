/** The resource tools and `@server:uri` mentions against the fixture server and server-everything. */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionOptionsFromEnv, McpManager } from '../../mcp/manager';
import { resourceMentions } from '../../mcp/resource-mentions';
import { makeTestContext } from '../builtin/shared/test-context';
import { SessionServices } from '../session-services';
import { listMcpResourcesTool, readMcpResourceTool } from './resource-tools';

const require = createRequire(import.meta.url);
const FIXTURE = resolve(__dirname, '../../../test/fixtures/mcp/fixture-server.mjs');
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

let manager: McpManager;
beforeAll(async () => {
  const stdio = (args: string[]) => ({ type: 'stdio' as const, command: process.execPath, args, env: {} });
  manager = new McpManager(
    [
      { name: 'fx', source: 'dynamic', config: stdio([FIXTURE]) },
      { name: 'everything', source: 'dynamic', config: stdio([EVERYTHING, 'stdio']) },
    ],
    connectionOptionsFromEnv({ PATH: process.env.PATH ?? '' }, process.cwd()),
  );
  manager.start();
  await manager.whenSettled();
});
afterAll(() => manager.close());

const context = () => makeTestContext({ services: new SessionServices({ env: {}, mcp: manager }) });

describe('MCP resources', () => {
  it('ListMcpResourcesTool lists each server’s resources with the server named', async () => {
    const { data } = await listMcpResourcesTool.call({ server: 'fx' }, context(), () => {});
    expect(data).toEqual([
      { uri: 'fixture://note', name: 'note', mimeType: 'text/plain', description: 'A note', server: 'fx' },
    ]);
    const all = (await listMcpResourcesTool.call({}, context(), () => {})).data;
    expect(new Set(all.map((r) => r.server))).toEqual(new Set(['fx', 'everything']));
    await expect(listMcpResourcesTool.call({ server: 'nope' }, context(), () => {})).rejects.toThrow(
      'No connected MCP server named "nope" offers resources; these do: fx, everything.',
    );
  });

  it('ReadMcpResourceTool returns text, and saves a binary resource to a file', async () => {
    const text = await readMcpResourceTool.call({ server: 'fx', uri: 'fixture://note' }, context(), () => {});
    expect(text.data.contents).toEqual([
      { uri: 'fixture://note', mimeType: 'text/plain', text: 'the note says hello' },
    ]);
    expect(readMcpResourceTool.mapResultToContent(text.data)).toBe('[fixture://note]\nthe note says hello');
    // server-everything serves blobs from a template: demo://resource/dynamic/blob/{id}.
    const uri = 'demo://resource/dynamic/blob/1';
    const read = await readMcpResourceTool.call({ server: 'everything', uri }, context(), () => {});
    const saved = read.data.contents[0]?.blobSavedTo as string;
    expect(read.data.contents[0]).toMatchObject({ uri, mimeType: 'text/plain' });
    expect((await readFile(saved)).length).toBeGreaterThan(0);
    expect(readMcpResourceTool.mapResultToContent(read.data)).toBe(
      `[${uri}] binary (text/plain) saved to ${saved}`,
    );
    await expect(
      readMcpResourceTool.call({ server: 'fx', uri: 'fixture://missing' }, context(), () => {}),
    ).rejects.toThrow('Reading fixture://missing from fx failed');
  });

  it('@server:uri mentions read the resource; e-mail addresses and unknown servers are left alone', async () => {
    const signal = new AbortController().signal;
    expect(
      await resourceMentions(manager, 'summarize @fx:fixture://note. mail me@fx:1 or @other:x', signal),
    ).toEqual([
      'The user mentioned @fx:fixture://note; its contents from MCP server "fx":\nthe note says hello',
    ]);
    expect((await resourceMentions(manager, '@fx:fixture://missing', signal))[0]).toMatch(
      /^The user mentioned @fx:fixture:\/\/missing, but reading it from MCP server "fx" failed: /,
    );
  });
});
