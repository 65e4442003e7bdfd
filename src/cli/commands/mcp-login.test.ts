/**
 * OAuth against an authorization server written here (metadata, dynamic client registration,
 * an authorize endpoint that approves at once, a token endpoint that checks PKCE) guarding a
 * streamable HTTP MCP server: before `yoke mcp login` the server is needs-auth; the login's URL,
 * opened by the test as a browser would, signs in; the tokens land in the user state with mode
 * 0600 and a session then connects with them.
 */
import { mkdtemp, readFile, realpath, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { userStatePath } from '../../config/user-state';
import { loadMcpConfiguration, standaloneConfigInput } from '../../mcp/config-sources';
import { connectionOptionsFromEnv, McpManager } from '../../mcp/manager';
import {
  type OAuthMcpServer,
  type OAuthMcpServerOptions,
  startOAuthMcpServer,
} from '../../testing/oauth-mcp-server';
import { runMcpCommand } from './mcp';
import { runMcpLogin } from './mcp-login';

let oauth: OAuthMcpServer | undefined;
let base: string;
let root: string;
let env: Record<string, string>;

/** The OAuth-guarded MCP server of src/testing, as this test needs it. */
async function startServer(options: OAuthMcpServerOptions = {}): Promise<OAuthMcpServer> {
  oauth = await startOAuthMcpServer(options);
  base = oauth.base;
  return oauth;
}

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'yoke-oauth-')));
  env = {
    HOME: root,
    YOKE_HOME: join(root, '.yoke'),
    CLAUDE_CONFIG_DIR: join(root, '.claude'),
    PATH: process.env.PATH ?? '',
  };
});
afterEach(async () => {
  await oauth?.close();
  oauth = undefined;
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

/** Runs `yoke mcp login`; the test is the browser: it opens each address, which comes back to Yoke's callback. */
async function loginAsBrowser(name: string, loginEnv: Record<string, string> = env) {
  const lines: string[] = [];
  const opened: URL[] = [];
  const code = await runMcpLogin([name], {
    cwd: root,
    env: loginEnv,
    print: (line) => {
      lines.push(line);
      if (!line.startsWith(`${base}/authorize`)) return;
      opened.push(new URL(line));
      void fetch(line);
    },
  });
  return { code, lines, opened };
}

describe('yoke mcp login', () => {
  it('signs in with PKCE and dynamic registration; sessions then connect with the stored token', async () => {
    const { issued } = await startServer();
    await runMcpCommand(['add', '-t', 'http', 'guarded', `${base}/mcp`], { cwd: root, env, print: () => {} });
    expect(await sessionStatus()).toMatchObject({
      status: 'needs-auth',
      error: expect.stringContaining('sign in with `yoke mcp login guarded`'),
    });

    const { code, lines } = await loginAsBrowser('guarded');
    expect(code).toBe(0);
    expect(lines[0]).toBe('Open this address in your browser to sign in to "guarded":');
    expect(lines.at(-1)).toBe(`Signed in to "guarded"; the tokens are kept in ${userStatePath(env)}.`);

    const state = JSON.parse(await readFile(userStatePath(env), 'utf8'));
    const stored = state.mcpOAuth[`guarded|${base}/mcp`];
    expect(issued.has(stored.tokens.access_token)).toBe(true);
    expect((await stat(userStatePath(env))).mode & 0o777).toBe(0o600);

    expect(await sessionStatus()).toMatchObject({ status: 'connected', tools: [{ name: 'secret' }] });
  });

  it('signs in as a client registered by hand: oauth.clientId from the config, the secret from MCP_CLIENT_SECRET', async () => {
    const server = await startServer({ preRegistered: { id: 'hand-made', secret: 's3cret' } });
    const entry = { type: 'http', url: `${base}/mcp`, oauth: { clientId: 'hand-made' } };
    await runMcpCommand(['add-json', 'guarded', JSON.stringify(entry)], { cwd: root, env, print: () => {} });
    const { code, opened } = await loginAsBrowser('guarded', { ...env, MCP_CLIENT_SECRET: 's3cret' });
    expect(code).toBe(0);
    expect(opened.map((url) => url.searchParams.get('client_id'))).toEqual(['hand-made']);
    expect(server.registrations).toBe(0);
    expect(await sessionStatus()).toMatchObject({ status: 'connected' });
  });

  it('uses oauth.clientMetadataUrl as the client id where the authorization server takes metadata documents', async () => {
    const server = await startServer({ acceptsCimd: true });
    const document = 'https://yoke.example/oauth/client.json';
    const entry = { type: 'http', url: `${base}/mcp`, oauth: { clientMetadataUrl: document } };
    await runMcpCommand(['add-json', 'guarded', JSON.stringify(entry)], { cwd: root, env, print: () => {} });
    const { code, opened } = await loginAsBrowser('guarded');
    expect(code).toBe(0);
    expect([opened.map((url) => url.searchParams.get('client_id')), server.registrations]).toEqual([
      [document],
      0,
    ]);
  });

  it('signs in to a server that lets Yoke in but publishes protected-resource metadata (it wants a token)', async () => {
    const server = await startServer({ openInitialize: true, openMethods: ['tools/list'] });
    await runMcpCommand(['add', '-t', 'http', 'guarded', `${base}/mcp`], { cwd: root, env, print: () => {} });
    const { code, lines } = await loginAsBrowser('guarded');
    expect(code).toBe(0);
    expect(lines.at(-1)).toBe(`Signed in to "guarded"; the tokens are kept in ${userStatePath(env)}.`);
    expect(server.authorizations).toHaveLength(1);
  });

  it("gets a userless client's token without a browser (client_credentials)", async () => {
    const server = await startServer({ serviceClient: { id: 'ci-bot', secret: 'ci-s3cret' } });
    const entry = {
      type: 'http',
      url: `${base}/mcp`,
      oauth: { grantType: 'client_credentials', clientId: 'ci-bot' },
    };
    await runMcpCommand(['add-json', 'svc', JSON.stringify(entry)], { cwd: root, env, print: () => {} });
    const lines: string[] = [];
    const context = {
      cwd: root,
      env: { ...env, MCP_CLIENT_SECRET: 'ci-s3cret' },
      print: (line: string) => lines.push(line),
    };
    expect(await runMcpLogin(['svc'], context)).toBe(0);
    expect(lines).toEqual([`Signed in to "svc"; the tokens are kept in ${userStatePath(env)}.`]);
    expect(server.tokenRequests.map((request) => request.grantType)).toEqual(['client_credentials']);
    await expect(runMcpLogin(['svc'], { ...context, env })).rejects.toThrow(
      'the client secret is read from $MCP_CLIENT_SECRET, which is not set',
    );
  });

  it('refuses an oauth entry it cannot use, naming the field', async () => {
    await startServer();
    const add = (oauth: unknown) =>
      runMcpCommand(['add-json', 'guarded', JSON.stringify({ type: 'http', url: `${base}/mcp`, oauth })], {
        cwd: root,
        env,
        print: () => {},
      });
    await expect(add({ callbackPort: 'eighty' })).rejects.toThrow(
      '"oauth.callbackPort" must be a port number (1-65535)',
    );
    await expect(add({ clientMetadataUrl: 'http://yoke.example/client.json' })).rejects.toThrow(
      '"oauth.clientMetadataUrl" must be an https URL with a path',
    );
  });

  it('ends with a line, not a hang, when the server never answers (MCP_TIMEOUT)', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`;
      await runMcpCommand(['add', '-t', 'http', 'silent', url], { cwd: root, env, print: () => {} });
      await expect(
        runMcpLogin(['silent'], { cwd: root, env: { ...env, MCP_TIMEOUT: '300' }, print: () => {} }),
      ).rejects.toThrow('MCP server "silent" did not answer within 0.3 s (MCP_TIMEOUT); run it again');
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
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
