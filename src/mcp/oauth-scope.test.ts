import { describe, expect, it } from 'vitest';
import { coversScopes, insufficientScope, unionScopes } from './oauth-scope';

const refusal = (header: string, status = 403) =>
  new Response(null, { status, headers: { 'www-authenticate': header } });

describe('scopes', () => {
  it('unites scope lists without repeating one, keeping the first order', () => {
    expect(unionScopes('files:read', 'files:read  files:write', undefined)).toBe('files:read files:write');
    expect(unionScopes(undefined, '')).toBeUndefined();
    // A header's empty quoted value, read as is by a lenient parser, is no scope.
    expect(unionScopes('""', 'a "b')).toBe('a');
  });

  it('knows when held scopes cover the wanted ones', () => {
    expect(coversScopes('a b c', 'c a')).toBe(true);
    expect(coversScopes('a', 'a b')).toBe(false);
    expect(coversScopes(undefined, 'a')).toBe(false);
  });

  it('reads an insufficient_scope challenge, quoted or not, with the parameters in any order', () => {
    expect(
      insufficientScope(
        refusal(
          'Bearer scope="mcp:basic mcp:write", resource_metadata="https://x/y", error="insufficient_scope"',
        ),
      ),
    ).toEqual({ scope: 'mcp:basic mcp:write' });
    expect(insufficientScope(refusal('Bearer error=insufficient_scope'))).toEqual({ scope: undefined });
  });

  it('leaves other refusals alone: another error, another scheme, a 401', () => {
    expect(insufficientScope(refusal('Bearer error="invalid_token", scope="a"'))).toBeUndefined();
    expect(insufficientScope(refusal('Basic realm="insufficient_scope"'))).toBeUndefined();
    expect(insufficientScope(refusal('Bearer error="insufficient_scope"', 401))).toBeUndefined();
  });
});
