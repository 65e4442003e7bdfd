/** /mcp's text (what a host without the live view shows). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommandLine } from '../dispatch';
import { createTestHost, type TestHost } from '../test-host';

let host: TestHost;
beforeEach(async () => {
  host = await createTestHost();
});
afterEach(() => host.cleanup());

describe('/mcp', () => {
  it('asks for the live view, with each server and its status as the text', async () => {
    host.mcp = [
      {
        name: 'fs',
        status: 'connected',
        source: 'project',
        transport: 'stdio',
        tools: [{ name: 'read' }, { name: 'write' }] as never,
        prompts: [],
      },
      {
        name: 'docs',
        status: 'needs-auth',
        source: 'user',
        transport: 'http',
        error: 'the server asks for authorization (HTTP 401)',
        tools: [],
        prompts: [],
      },
    ];
    expect(await runCommandLine('/mcp', host)).toEqual({
      kind: 'view',
      view: 'mcp',
      text: [
        'MCP servers (1 of 2 connected):',
        '  fs (project, stdio): connected · 2 tools',
        '  docs (user, http): needs-auth: the server asks for authorization (HTTP 401)',
      ].join('\n'),
    });
  });

  it('says how to add one when there are none', async () => {
    const outcome = await runCommandLine('/mcp', host);
    expect(outcome).toMatchObject({
      kind: 'view',
      text: expect.stringContaining('No MCP servers in this session'),
    });
  });
});
