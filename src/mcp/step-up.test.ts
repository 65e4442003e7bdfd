/**
 * Step-up authorization against the OAuth MCP server of src/testing, on a real port: the server
 * lets `initialize` through, wants `files:read` to list tools and `files:read files:write` to call
 * one, and answers 403 insufficient_scope naming what is missing.
 */
import { describe, expect, it } from 'vitest';
import { readStored } from './oauth-store';
import { browserSignIn, httpServer, oauthFixture, sessionWith, signedInSession } from './oauth-test-support';

const fixture = oauthFixture();
const signal = new AbortController().signal;

const stepUpServer = () =>
  fixture.start({
    openInitialize: true,
    scopes: { 'tools/call': ['files:read', 'files:write'], '*': ['files:read'] },
  });

describe('a call that needs more scope than the sign-in got', () => {
  it('headless: fails with one line saying to sign in again, and that sign-in asks for the union', async () => {
    const { scratch } = fixture;
    const server = await stepUpServer();
    const config = httpServer(server.mcpUrl);
    // initialize passes without a token; the login still signs in, since listing the tools does not.
    const first = await browserSignIn(scratch, 'files', config);
    expect(first.outcome).toBe('signed-in');
    expect(first.opened.map((url) => url.searchParams.get('scope'))).toEqual(['files:read']);

    const manager = await sessionWith(scratch, 'files', config);
    expect(manager.statuses()[0]).toMatchObject({ status: 'connected', tools: [{ name: 'secret' }] });
    const connection = manager.connection('files');
    await expect(connection?.callTool('secret', {}, signal)).rejects.toThrow(
      'MCP server "files" needs more access for this call (scope "files:read files:write"); sign in again with `yoke mcp login files` (or /mcp in the interactive UI), then retry',
    );
    expect(await readStored(scratch.env, `files|${server.mcpUrl}`)).toMatchObject({
      scope: 'files:read files:write',
      stepUp: 'files:read files:write',
    });

    // The tools still list with the old token, yet the login knows a call wants more.
    const second = await browserSignIn(scratch, 'files', config);
    expect(second.outcome).toBe('signed-in');
    expect(second.opened.map((url) => url.searchParams.get('scope'))).toEqual(['files:read files:write']);
    // The running session reads the new token for its next request: the call goes through.
    expect(await connection?.callTool('secret', {}, signal)).toMatchObject({ content: [{ text: 'ok' }] });
    await manager.close();
  });

  it('steps up a resource read the same way', async () => {
    const { scratch } = fixture;
    const server = await fixture.start({
      openInitialize: true,
      scopes: { 'resources/read': ['notes:list', 'notes:read'], '*': ['notes:list'] },
    });
    const config = httpServer(server.mcpUrl);
    const manager = await signedInSession(scratch, 'notes', config);
    await expect(manager.connection('notes')?.readResource('guarded://note', signal)).rejects.toThrow(
      'MCP server "notes" needs more access for this call (scope "notes:list notes:read"); sign in again with `yoke mcp login notes`',
    );
    manager.setSignInHandler(
      async (name) => (await browserSignIn(scratch, name, config)).outcome === 'signed-in',
    );
    expect(await manager.connection('notes')?.readResource('guarded://note', signal)).toMatchObject([
      { text: 'a guarded note' },
    ]);
    await manager.close();
  });

  it('with a user at hand (the REPL sets a sign-in handler): signs in for the union once and retries the call', async () => {
    const { scratch } = fixture;
    const server = await stepUpServer();
    const config = httpServer(server.mcpUrl);
    const manager = await signedInSession(scratch, 'files', config);
    const signIns: URL[][] = [];
    manager.setSignInHandler(async (name) => {
      signIns.push((await browserSignIn(scratch, name, config)).opened);
      return true;
    });
    expect(await manager.connection('files')?.callTool('secret', {}, signal)).toMatchObject({
      content: [{ text: 'ok' }],
    });
    expect(signIns.map((opened) => opened.map((url) => url.searchParams.get('scope')))).toEqual([
      ['files:read files:write'],
    ]);
    await manager.close();
  });

  it('stops at once when the server refuses for a scope the sign-in already asked for (no loop)', async () => {
    const { scratch } = fixture;
    // The authorization server grants what is asked; this resource wants a scope no one is granted.
    const server = await fixture.start({ openInitialize: true, scopes: { '*': ['admin'] } });
    const config = httpServer(server.mcpUrl);
    await expect(browserSignIn(scratch, 'admin', config)).resolves.toMatchObject({ outcome: 'signed-in' });
    server.revokeScope('admin');
    const manager = await sessionWith(scratch, 'admin', config);
    let asked = 0;
    manager.setSignInHandler(async () => {
      asked++;
      return true;
    });
    // Listing the tools already fails: the session says why instead of asking the user again.
    expect(manager.statuses()[0]?.error).toMatch(
      'MCP server "admin" still refuses for want of scope "admin", which the last sign-in asked for; the authorization server did not grant it',
    );
    expect(asked).toBe(0);
    const authorizationsBefore = server.authorizations.length;
    await expect(browserSignIn(scratch, 'admin', config)).rejects.toThrow(
      'still refuses for want of scope "admin"',
    );
    expect(server.authorizations.length).toBe(authorizationsBefore);
    await manager.close();
  });
});
