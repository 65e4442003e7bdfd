/**
 * OAuth against the test's own authorization server (src/testing/oauth-mcp-server.ts) guarding a
 * streamable HTTP MCP server: before `yoke mcp login` the server is needs-auth; the login's URL,
 * opened by the test as a browser would, signs in; the tokens land in the user state with mode
 * 0600 and a session then connects with them.
 */
import { mkdtemp, readFile, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { userStatePath } from '../../config/user-state';
import { loadMcpConfiguration, standaloneConfigInput } from '../../mcp/config-sources';
import { connectionOptionsFromEnv, McpManager } from '../../mcp/manager';
import { type OAuthMcpServer, startOAuthMcpServer } from '../../testing/oauth-mcp-server';
import { runMcpCommand } from './mcp';
import { runMcpLogin } from './mcp-login';

let oauth: OAuthMcpServer;
let base: string;
let root: string;
let env: Record<string, string>;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'yoke-oauth-')));
  env = {
    HOME: root,
    YOKE_HOME: join(root, '.yoke'),
    CLAUDE_CONFIG_DIR: join(root, '.claude'),
    PATH: process.env.PATH ?? '',
  };
  oauth = await startOAuthMcpServer();
  base = oauth.base;
});
afterEach(async () => {
  await oauth.close();
  await rm(root, { recursive: true, force: true });
});

async function sessionStatus() {
  const manager = new McpManager(
    (await loadMcpConfiguration(standaloneConfigInput(root, env))).servers,
    connectionOptionsFromEnv(env, root),
  );
  manager.start();
  await manager.whenSettled();
  const status = manager.statuses()[0];
  await manager.close();
  return status;
}

describe('yoke mcp login', () => {
  it('signs in with PKCE and dynamic registration; sessions then connect with the stored token', async () => {
    await runMcpCommand(['add', '-t', 'http', 'guarded', `${base}/mcp`], { cwd: root, env, print: () => {} });
    expect(await sessionStatus()).toMatchObject({
      status: 'needs-auth',
      error: expect.stringContaining('sign in with `yoke mcp login guarded`'),
    });

    const lines: string[] = [];
    const login = runMcpLogin(['guarded'], {
      cwd: root,
      env,
      print: (line) => {
        lines.push(line);
        // The test is the browser: it opens the address, which comes back to Yoke's callback.
        if (line.startsWith(`${base}/authorize`)) void fetch(line);
      },
    });
    expect(await login).toBe(0);
    expect(lines[0]).toBe('Open this address in your browser to sign in to "guarded":');
    expect(lines.at(-1)).toBe(`Signed in to "guarded"; the tokens are kept in ${userStatePath(env)}.`);

    const state = JSON.parse(await readFile(userStatePath(env), 'utf8'));
    const stored = state.mcpOAuth[`guarded|${base}/mcp`];
    expect(oauth.issued.has(stored.tokens.access_token)).toBe(true);
    expect((await stat(userStatePath(env))).mode & 0o777).toBe(0o600);

    expect(await sessionStatus()).toMatchObject({ status: 'connected', tools: [{ name: 'secret' }] });
  });

  it('refuses a stdio server and an unknown name with one line', async () => {
    await runMcpCommand(['add', 'local', 'cmd'], { cwd: root, env, print: () => {} });
    const context = { cwd: root, env, print: () => {} };
    await expect(runMcpLogin(['local'], context)).rejects.toThrow(
      'runs over stdio; only http and sse servers sign in',
    );
    await expect(runMcpLogin(['nope'], context)).rejects.toThrow('No MCP server named "nope"');
  });
});
