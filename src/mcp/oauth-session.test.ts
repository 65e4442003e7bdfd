/**
 * A session's use of an earlier sign-in, against the OAuth MCP server of src/testing: an access
 * token that stops working is refreshed with the stored refresh token, without anyone signing in;
 * without a refresh token the call says which sign-in to run.
 */
import { describe, expect, it } from 'vitest';
import { readStored } from './oauth-store';
import { browserSignIn, httpServer, oauthFixture, sessionWith, signedInSession } from './oauth-test-support';

const fixture = oauthFixture();
const signal = new AbortController().signal;

describe('a session with the tokens of a sign-in', () => {
  it('refreshes an access token the server no longer takes, and keeps the refresh token', async () => {
    const { scratch } = fixture;
    const server = await fixture.start({ refreshTokens: true });
    const config = httpServer(server.mcpUrl);
    await browserSignIn(scratch, 'guarded', config);
    const key = `guarded|${server.mcpUrl}`;
    const first = (await readStored(scratch.env, key)).tokens;
    const manager = await sessionWith(scratch, 'guarded', config);
    server.revoke(first?.access_token ?? '');

    expect(await manager.connection('guarded')?.callTool('secret', {}, signal)).toMatchObject({
      content: [{ text: 'ok' }],
    });
    expect(server.tokenRequests.map((request) => request.grantType)).toEqual([
      'authorization_code',
      'refresh_token',
    ]);
    const now = (await readStored(scratch.env, key)).tokens;
    expect(now?.access_token).not.toBe(first?.access_token);
    expect(now?.refresh_token).toBeDefined();
    await manager.close();
  });

  it('without a refresh token, the call says to sign in again', async () => {
    const { scratch } = fixture;
    const server = await fixture.start();
    const config = httpServer(server.mcpUrl);
    const manager = await signedInSession(scratch, 'guarded', config);
    for (const token of server.issued.keys()) server.revoke(token);
    await expect(manager.connection('guarded')?.callTool('secret', {}, signal)).rejects.toThrow(
      'MCP server "guarded" no longer accepts the stored sign-in; sign in again with `yoke mcp login guarded` (or /mcp in the interactive UI)',
    );
    await manager.close();
  });
});
