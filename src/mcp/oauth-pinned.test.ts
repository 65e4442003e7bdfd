/**
 * Claude Code's `oauth.scopes` and `oauth.authServerMetadataUrl`, against the OAuth MCP server of
 * src/testing on a real port: a scope pin replaces what the server suggests (a step-up adds what a
 * refusal names), and a metadata address replaces discovery, its issuer checked.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { readStored, updateStored } from './oauth-store';
import { browserSignIn, httpServer, oauthFixture, sessionWith, signedInSession } from './oauth-test-support';

const fixture = oauthFixture();
const signal = new AbortController().signal;
const scopesAsked = (opened: URL[]) => opened.map((url) => url.searchParams.get('scope'));

describe('oauth.scopes: the scopes a sign-in asks for', () => {
  it('asks for the pinned scopes, not those the 401 suggests', async () => {
    const { scratch } = fixture;
    // The 401 (and the protected-resource metadata) suggest "tools:read"; the user pins more.
    const server = await fixture.start({ scopes: { '*': ['tools:read'] } });
    const config = httpServer(server.mcpUrl, {
      grantType: 'authorization_code',
      scopes: 'tools:read profile',
    });
    const { outcome, opened } = await browserSignIn(scratch, 'pinned', config);
    expect(outcome).toBe('signed-in');
    expect(scopesAsked(opened)).toEqual(['tools:read profile']);
    expect([...server.issued.values()]).toEqual([['tools:read', 'profile']]);

    // Without the pin, the server's suggestion is what a sign-in asks for.
    const { opened: unpinned } = await browserSignIn(scratch, 'unpinned', httpServer(server.mcpUrl));
    expect(scopesAsked(unpinned)).toEqual(['tools:read']);
    // The client registered for what it asks for: a server that holds clients to their
    // registered scopes grants the pinned ones.
    expect(server.registered.map((client) => client.scope)).toEqual(['tools:read profile', 'tools:read']);
  });

  it('a step-up asks for the pinned scopes with those the refusal names', async () => {
    const { scratch } = fixture;
    const server = await fixture.start({
      openInitialize: true,
      scopes: { 'tools/call': ['files:write'], '*': ['files:read'] },
    });
    const config = httpServer(server.mcpUrl, {
      grantType: 'authorization_code',
      scopes: 'files:read profile',
    });
    const manager = await signedInSession(scratch, 'files', config);
    expect(server.authorizations.map((query) => query.get('scope'))).toEqual(['files:read profile']);
    const signIns: (string | null)[][] = [];
    manager.setSignInHandler(async (name) => {
      signIns.push(scopesAsked((await browserSignIn(scratch, name, config)).opened));
      return true;
    });
    expect(await manager.connection('files')?.callTool('secret', {}, signal)).toMatchObject({
      content: [{ text: 'ok' }],
    });
    expect(signIns).toEqual([['files:read profile files:write']]);
    await manager.close();
  });

  it("drops scopes gathered before the pin was set (they were the server's suggestion)", async () => {
    const { scratch } = fixture;
    const server = await fixture.start({ scopes: { '*': ['tools:read'] } });
    const key = `s|${server.mcpUrl}`;
    await updateStored(scratch.env, key, (stored) => ({ ...stored, scope: 'old:suggested tools:read' }));
    const config = httpServer(server.mcpUrl, { grantType: 'authorization_code', scopes: 'tools:read' });
    expect(scopesAsked((await browserSignIn(scratch, 's', config)).opened)).toEqual(['tools:read']);
    expect(await readStored(scratch.env, key)).toMatchObject({ scope: 'tools:read', scopePin: 'tools:read' });
  });
});

describe('oauth.authServerMetadataUrl: the authorization server named instead of discovered', () => {
  it('signs in with the metadata at that address when the server offers no discovery, and a session uses and refreshes the tokens', async () => {
    const { scratch } = fixture;
    const server = await fixture.start({ metadataPath: '/auth/meta.json', refreshTokens: true });
    // Without the address nothing can be discovered: the sign-in fails.
    await expect(browserSignIn(scratch, 'plain', httpServer(server.mcpUrl))).rejects.toThrow();

    const config = httpServer(server.mcpUrl, {
      grantType: 'authorization_code',
      authServerMetadataUrl: `${server.base}/auth/meta.json`,
    });
    expect((await browserSignIn(scratch, 'meta', config)).outcome).toBe('signed-in');
    const stored = await readStored(scratch.env, `meta|${server.mcpUrl}`);
    expect(stored.tokens?.issuer).toBe(server.base);

    const manager = await sessionWith(scratch, 'meta', config);
    expect(manager.statuses()[0]).toMatchObject({ status: 'connected', tools: [{ name: 'secret' }] });
    // An expired token is refreshed at the token endpoint the metadata names.
    server.revoke(stored.tokens?.access_token as string);
    expect(await manager.connection('meta')?.callTool('secret', {}, signal)).toMatchObject({
      content: [{ text: 'ok' }],
    });
    expect(server.tokenRequests.map((request) => request.grantType)).toEqual([
      'authorization_code',
      'refresh_token',
    ]);
    await manager.close();
  });

  it("refuses metadata whose issuer is not on the address's origin, in one line, and sends it nothing", async () => {
    const { scratch } = fixture;
    // A planted address claims to speak for another issuer (here: the real server's own).
    const real = await fixture.start({ refreshTokens: true });
    const impostor = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          issuer: real.base,
          authorization_endpoint: `${real.base}/authorize`,
          token_endpoint: 'http://127.0.0.1:1/steal',
          response_types_supported: ['code'],
        }),
      );
    });
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    const impostorBase = `http://127.0.0.1:${(impostor.address() as AddressInfo).port}`;
    try {
      const config = httpServer(real.mcpUrl, {
        grantType: 'authorization_code',
        authServerMetadataUrl: `${impostorBase}/meta`,
      });
      await expect(browserSignIn(scratch, 'gh', config)).rejects.toThrow(
        `MCP server "gh": the authorization server metadata at ${impostorBase}/meta (oauth.authServerMetadataUrl) is refused: its "issuer" ${real.base} is not on ${impostorBase}, where it was read; an authorization server publishes its own metadata, so Yoke does not send it tokens`,
      );
      expect(real.authorizations).toEqual([]);
    } finally {
      impostor.closeAllConnections();
      await new Promise((resolve) => impostor.close(resolve));
    }
  });

  it("never sends a stored sign-in's refresh token to the authorization server a changed entry names", async () => {
    const { scratch } = fixture;
    // The user signed in through discovery; a project entry for the same server then names another
    // authorization server (a second local one stands in for an attacker's host).
    const real = await fixture.start({ refreshTokens: true });
    const config = httpServer(real.mcpUrl);
    await browserSignIn(scratch, 'gh', config);
    const token = (await readStored(scratch.env, `gh|${real.mcpUrl}`)).tokens;
    expect(token?.refresh_token).toBeDefined();
    real.revoke(token?.access_token as string);

    const { startOAuthMcpServer } = await import('../testing/oauth-mcp-server');
    const other = await startOAuthMcpServer({ metadataPath: '/meta' });
    try {
      const planted = httpServer(real.mcpUrl, {
        grantType: 'authorization_code',
        authServerMetadataUrl: `${other.base}/meta`,
      });
      const manager = await sessionWith(scratch, 'gh', planted);
      expect(manager.statuses()[0]).toMatchObject({
        status: 'needs-auth',
        error: `MCP server "gh": its stored sign-in is not from ${other.base}, which oauth.authServerMetadataUrl names, so Yoke does not send it there; sign in again with \`yoke mcp login gh\` (or /mcp in the interactive UI)`,
      });
      expect(other.tokenRequests).toEqual([]);
      await manager.close();
    } finally {
      await other.close();
    }
  });

  it('serves a userless client too: its token comes from the token endpoint the named metadata gives', async () => {
    const { scratch } = fixture;
    const server = await fixture.start({
      metadataPath: '/auth/meta.json',
      serviceClient: { id: 'ci-bot', secret: 'ci-s3cret' },
    });
    const config = httpServer(server.mcpUrl, {
      grantType: 'client_credentials',
      clientId: 'ci-bot',
      authentication: { method: 'client_secret_basic', secretEnv: 'MCP_CLIENT_SECRET' },
      authServerMetadataUrl: `${server.base}/auth/meta.json`,
    });
    const manager = await sessionWith(scratch, 'svc', config, {
      ...scratch.env,
      MCP_CLIENT_SECRET: 'ci-s3cret',
    });
    expect(manager.statuses()[0]).toMatchObject({ status: 'connected', tools: [{ name: 'secret' }] });
    expect(server.tokenRequests.map((request) => request.grantType)).toEqual(['client_credentials']);
    await manager.close();
  });
});
