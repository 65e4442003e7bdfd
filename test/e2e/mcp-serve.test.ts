/**
 * `yoke mcp serve` driven by a real MCP client over stdio: it lists the built-in tools with their
 * annotations, runs allowed calls, and refuses the rest with the same reason a `-p` run gives.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { fileExists, tempProject, YOKE_BIN } from './helpers';

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function serve(cwd: string, args: string[]): Promise<Client> {
  const home = await tempProject('yoke-serve-home-');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [YOKE_BIN, 'mcp', 'serve', ...args],
    cwd,
    // A model key is part of a session's set-up (WebFetch uses the model); no request is made here.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      YOKE_HOME: join(home, '.yoke'),
      CLAUDE_CONFIG_DIR: join(home, '.claude'),
      ANTHROPIC_API_KEY: 'sk-unused',
    },
    stderr: 'pipe',
  });
  client = new Client({ name: 'e2e', version: '1' });
  await client.connect(transport);
  return client;
}

const text = (result: Record<string, unknown>) => JSON.stringify(result.content);

describe('yoke mcp serve', () => {
  it('lists the built-ins, runs what the rules allow and refuses the rest with the reason', async () => {
    const cwd = await tempProject();
    const c = await serve(cwd, ['--allowedTools', 'Edit']);
    const { tools } = await c.listTools();
    const read = tools.find((t) => t.name === 'Read');
    expect(read?.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((t) => t.name === 'Bash')?.annotations).toMatchObject({ readOnlyHint: false });

    const written = await c.callTool({
      name: 'Write',
      arguments: { file_path: join(cwd, 'a.txt'), content: 'hi\n' },
    });
    expect(written.isError).toBe(false);
    expect(await readFile(join(cwd, 'a.txt'), 'utf8')).toBe('hi\n');
    const shown = await c.callTool({ name: 'Read', arguments: { file_path: join(cwd, 'a.txt') } });
    expect(text(shown)).toContain('hi');

    const bash = await c.callTool({ name: 'Bash', arguments: { command: `touch ${join(cwd, 'marker')}` } });
    expect(bash.isError).toBe(true);
    expect(text(bash)).toContain('was not granted: no one is here to approve it');
    expect(await fileExists(join(cwd, 'marker'))).toBe(false);
  });

  it('--permission-mode plan serves only the read tools', async () => {
    const c = await serve(await tempProject(), ['--permission-mode', 'plan']);
    const names = (await c.listTools()).tools.map((t) => t.name);
    expect(names).toContain('Read');
    expect(names).not.toContain('Write');
  });
});
