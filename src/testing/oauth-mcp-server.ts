/**
 * Test support: a streamable HTTP MCP server behind OAuth, with an authorization server of its
 * own (metadata, dynamic client registration, an authorize endpoint that approves at once — the
 * "user" always says yes — and a token endpoint that checks PKCE). `/mcp` answers 401 until a
 * request carries a token it issued; then it offers one tool, `secret`.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export type OAuthMcpServer = {
  /** The server's origin, e.g. http://127.0.0.1:4567. */
  readonly base: string;
  /** The MCP endpoint to configure. */
  readonly mcpUrl: string;
  /** Access tokens issued so far. */
  readonly issued: ReadonlySet<string>;
  close(): Promise<void>;
};

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

export async function startOAuthMcpServer(): Promise<OAuthMcpServer> {
  const issued = new Set<string>();
  const codes = new Map<string, { challenge: string; redirect: string }>();
  let base = '';
  const http = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', base);
    if (url.pathname.startsWith('/.well-known/oauth-protected-resource')) {
      return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base] });
    }
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      return json(res, 200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
      });
    }
    if (url.pathname === '/register') {
      const metadata = JSON.parse(await readBody(req));
      return json(res, 201, { ...metadata, client_id: `client-${randomUUID()}` });
    }
    if (url.pathname === '/authorize') {
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
  return {
    base,
    mcpUrl: `${base}/mcp`,
    issued,
    close: async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
