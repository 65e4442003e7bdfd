/**
 * OAuth against an authorization server written here (metadata, dynamic client registration,
 * an authorize endpoint that approves at once, a token endpoint that checks PKCE) guarding a
 * streamable HTTP MCP server: before `yoke mcp login` the server is needs-auth; the login's URL,
 * opened by the test as a browser would, signs in; the tokens land in the user state with mode
 * 0600 and a session then connects with them.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, realpath, rm, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { userStatePath } from '../../config/user-state';
import { loadMcpConfiguration, standaloneConfigInput } from '../../mcp/config-sources';
import { connectionOptionsFromEnv, McpManager } from '../../mcp/manager';
import { runMcpCommand } from './mcp';
import { runMcpLogin } from './mcp-login';

let http: Server;
let base: string;
let root: string;
let env: Record<string, string>;
const issued = new Set<string>();
const codes = new Map<string, { challenge: string; redirect: string }>();
/** A client registered by hand: the authorization server then has no registration endpoint. */
let preRegistered: { id: string; secret: string } | undefined;
let registrations = 0;
/** The authorization server takes client ID metadata documents (a URL as the client id). */
let acceptsCimd = false;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const json = (res: import('node:http').ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

beforeEach(async () => {
  preRegistered = undefined;
  registrations = 0;
  acceptsCimd = false;
  root = await realpath(await mkdtemp(join(tmpdir(), 'yoke-oauth-')));
  env = {
    HOME: root,
    YOKE_HOME: join(root, '.yoke'),
    CLAUDE_CONFIG_DIR: join(root, '.claude'),
    PATH: process.env.PATH ?? '',
  };
  http = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', base);
    if (url.pathname.startsWith('/.well-known/oauth-protected-resource')) {
      return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base] });
    }
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      return json(res, 200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        ...(preRegistered ? {} : { registration_endpoint: `${base}/register` }),
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: preRegistered ? ['client_secret_basic'] : ['none'],
        ...(acceptsCimd ? { client_id_metadata_document_supported: true } : {}),
      });
    }
    if (url.pathname === '/register') {
      registrations++;
      const metadata = JSON.parse(await readBody(req));
      return json(res, 201, { ...metadata, client_id: `client-${randomUUID()}` });
    }
    if (url.pathname === '/authorize') {
      // Approves at once: the "user" always says yes.
      const code = randomUUID();
      const redirect = url.searchParams.get('redirect_uri') as string;
      codes.set(code, { challenge: url.searchParams.get('code_challenge') as string, redirect });
      const back = new URL(redirect);
      back.searchParams.set('code', code);
      const state = url.searchParams.get('state');
      if (state) back.searchParams.set('state', state);
      return res.writeHead(302, { location: back.href }).end();
    }
    if (url.pathname === '/token') {
      const form = new URLSearchParams(await readBody(req));
      const grant = codes.get(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (!grant || grant.challenge !== challenge || grant.redirect !== form.get('redirect_uri')) {
        return json(res, 400, { error: 'invalid_grant' });
      }
      const basic = `Basic ${Buffer.from(`${preRegistered?.id}:${preRegistered?.secret}`).toString('base64')}`;
      if (preRegistered && req.headers.authorization !== basic)
        return json(res, 401, { error: 'invalid_client' });
      const token = `tok-${randomUUID()}`;
      issued.add(token);
      return json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
    }
    if (url.pathname === '/mcp') {
      const token = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
      if (!issued.has(token)) {
        res.writeHead(401, {
          'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
        });
        return res.end();
      }
      const server = new McpServer({ name: 'guarded', version: '1.0.0' });
      server.registerTool('secret', { description: 'Behind OAuth.' }, async () => ({
        content: [{ type: 'text', text: 'ok' }],
      }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => void transport.close());
      await server.connect(transport);
      const body = req.method === 'POST' ? JSON.parse(await readBody(req)) : undefined;
      return transport.handleRequest(req, res, body);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterEach(async () => {
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
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
    expect(issued.has(stored.tokens.access_token)).toBe(true);
    expect((await stat(userStatePath(env))).mode & 0o777).toBe(0o600);

    expect(await sessionStatus()).toMatchObject({ status: 'connected', tools: [{ name: 'secret' }] });
  });

  it('signs in as a client registered by hand: oauth.clientId from the config, the secret from MCP_CLIENT_SECRET', async () => {
    preRegistered = { id: 'hand-made', secret: 's3cret' };
    const entry = { type: 'http', url: `${base}/mcp`, oauth: { clientId: 'hand-made' } };
    await runMcpCommand(['add-json', 'guarded', JSON.stringify(entry)], { cwd: root, env, print: () => {} });
    const login = runMcpLogin(['guarded'], {
      cwd: root,
      env: { ...env, MCP_CLIENT_SECRET: 's3cret' },
      print: (line) => {
        if (line.startsWith(`${base}/authorize`)) {
          expect(new URL(line).searchParams.get('client_id')).toBe('hand-made');
          void fetch(line);
        }
      },
    });
    expect(await login).toBe(0);
    expect(registrations).toBe(0);
    expect(await sessionStatus()).toMatchObject({ status: 'connected' });
  });

  it('uses oauth.clientMetadataUrl as the client id where the authorization server takes metadata documents', async () => {
    acceptsCimd = true;
    const document = 'https://yoke.example/oauth/client.json';
    const entry = { type: 'http', url: `${base}/mcp`, oauth: { clientMetadataUrl: document } };
    await runMcpCommand(['add-json', 'guarded', JSON.stringify(entry)], { cwd: root, env, print: () => {} });
    const clientIds: (string | null)[] = [];
    const login = runMcpLogin(['guarded'], {
      cwd: root,
      env,
      print: (line) => {
        if (!line.startsWith(`${base}/authorize`)) return;
        clientIds.push(new URL(line).searchParams.get('client_id'));
        void fetch(line);
      },
    });
    expect(await login).toBe(0);
    expect([clientIds, registrations]).toEqual([[document], 0]);
  });

  it('refuses an oauth entry it cannot use, naming the field', async () => {
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
