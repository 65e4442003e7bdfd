/**
 * Test support: a streamable HTTP MCP server behind OAuth, with an authorization server of its
 * own (metadata, dynamic client registration, an authorize endpoint that approves at once — the
 * "user" always says yes and grants the scope asked for — and a token endpoint that checks PKCE).
 * `/mcp` answers 401 until a request carries a token it issued; then it offers one tool, `secret`,
 * and one resource, `guarded://note`.
 * Options make it the other servers the tests need: a client registered by hand, client ID
 * metadata documents, scopes per method (403 insufficient_scope naming them), an `initialize`
 * let through without a token, refresh tokens, userless clients (client_credentials with a
 * secret or a signed assertion), and metadata served only at a custom path (no discovery).
 */
import { createHash, type KeyObject, randomUUID, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export type OAuthMcpServerOptions = {
  /** A client registered by hand: no registration endpoint, and the token endpoint wants its Basic credentials. */
  preRegistered?: { id: string; secret: string };
  /** The authorization server takes client ID metadata documents (a URL as the client id). */
  acceptsCimd?: boolean;
  /**
   * The scopes each MCP method needs (`*` for the others). A token without them is refused with
   * 403 insufficient_scope naming them; a request without a token gets 401 naming `*`'s.
   */
  scopes?: Record<string, string[]>;
  /** `initialize` and notifications pass without a token (the token is needed from the first real call). */
  openInitialize?: boolean;
  /** More methods that pass without a token (with `openInitialize`): a server that guards only some calls. */
  openMethods?: string[];
  /** Issue refresh tokens with each access token. */
  refreshTokens?: boolean;
  /** A userless client (client_credentials): its secret (client_secret_basic) or public key (private_key_jwt). */
  serviceClient?: { id: string; secret?: string; publicKey?: KeyObject };
  /** The issuer the metadata names (default: the server's origin). */
  issuer?: string;
  /**
   * Serve the authorization server's metadata only at this path (e.g. `/auth/meta.json`), with
   * discovery off: no protected-resource metadata, no well-known path, no hint in the 401 — a
   * client finds it only through `oauth.authServerMetadataUrl`.
   */
  metadataPath?: string;
};

export type TokenRequest = { grantType: string | null; form: URLSearchParams; authorization?: string };

export type OAuthMcpServer = {
  /** The server's origin, e.g. http://127.0.0.1:4567. */
  readonly base: string;
  /** The MCP endpoint to configure. */
  readonly mcpUrl: string;
  /** Access tokens issued so far, with the scopes each carries. */
  readonly issued: ReadonlyMap<string, readonly string[]>;
  /** The query of each request to the authorize endpoint (what a browser opened). */
  readonly authorizations: readonly URLSearchParams[];
  readonly tokenRequests: readonly TokenRequest[];
  /** How many dynamic registrations there were. */
  readonly registrations: number;
  /** The client metadata each dynamic registration sent. */
  readonly registered: readonly Record<string, unknown>[];
  /** Makes an access token unknown (an expired one), so its holder must refresh. */
  revoke(token: string): void;
  /** The authorization server stops granting `scope`: tokens lose it, new ones are issued without it. */
  revokeScope(scope: string): void;
  close(): Promise<void>;
};

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

const scopesOf = (text: string | null | undefined) => (text ?? '').split(/\s+/).filter(Boolean);

/** The claims of an ES256/RS256 assertion signed by `key`, or why not. */
function verifyAssertion(assertion: string, key: KeyObject): Record<string, unknown> | string {
  const [header, payload, signature] = assertion.split('.');
  if (!header || !payload || !signature) return 'not a JWT';
  const { alg } = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg: string };
  const ok = verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    alg === 'ES256' ? { key, dsaEncoding: 'ieee-p1363' } : key,
    Buffer.from(signature, 'base64url'),
  );
  return ok
    ? (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>)
    : 'bad signature';
}

