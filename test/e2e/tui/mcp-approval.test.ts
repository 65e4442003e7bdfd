/**
 * The REPL's question about a folder's `.mcp.json` servers, in a real terminal (tmux): asked
 * once per folder and server, with what would run; an approved server connects in the running
 * session and its tools reach the model; the answers are remembered, so the next start asks nothing.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { READY, useTuiFixture } from './fixture';
import { tmuxAvailable } from './tmux';

const hasTmux = tmuxAvailable();
const FIXTURE = resolve(import.meta.dirname, '../../fixtures/mcp/fixture-server.mjs');
const fx = useTuiFixture('yoke-mcp-approval-', async (cwd) => {
  const server = (name: string) => ({
    command: process.execPath,
    args: [FIXTURE, '--ready', join(cwd, `${name}-ready`)],
  });
  await writeFile(
    join(cwd, '.mcp.json'),
    JSON.stringify({ mcpServers: { fx: server('fx'), fy: server('fy') } }),
  );
});

/** Polls a condition the test cannot be told about (a file the server writes). */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!hasTmux)('MCP approval in tmux', { timeout: 120_000 }, () => {
  it('asks per server with what would run; approve connects now, deny is remembered; the next start asks nothing', async () => {
    let t = await fx.open();
    let screen = await t.waitFor('start the MCP server "fx"', { timeoutMs: 45_000 });
    expect(screen).toContain(`${process.execPath} ${FIXTURE} --ready`);
    expect(screen).toContain('2. Yes, and the 1 other server of this .mcp.json waiting');
    await t.type('1');
    screen = await t.waitFor('start the MCP server "fy"');
    await t.type('2');
    screen = await t.waitFor((s) => s.includes('MCP server "fy" will not be started here.') && READY(s));
    expect(screen).toContain('MCP server "fx" approved; connecting.');
    await until(() => existsSync(join(fx.cwd, 'fx-ready')), 'the approved server to list its tools');
    fx.server.reset([{ reply: { content: [{ type: 'text', text: 'I see the tools' }] } }]);
    await t.type('which tools do you have?');
    await t.press('Enter');
    await t.waitFor('I see the tools');
    const body = fx.server.requests.at(-1)?.body as { tools: { name: string }[] };
    const tools = body.tools.map((tool) => tool.name);
    expect(tools).toContain('mcp__fx__echo');
    expect(tools.filter((name) => name.startsWith('mcp__fy__'))).toEqual([]);
    expect(existsSync(join(fx.cwd, 'fy-ready'))).toBe(false);

    const state = JSON.parse(await readFile(join(fx.home, 'state.json'), 'utf8'));
    expect(state.projects[fx.cwd]).toMatchObject({
      enabledMcpjsonServers: ['fx'],
      disabledMcpjsonServers: ['fy'],
    });

    await t.type('/exit ');
    await t.press('Enter');
    expect(await t.exitCode()).toBe(0);
    await t.close();
    t = await fx.open();
    screen = await t.waitFor(READY, { timeoutMs: 45_000 });
    expect(screen).not.toContain('start the MCP server');
  });
});
