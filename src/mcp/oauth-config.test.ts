import { describe, expect, it } from 'vitest';
import { parseOAuth } from './oauth-config';

describe('a server entry\'s "oauth"', () => {
  it("reads a userless client's secret only from a variable meant for it (a planted entry cannot send another credential)", () => {
    // The named variable's value is what the token endpoint receives as the client's password
    // (oauth-client-credentials.test.ts: the server sees it in the Basic header), and the server
    // names the token endpoint: a project's .mcp.json could otherwise pick any variable.
    const cc = { grantType: 'client_credentials', clientId: 'svc' };
    expect(parseOAuth({ ...cc, clientSecretEnv: 'AWS_SECRET_ACCESS_KEY' })).toBe(
      '"oauth.clientSecretEnv" must name an environment variable that starts with MCP_ (one meant for this client, not another credential)',
    );
    expect(parseOAuth({ ...cc, clientSecretEnv: 'MCP_GITHUB_BOT_SECRET' })).toMatchObject({
      authentication: { method: 'client_secret_basic', secretEnv: 'MCP_GITHUB_BOT_SECRET' },
    });
  });

  it("is a browser sign-in by default, with Claude Code's fields", () => {
    expect(parseOAuth({ clientId: 'app', callbackPort: 8080 })).toEqual({
      grantType: 'authorization_code',
      clientId: 'app',
      callbackPort: 8080,
    });
  });

  it('takes a userless client with a secret from an environment variable (MCP_CLIENT_SECRET unless named)', () => {
    expect(parseOAuth({ grantType: 'client_credentials', clientId: 'svc', scopes: ' a b ' })).toEqual({
      grantType: 'client_credentials',
      clientId: 'svc',
      scopes: 'a b',
      authentication: { method: 'client_secret_basic', secretEnv: 'MCP_CLIENT_SECRET' },
    });
    expect(
      parseOAuth({ grantType: 'client_credentials', clientId: 'svc', clientSecretEnv: 'MCP_SVC_SECRET' }),
    ).toMatchObject({
      authentication: { method: 'client_secret_basic', secretEnv: 'MCP_SVC_SECRET' },
    });
  });

  it('takes a userless client that signs with a private key file', () => {
    expect(
      parseOAuth({
        grantType: 'client_credentials',
        clientId: 'svc',
        privateKeyFile: '~/k.pem',
        signingAlgorithm: 'ES256',
      }),
    ).toMatchObject({
      authentication: { method: 'private_key_jwt', privateKeyFile: '~/k.pem', algorithm: 'ES256' },
    });
  });

  it('refuses, naming the field: a secret written in the file, mixed kinds, a missing client id', () => {
    const cc = { grantType: 'client_credentials', clientId: 'svc' };
    expect(parseOAuth({ ...cc, clientSecret: 'hunter2' })).toMatch(
      /"oauth.clientSecret" is not read from a config file/,
    );
    expect(parseOAuth({ ...cc, callbackPort: 80 })).toMatch(
      /"oauth.callbackPort" does not go with the client_credentials grant/,
    );
    expect(parseOAuth({ privateKeyFile: '/k.pem' })).toMatch(/add "grantType": "client_credentials"/);
    expect(parseOAuth({ grantType: 'client_credentials' })).toMatch(/"oauth.clientId" is needed/);
    expect(parseOAuth({ ...cc, privateKeyFile: '/k.pem', clientSecretEnv: 'X' })).toMatch(/not both/);
    expect(parseOAuth({ ...cc, privateKeyFile: '/k.pem', signingAlgorithm: 'HS256' })).toMatch(
      /must be one of/,
    );
    expect(parseOAuth({ ...cc, clientSecretEnv: 'not a name' })).toMatch(/must name an environment variable/);
    expect(parseOAuth({ grantType: 'password' })).toMatch(/"oauth.grantType" must be/);
  });

  it("takes Claude Code's scope pin and metadata address for a sign-in, and refuses them malformed", () => {
    expect(
      parseOAuth({ scopes: '  read:user   repo ', authServerMetadataUrl: 'https://auth.example/meta.json' }),
    ).toEqual({
      grantType: 'authorization_code',
      scopes: 'read:user repo',
      authServerMetadataUrl: 'https://auth.example/meta.json',
    });
    // Claude Code documents one space-separated string.
    expect(parseOAuth({ scopes: ['read', 'write'] })).toBe(
      '"oauth.scopes" must be a space-separated string of scopes, e.g. "read write"',
    );
    expect(parseOAuth({ scopes: ' ' })).toBe(
      '"oauth.scopes" must be a space-separated string of scopes, e.g. "read write"',
    );
    const notHttps =
      '"oauth.authServerMetadataUrl" must be an https URL (http only for localhost) of the authorization server\'s metadata';
    expect(parseOAuth({ authServerMetadataUrl: 'http://auth.example/meta' })).toBe(notHttps);
    expect(parseOAuth({ authServerMetadataUrl: 'not a url' })).toBe(notHttps);
    expect(parseOAuth({ authServerMetadataUrl: 'http://127.0.0.1:9000/meta' })).toMatchObject({
      authServerMetadataUrl: 'http://127.0.0.1:9000/meta',
    });
    expect(
      parseOAuth({
        grantType: 'client_credentials',
        clientId: 'svc',
        authServerMetadataUrl: 'https://a.example/m',
      }),
    ).toMatchObject({ grantType: 'client_credentials', authServerMetadataUrl: 'https://a.example/m' });
  });
});