export async function startOAuthMcpServer(options: OAuthMcpServerOptions = {}): Promise<OAuthMcpServer> {
  const issued = new Map<string, string[]>();
  const refreshes = new Map<string, string[]>();
  const codes = new Map<string, { challenge: string; redirect: string; scopes: string[] }>();
  const authorizations: URLSearchParams[] = [];
  const tokenRequests: TokenRequest[] = [];
  const withheld = new Set<string>();
  let registrations = 0;
  const registered: Record<string, unknown>[] = [];
  let base = '';
  const { preRegistered, serviceClient, scopes: required } = options;

  const grant = (res: ServerResponse, asked: string[]) => {
    const scopes = asked.filter((scope) => !withheld.has(scope));
    const token = `tok-${randomUUID()}`;
    issued.set(token, scopes);
    const refresh = options.refreshTokens ? `ref-${randomUUID()}` : undefined;
    if (refresh) refreshes.set(refresh, scopes);
    return json(res, 200, {
      access_token: token,
      token_type: 'Bearer',
      expires_in: 3600,
      ...(scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
      ...(refresh ? { refresh_token: refresh } : {}),
    });
  };

  /** The token endpoint: authorization codes (PKCE), refresh tokens, client credentials. */
  const token = async (req: IncomingMessage, res: ServerResponse) => {
    const form = new URLSearchParams(await readBody(req));
    const grantType = form.get('grant_type');
    tokenRequests.push({
      grantType,
      form,
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
    });
    const basic = (id: string, secret: string) =>
      `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
    if (grantType === 'client_credentials') {
      if (!serviceClient) return json(res, 400, { error: 'unsupported_grant_type' });
      if (serviceClient.publicKey) {
        const claims = verifyAssertion(form.get('client_assertion') ?? '', serviceClient.publicKey);
        if (
          typeof claims === 'string' ||
          claims.iss !== serviceClient.id ||
          claims.sub !== serviceClient.id ||
          claims.aud !== (options.issuer ?? base)
        )
          return json(res, 401, { error: 'invalid_client' });
      } else if (req.headers.authorization !== basic(serviceClient.id, serviceClient.secret ?? ''))
        return json(res, 401, { error: 'invalid_client' });
      return grant(res, scopesOf(form.get('scope')));
    }
    if (grantType === 'refresh_token') {
      const scopes = refreshes.get(form.get('refresh_token') ?? '');
      return scopes ? grant(res, scopes) : json(res, 400, { error: 'invalid_grant' });
    }
    const code = codes.get(form.get('code') ?? '');
    const challenge = createHash('sha256')
      .update(form.get('code_verifier') ?? '')
      .digest('base64url');
    if (!code || code.challenge !== challenge || code.redirect !== form.get('redirect_uri'))
      return json(res, 400, { error: 'invalid_grant' });
    if (preRegistered && req.headers.authorization !== basic(preRegistered.id, preRegistered.secret))
      return json(res, 401, { error: 'invalid_client' });
    return grant(res, code.scopes);
  };

  /** Whether the MCP request may go on; answers 401 or 403 itself when not. */
  const admitted = (req: IncomingMessage, res: ServerResponse, method: string | undefined): boolean => {
    // Such a server guards only calls: its stream (GET) and handshake are open.
    const open =
      method === 'initialize' ||
      method?.startsWith('notifications/') ||
      options.openMethods?.includes(method ?? '');
    if (options.openInitialize && (req.method !== 'POST' || open)) return true;
    const resourceMetadata = options.metadataPath
      ? []
      : [`resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`];
    const needed = required ? (required[method ?? ''] ?? required['*'] ?? []) : [];
    const held = issued.get(req.headers.authorization?.replace(/^Bearer /, '') ?? '');
    if (!held) {
      const scope = required?.['*']?.length ? [`scope="${required['*'].join(' ')}"`] : [];
      const params = [...scope, ...resourceMetadata];
      res
        .writeHead(401, { 'www-authenticate': `Bearer${params.length ? ` ${params.join(', ')}` : ''}` })
        .end();
      return false;
    }
    if (needed.every((scope) => held.includes(scope))) return true;
    res
      .writeHead(403, {
        'www-authenticate': [
          'Bearer error="insufficient_scope"',
          `scope="${needed.join(' ')}"`,
          ...resourceMetadata,
        ].join(', '),
      })
      .end();
    return false;
  };

  // Without discovery the endpoints move too, so a client cannot find them by the default paths.
  const at = (endpoint: string) => `${options.metadataPath ? '/as' : ''}/${endpoint}`;
  const http = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', base);
    const discovery = options.metadataPath === undefined;
    if (discovery && url.pathname.startsWith('/.well-known/oauth-protected-resource')) {
      const supported = required ? [...new Set(Object.values(required).flat())] : undefined;
      return json(res, 200, {
        resource: `${base}/mcp`,
        authorization_servers: [base],
        ...(supported ? { scopes_supported: supported } : {}),
      });
    }
    if (url.pathname === (options.metadataPath ?? '/.well-known/oauth-authorization-server')) {
      return json(res, 200, {
        issuer: options.issuer ?? base,
        authorization_endpoint: `${base}${at('authorize')}`,
        token_endpoint: `${base}${at('token')}`,
        ...(preRegistered || serviceClient ? {} : { registration_endpoint: `${base}${at('register')}` }),
        response_types_supported: ['code'],
        grant_types_supported: serviceClient
          ? ['client_credentials']
          : ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: serviceClient?.publicKey
          ? ['private_key_jwt']
          : preRegistered || serviceClient
            ? ['client_secret_basic']
            : ['none'],
        ...(options.acceptsCimd ? { client_id_metadata_document_supported: true } : {}),
      });
    }
    if (url.pathname === at('register')) {
      registrations++;
      const metadata = JSON.parse(await readBody(req));
      registered.push(metadata);
      return json(res, 201, { ...metadata, client_id: `client-${randomUUID()}` });
    }
    if (url.pathname === at('authorize')) {
      authorizations.push(url.searchParams);
      const code = randomUUID();
      const redirect = url.searchParams.get('redirect_uri') as string;
      codes.set(code, {
        challenge: url.searchParams.get('code_challenge') as string,
        redirect,
        scopes: scopesOf(url.searchParams.get('scope')),
      });
      const back = new URL(redirect);
      back.searchParams.set('code', code);
      const state = url.searchParams.get('state');
      if (state) back.searchParams.set('state', state);
      return res.writeHead(302, { location: back.href }).end();
    }
    if (url.pathname === at('token')) return token(req, res);
    if (url.pathname === '/mcp') {
      const body = req.method === 'POST' ? JSON.parse(await readBody(req)) : undefined;
      if (!admitted(req, res, body?.method)) return;
      const server = new McpServer({ name: 'guarded', version: '1.0.0' });
      server.registerTool('secret', { description: 'Behind OAuth.' }, async () => ({
        content: [{ type: 'text', text: 'ok' }],
      }));
      server.registerResource('note', 'guarded://note', { mimeType: 'text/plain' }, async (uri) => ({
        contents: [{ uri: uri.href, text: 'a guarded note' }],
      }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => void transport.close());
      await server.connect(transport);
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
    authorizations,
    tokenRequests,
    get registrations() {
      return registrations;
    },
    registered,
    revoke: (token) => void issued.delete(token),
    revokeScope: (scope) => {
      withheld.add(scope);
      for (const [token, scopes] of issued)
        issued.set(
          token,
          scopes.filter((held) => held !== scope),
        );
    },
    close: async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
