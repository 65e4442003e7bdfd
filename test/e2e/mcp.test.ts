/**
 * MCP servers through `yoke -p` as a user configures them: a project's `.mcp.json`, a server that
 * is still starting when the first request goes out (named to the model, joining after the next
 * tool round), permission rules by server, a blanket deny, and a bad `--mcp-config`.
 */
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempProject } from './helpers';
import { useWorkspace } from './workspace';

const FIXTURE = resolve(import.meta.dirname, '../fixtures/mcp/fixture-server.mjs');
const ws = useWorkspace();

type Body = { tools?: Array<{ name: string }>; messages: Array<{ role: string; content: unknown }> };
const body = (i: number) => ws.server.requests[i]?.body as Body;
const toolNames = (i: number) => (body(i).tools ?? []).map((t) => t.name);

/** A `.mcp.json` whose server waits for `release` and then says `ready` once listed. */
async function slowProjectServer(): Promise<{ cwd: string; release: string; ready: string }> {
  const cwd = await tempProject();
  const release = join(cwd, 'release');
  const ready = join(cwd, 'ready');
  const args = [FIXTURE, '--wait-for', release, '--ready', ready];
  await writeFile(
    join(cwd, '.mcp.json'),
    JSON.stringify({ mcpServers: { fx: { command: process.execPath, args } } }),
  );
  return { cwd, release, ready };
}

/** The model's first move: let the server start, and wait (in the shell, not the test) until it is listed. */
const releaseAndWait = (paths: { release: string; ready: string }) => ({
  content: [
    {
      type: 'tool_use' as const,
      id: 'b1',
      name: 'Bash',
      input: {
        command: `touch ${paths.release} && until [ -f ${paths.ready} ]; do sleep 0.05; done; echo up`,
      },
    },
  ],
});

describe('MCP servers in yoke -p', () => {
  it('does not wait for a server at the first request, names it as pending, and offers its tools once it is up', async () => {
    const paths = await slowProjectServer();
    ws.server.reset([
      { reply: releaseAndWait(paths) },
      {
        match: { hasTool: 'mcp__fx__echo' },
        reply: { content: [{ type: 'tool_use', id: 'm1', name: 'mcp__fx__echo', input: { text: 'hi' } }] },
      },
      { match: { lastToolResultContains: 'echo: hi' }, reply: { content: [{ type: 'text', text: 'done' }] } },
    ]);
    const { code, stdout, stderr } = await ws.yoke(
      ['-p', 'go', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash,mcp__fx'],
      paths.cwd,
    );
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const frames = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const init = frames.find((f) => f.type === 'system' && f.subtype === 'init');
    expect(init.mcp_servers).toEqual([{ name: 'fx', status: 'pending', source: 'project' }]);
    expect(frames.at(-1)).toMatchObject({ type: 'result', result: 'done', is_error: false });

    expect(toolNames(0).some((name) => name.startsWith('mcp__'))).toBe(false);
    expect(JSON.stringify(body(0).messages)).toContain(
      'MCP server \\"fx\\" is still connecting; its tools (mcp__fx__*) join at the next turn.',
    );
    // After the built-ins, sorted, with the resource tools the server's resources bring.
    const second = toolNames(1);
    const firstMcp = second.findIndex((name) => name.startsWith('mcp__') || name.includes('Mcp'));
    expect(second.slice(firstMcp)).toEqual([
      'ListMcpResourcesTool',
      'ReadMcpResourceTool',
      'mcp__fx__add_tool',
      'mcp__fx__big',
      'mcp__fx__crash',
      'mcp__fx__destroy',
      'mcp__fx__echo',
    ]);
  });

  it('a long MCP result goes through the result budget: the model gets a preview and the saved file', async () => {
    const paths = await slowProjectServer();
    ws.server.reset([
      { reply: releaseAndWait(paths) },
      {
        match: { hasTool: 'mcp__fx__big' },
        reply: { content: [{ type: 'tool_use', id: 'g1', name: 'mcp__fx__big', input: { chars: 150000 } }] },
      },
      {
        match: { lastToolResultContains: 'The complete result was saved to' },
        reply: { content: [{ type: 'text', text: 'saved' }] },
      },
    ]);
    const { code, stdout, stderr } = await ws.yoke(
      ['-p', 'go', '--allowedTools', 'Bash,mcp__fx__big'],
      paths.cwd,
    );
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: 'saved\n', stderr: '' });
    expect(JSON.stringify(body(2).messages.at(-1)).length).toBeLessThan(150000);
  });

  it('a blanket deny on the server keeps all its tools out of the pool', async () => {
    const paths = await slowProjectServer();
    ws.server.reset([
      { reply: releaseAndWait(paths) },
      { match: { lastToolResultContains: 'up' }, reply: { content: [{ type: 'text', text: 'no tools' }] } },
    ]);
    const { code, stdout } = await ws.yoke([
      '-p',
      'go',
      '--allowedTools',
      'Bash',
      '--disallowedTools',
      'mcp__fx',
    ]);
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'no tools\n' });
    expect(toolNames(1).filter((name) => name.startsWith('mcp__'))).toEqual([]);
  });

  it('without a rule, a call is refused headless with the reason, as for any tool that needs approval', async () => {
    const paths = await slowProjectServer();
    ws.server.reset([
      { reply: releaseAndWait(paths) },
      {
        match: { hasTool: 'mcp__fx__destroy' },
        reply: { content: [{ type: 'tool_use', id: 'd1', name: 'mcp__fx__destroy', input: {} }] },
      },
      {
        match: { lastToolResultContains: 'mcp__fx__destroy' },
        reply: { content: [{ type: 'text', text: 'refused' }] },
      },
    ]);
    const { code, stdout, stderr } = await ws.yoke(['-p', 'go', '--allowedTools', 'Bash'], paths.cwd);
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'refused\n' });
    expect(stderr).toContain(
      'yoke: Permission for mcp__fx__destroy was not granted: no one is here to approve it. Warning: mcp__fx__destroy reports that this call is destructive',
    );
    const last = JSON.stringify(body(2).messages.at(-1));
    expect(last).toContain('"is_error":true');
    expect(last).not.toContain('destroyed');
  });

  it('stops at once on an unusable --mcp-config, saying why', async () => {
    const { code, stdout, stderr } = await ws.yoke([
      '-p',
      'hi',
      '--mcp-config',
      '{"mcpServers": {"a": {"type": "ws"}}}',
    ]);
    expect({ code, stdout, stderr }).toEqual({
      code: 1,
      stdout: '',
      stderr: 'yoke: --mcp-config: MCP server "a": unknown type "ws"; expected stdio, http or sse\n',
    });
  });
});
