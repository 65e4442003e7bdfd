/**
 * Userless sign-in (client_credentials) against the OAuth MCP server of src/testing on a real
 * port: with a secret from the environment (client_secret_basic) and with a key file
 * (private_key_jwt, the assertion verified by the server), tokens cached in the user state and
 * the secret never; more scope fetched without anyone's help; and no assertion signed for an
 * issuer other than the token endpoint's origin.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { describe, expect, it } from 'vitest';
import { userStatePath } from '../config/user-state';
import type { McpOAuthConfig } from './oauth-config';
import { httpServer, oauthFixture, sessionWith } from './oauth-test-support';

const fixture = oauthFixture();
const signal = new AbortController().signal;
const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });

const service = (oauth: Omit<Extract<McpOAuthConfig, { grantType: 'client_credentials' }>, 'grantType'>) =>
  httpServer(fixture.server.mcpUrl, { grantType: 'client_credentials', ...oauth });

/** The client `signer`, its private key written to a file in `format`. */
async function signerConfig(format: 'sec1' | 'pkcs8') {
  const keyFile = join(fixture.scratch.root, 'signer.pem');
  await writeFile(keyFile, keys.privateKey.export({ type: format, format: 'pem' }));
  return service({
    clientId: 'signer',
    authentication: { method: 'private_key_jwt', privateKeyFile: keyFile },
  });
}

describe('a server with a userless client (client_credentials)', () => {
  it('connects with no sign-in, using the secret from the environment; the token is cached, the secret is not', async () => {
    const { scratch } = fixture;
    const server = await fixture.start({ serviceClient: { id: 'ci-bot', secret: 'ci-s3cret' } });
    const config = service({
      clientId: 'ci-bot',
      scopes: 'read',
      authentication: { method: 'client_secret_basic', secretEnv: 'MCP_CI_BOT_SECRET' },
    });
    const manager = await sessionWith(scratch, 'svc', config, {
      ...scratch.env,
      MCP_CI_BOT_SECRET: 'ci-s3cret',
    });
    expect(manager.statuses()[0]).toMatchObject({ status: 'connected', tools: [{ name: 'secret' }] });
    expect(await manager.connection('svc')?.callTool('secret', {}, signal)).toMatchObject({
      content: [{ text: 'ok' }],
    });
    await manager.close();
    expect(server.tokenRequests).toMatchObject([
      {
        grantType: 'client_credentials',
        authorization: `Basic ${Buffer.from('ci-bot:ci-s3cret').toString('base64')}`,
      },
    ]);
    expect(server.tokenRequests[0]?.form.get('scope')).toBe('read');

    const file = await readFile(userStatePath(scratch.env), 'utf8');
    const stored = JSON.parse(file).mcpOAuth[`svc|${server.mcpUrl}`];
    expect(server.issued.has(stored.tokens.access_token)).toBe(true);
    expect(file).not.toContain('ci-s3cret');
    expect((await stat(userStatePath(scratch.env))).mode & 0o777).toBe(0o600);

    // The next session sends the cached token: no new token request.
    const again = await sessionWith(scratch, 'svc', config, {
      ...scratch.env,
      MCP_CI_BOT_SECRET: 'ci-s3cret',
    });
    expect(again.statuses()[0]?.status).toBe('connected');
    await again.close();
    expect(server.tokenRequests).toHaveLength(1);
  });

  it('says which variable to set when the secret is missing', async () => {
    const { scratch } = fixture;
    await fixture.start({ serviceClient: { id: 'ci-bot', secret: 'x' } });
    const config = service({
      clientId: 'ci-bot',
      authentication: { method: 'client_secret_basic', secretEnv: 'MCP_CI_BOT_SECRET' },
    });
    const manager = await sessionWith(scratch, 'svc', config);
    expect(manager.statuses()[0]).toMatchObject({
      status: 'failed',
      error: 'the client secret is read from $MCP_CI_BOT_SECRET, which is not set',
    });
    await manager.close();
  });

  it('signs an assertion with the key file (an EC key in SEC1 form; ES256 from the key); the server verifies it', async () => {
    const { scratch } = fixture;
    const server = await fixture.start({ serviceClient: { id: 'signer', publicKey: keys.publicKey } });
    const manager = await sessionWith(scratch, 'svc', await signerConfig('sec1'));
    expect(manager.statuses()[0]).toMatchObject({ status: 'connected' });
    await manager.close();
    expect(server.tokenRequests[0]?.form.get('client_assertion_type')).toBe(
      'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    );
  });

  it('signs no assertion for an issuer the token request does not go to (it could be replayed there)', async () => {
    const { scratch } = fixture;
    // Calibration: the metadata names another origin as its issuer. The SDK's signer, left to
    // itself, takes the issuer as the audience, so the assertion it makes here would be accepted
    // by https://as.example.com, where whoever runs this token endpoint could replay it.
    const spoofed = 'https://as.example.com';
    const params = new URLSearchParams();
    await createPrivateKeyJwtAuth({
      issuer: 'signer',
      subject: 'signer',
      privateKey: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      alg: 'ES256',
    })(new Headers(), params, 'http://127.0.0.1:9/token', { issuer: spoofed } as never);
    const payload = (params.get('client_assertion') ?? '').split('.')[1] ?? '';
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')).aud).toBe(spoofed);

    const server = await fixture.start({
      serviceClient: { id: 'signer', publicKey: keys.publicKey },
      issuer: spoofed,
    });
    const manager = await sessionWith(scratch, 'svc', await signerConfig('pkcs8'));
    expect(manager.statuses()[0]?.error).toBe(
      `the authorization server's metadata names issuer ${spoofed} but its token endpoint is ${server.base}/token; Yoke signs no assertion for another origin`,
    );
    await manager.close();
    expect(server.tokenRequests).toHaveLength(0);
  });

  it('fetches a token for the union of scopes when a call needs more, and stops when the scope is not granted', async () => {
    const { scratch } = fixture;
    const server = await fixture.start({
      serviceClient: { id: 'ci-bot', secret: 's' },
      scopes: { 'tools/call': ['read', 'write'], '*': ['read'] },
    });
    const config = service({
      clientId: 'ci-bot',
      scopes: 'read',
      authentication: { method: 'client_secret_basic', secretEnv: 'MCP_CLIENT_SECRET' },
    });
    const manager = await sessionWith(scratch, 'svc', config, { ...scratch.env, MCP_CLIENT_SECRET: 's' });
    const connection = manager.connection('svc');
    expect(await connection?.callTool('secret', {}, signal)).toMatchObject({ content: [{ text: 'ok' }] });
    expect(server.tokenRequests.map((request) => request.form.get('scope'))).toEqual(['read', 'read write']);

    server.revokeScope('write');
    await expect(connection?.callTool('secret', {}, signal)).rejects.toThrow(
      'MCP server "svc" still refuses for want of scope "read write", which the last sign-in asked for',
    );
    expect(server.tokenRequests).toHaveLength(2);
    await manager.close();
  });
});
