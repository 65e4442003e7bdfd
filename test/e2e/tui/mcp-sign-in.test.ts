/**
 * Signing in to an MCP server from the REPL, in a real terminal (tmux): an HTTP server behind
 * OAuth (src/testing/oauth-mcp-server.ts) is needs-auth; /mcp lists it, Enter runs the sign-in —
 * the "browser" is a $BROWSER script that opens the address, so the authorization server sends it
 * back to Yoke's loopback callback — and the server connects in the running session: its tool
 * reaches the model without a restart.
 */
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OAuthMcpServer, startOAuthMcpServer } from '../../../src/testing/oauth-mcp-server';
import { tempProject } from '../helpers';
import { READY, useTuiFixture } from './fixture';
import { tmuxAvailable } from './tmux';

const hasTmux = tmuxAvailable();
const fx = useTuiFixture('yoke-mcp-sign-in-');
let oauth: OAuthMcpServer;
let browser: string;

beforeAll(async () => {
  oauth = await startOAuthMcpServer();
  const dir = await tempProject('yoke-browser-');
  browser = join(dir, 'browser.sh');
  // Follows the authorization server's redirect to the callback, as a browser would.
  await writeFile(browser, `#!/bin/sh\nexec '${process.execPath}' -e 'fetch(process.argv[1])' "$1"\n`);
  await chmod(browser, 0o755);
});
afterAll(async () => {
  await oauth?.close();
});

describe.skipIf(!hasTmux)('MCP sign-in in tmux', { timeout: 120_000 }, () => {
  it('/mcp signs in to a needs-auth server and it connects without a restart', async () => {
    const config = JSON.stringify({ mcpServers: { docs: { type: 'http', url: oauth.mcpUrl } } });
    const t = await fx.open(['--mcp-config', config], { env: { ...fx.env(), BROWSER: browser } });
    await t.waitFor(READY, { timeoutMs: 45_000 });
    await t.type('/mcp ');
    await t.press('Enter');
    let screen = await t.waitFor(/docs {2}dynamic · http {2}needs-auth/);
    expect(screen).toContain('MCP servers (0 of 1 connected)');
    await t.press('Enter');
    screen = await t.waitFor('Signed in to docs; connected · 1 tool.');
    expect(screen).toContain('MCP servers (1 of 1 connected)');
    await t.press('Escape');
    await t.waitFor((s) => !s.includes('MCP servers (') && READY(s));
    fx.server.reset([{ reply: { content: [{ type: 'text', text: 'the secret tool is there' }] } }]);
    await t.type('what can you use?');
    await t.press('Enter');
    await t.waitFor('the secret tool is there');
    const body = fx.server.requests.at(-1)?.body as { tools: { name: string }[] };
    expect(body.tools.map((tool) => tool.name)).toContain('mcp__docs__secret');
    expect(oauth.issued.size).toBeGreaterThan(0);
  });
});
