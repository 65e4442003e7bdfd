/** `yoke mcp …` on real files and a real server: what each scope writes, refusals, list and get. */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { userStatePath } from '../../config/user-state';
import { runMcpCommand } from './mcp';
import { commandWorkspace } from './test-support';

const FIXTURE = resolve(__dirname, '../../../test/fixtures/mcp/fixture-server.mjs');

let root: string;
let cwd: string;
let env: Record<string, string>;
let lines: string[];
beforeEach(async () => {
  ({ root, cwd, env } = await commandWorkspace('yoke-mcp-cmd-'));
  lines = [];
});
afterEach(async () => rm(root, { recursive: true, force: true }));

const run = (...args: string[]) => runMcpCommand(args, { cwd, env, print: (line) => lines.push(line) });
const state = async () => JSON.parse(await readFile(userStatePath(env), 'utf8'));

describe('yoke mcp', () => {
  it('add writes each scope where sessions read it', async () => {
    await run('add', 'fx', '-e', 'TOKEN=abc', '--', process.execPath, FIXTURE, '--tools', '2');
    await run(
      'add',
      '-s',
      'user',
      '-t',
      'sse',
      'feed',
      'https://example.test/sse',
      '-H',
      'Authorization: Bearer t',
    );
    await run('add-json', '-s', 'project', 'web', '{"type":"http","url":"https://example.test/mcp"}');
    expect((await state()).projects[cwd].mcpServers.fx).toEqual({
      type: 'stdio',
      command: process.execPath,
      args: [FIXTURE, '--tools', '2'],
      env: { TOKEN: 'abc' },
    });
    expect((await state()).mcpServers.feed).toEqual({
      type: 'sse',
      url: 'https://example.test/sse',
      headers: { Authorization: 'Bearer t' },
    });
    expect(JSON.parse(await readFile(join(cwd, '.mcp.json'), 'utf8'))).toEqual({
      mcpServers: { web: { type: 'http', url: 'https://example.test/mcp' } },
    });
    expect(lines[0]).toBe(
      'Added stdio MCP server "fx" to the local scope (this folder only, private to you).',
    );
  });

  it('refuses bad input with one line and changes nothing', async () => {
    await expect(run('add', 'a b', 'cmd')).rejects.toThrow('may use only letters, digits');
    await expect(run('add', '-s', 'global', 'x', 'cmd')).rejects.toThrow(
      '--scope must be local, project or user (got "global")',
    );
    await expect(run('add', 'x', 'cmd', '-H', 'X: y')).resolves.toBe(0); // after the command, words are its arguments
    await expect(run('add', '-H', 'X: y', 'y', 'cmd')).rejects.toThrow(
      '-H headers are for http and sse servers',
    );
    await expect(run('add', '-e', 'NOVALUE', 'z', 'cmd')).rejects.toThrow(
      '-e must look like KEY=VALUE (got "NOVALUE")',
    );
    await expect(run('add-json', 'j', '{"url": 3}')).rejects.toThrow(
      'MCP server "j": "url" must be a non-empty string',
    );
    await expect(run('add', 'x', 'other')).rejects.toThrow(
      'MCP server "x" already exists in the local scope',
    );
    await writeFile(join(cwd, '.mcp.json'), '{ broken');
    await expect(run('add', '-s', 'project', 'p', 'cmd')).rejects.toThrow(
      'fix it by hand first, nothing was changed',
    );
    expect(await readFile(join(cwd, '.mcp.json'), 'utf8')).toBe('{ broken');
    expect(Object.keys((await state()).projects[cwd].mcpServers)).toEqual(['x']);
  });

  it('remove finds the scope, or asks for it when the name is in several', async () => {
    await run('add', 'fx', 'a');
    await run('add', '-s', 'user', 'fx', 'b');
    await expect(run('remove', 'fx')).rejects.toThrow(
      'MCP server "fx" is in several scopes (local, user); say which with -s',
    );
    await run('remove', '-s', 'user', 'fx');
    await run('remove', 'fx');
    await expect(run('remove', 'fx')).rejects.toThrow('No MCP server named "fx"');
    expect((await state()).mcpServers).toEqual({});
  });

  it('list and get connect and show status and tools', async () => {
    await run('add', 'fx', '--', process.execPath, FIXTURE);
    await run('add', 'gone', 'yoke-no-such-server-binary');
    lines = [];
    expect(await run('list')).toBe(1);
    expect(lines).toEqual([
      'fx (local, stdio): connected · 5 tools',
      'gone (local, stdio): failed: command not found: yoke-no-such-server-binary',
    ]);
    lines = [];
    expect(await run('get', 'fx')).toBe(0);
    expect(lines).toContain('  status: connected · 5 tools');
    expect(lines).toContain('  tool: mcp__fx__echo');
    await expect(run('get', 'nope')).rejects.toThrow('No MCP server named "nope"');
  });

  it("a server started through npx that fails names its own error, not npm's notice after it", async () => {
    // What `npx @modelcontextprotocol/server-filesystem ~/notes` writes when ~/notes is missing.
    const script = [
      "console.error('Error: None of the specified directories are accessible');",
      "console.error('npm notice');",
      "console.error('npm notice New minor version of npm available! 11.19.1 -> 11.21.2');",
      "console.error('npm notice');",
      'process.exit(1);',
    ].join(' ');
    await run('add', 'fs', '--', process.execPath, '-e', script);
    lines = [];
    expect(await run('get', 'fs')).toBe(1);
    expect(lines).toContain(
      '  status: failed: the server exited before it finished starting (stderr: Error: None of the specified directories are accessible)',
    );
  });
});
