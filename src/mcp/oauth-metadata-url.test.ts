import type { OAuthMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { describe, expect, it } from 'vitest';
import { issuerOfWellKnown, metadataProblem } from './oauth-metadata-url';

const metadataOf = (issuer: string, endpoints = issuer): OAuthMetadata => ({
  issuer,
  authorization_endpoint: `${endpoints}/authorize`,
  token_endpoint: `${endpoints}/token`,
  response_types_supported: ['code'],
});

describe('the issuer of metadata read from oauth.authServerMetadataUrl', () => {
  it('knows the issuer a well-known address stands for (RFC 8414 insertion, OpenID appending)', () => {
    expect(issuerOfWellKnown(new URL('https://as.example/.well-known/oauth-authorization-server'))).toBe(
      'https://as.example',
    );
    expect(
      issuerOfWellKnown(new URL('https://as.example/.well-known/oauth-authorization-server/tenant/a')),
    ).toBe('https://as.example/tenant/a');
    expect(issuerOfWellKnown(new URL('https://as.example/realms/x/.well-known/openid-configuration'))).toBe(
      'https://as.example/realms/x',
    );
    expect(issuerOfWellKnown(new URL('https://as.example/auth/meta.json'))).toBeUndefined();
  });

  it('accepts an issuer on the origin the document was read from (the key’s purpose: any path there)', () => {
    expect(
      metadataProblem(new URL('https://as.example/custom/meta.json'), metadataOf('https://as.example')),
    ).toBe(undefined);
    expect(
      metadataProblem(
        new URL('https://as.example/realms/x/.well-known/openid-configuration'),
        metadataOf('https://as.example/realms/x'),
      ),
    ).toBe(undefined);
    // Endpoints elsewhere are the issuer's own say (many providers split them across hosts).
    expect(
      metadataProblem(
        new URL('https://as.example/m'),
        metadataOf('https://as.example', 'https://tokens.as.example'),
      ),
    ).toBe(undefined);
  });

  it('refuses a document that speaks for an issuer on another origin (a planted address cannot borrow a real issuer)', () => {
    // Calibrated with a scratch script against this SDK version: given such a document as discovery
    // state and tokens stamped for the real issuer, `auth()` POSTed `grant_type=refresh_token&
    // refresh_token=<the real one>` to the document's token endpoint — the SDK's issuer stamp
    // protects nothing when the issuer is self-declared, so the origin check is what does.
    expect(
      metadataProblem(
        new URL('https://evil.example/meta'),
        metadataOf('https://login.real.example', 'https://evil.example'),
      ),
    ).toBe(
      'its "issuer" https://login.real.example is not on https://evil.example, where it was read; an authorization server publishes its own metadata, so Yoke does not send it tokens',
    );
  });

  it('refuses a well-known address whose document names another issuer on the same origin (RFC 8414 §3.3)', () => {
    expect(
      metadataProblem(
        new URL('https://as.example/.well-known/oauth-authorization-server/tenant/a'),
        metadataOf('https://as.example/tenant/b'),
      ),
    ).toBe(
      'its "issuer" https://as.example/tenant/b is not https://as.example/tenant/a, the issuer this well-known address is for (RFC 8414)',
    );
  });

  it('refuses plain-http endpoints and issuers off this machine', () => {
    expect(
      metadataProblem(new URL('https://as.example/m'), metadataOf('https://as.example', 'http://as.example')),
    ).toBe('its "authorization_endpoint" (http://as.example/authorize) is not an https URL');
    expect(metadataProblem(new URL('http://127.0.0.1:8/m'), metadataOf('http://127.0.0.1:8'))).toBe(
      undefined,
    );
  });
});
