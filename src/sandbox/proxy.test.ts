import { describe, expect, it } from 'vitest';
import { hostRefusal } from './proxy';

describe('the proxy host check (WebFetch domain rules)', () => {
  const policy = { allowedDomains: ['github.com', '*.npmjs.org'], deniedDomains: ['gist.github.com'] };

  it('admits a listed host and its subdomains; `*.` only subdomains', () => {
    expect(hostRefusal('github.com', policy)).toBeUndefined();
    expect(hostRefusal('api.github.com', policy)).toBeUndefined();
    expect(hostRefusal('registry.npmjs.org', policy)).toBeUndefined();
    expect(hostRefusal('npmjs.org', policy)).toBe('npmjs.org is not in sandbox.network.allowedDomains');
  });

  it('refuses a denied host even under an allowed one, and any other host', () => {
    expect(hostRefusal('gist.github.com', policy)).toBe(
      'gist.github.com is in sandbox.network.deniedDomains',
    );
    expect(hostRefusal('evilgithub.com', policy)).toBe(
      'evilgithub.com is not in sandbox.network.allowedDomains',
    );
    expect(hostRefusal('127.0.0.1', policy)).toBe('127.0.0.1 is not in sandbox.network.allowedDomains');
    expect(hostRefusal('GitHub.com.', policy)).toBeUndefined();
  });
});
