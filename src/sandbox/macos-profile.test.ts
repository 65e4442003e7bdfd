/** The macOS profile's text (it cannot be run here: there is no Mac; see macos-profile.ts). */
import { describe, expect, it } from 'vitest';
import { macosProfile } from './macos-profile';
import type { SandboxPolicy } from './policy';

const policy: SandboxPolicy = {
  writable: [
    { path: '/Users/u/proj', why: 'the project' },
    { path: '/private/tmp/yoke-1/tmp', why: "the session's temp folder" },
  ],
  readOnly: [{ path: '/Users/u/proj/.git/hooks', why: 'git runs its hooks', whenMissing: 'block' }],
  repositories: ['/Users/u/proj'],
  editDenied: [],
  hidden: [
    { base: '/Users/u/.ssh', pattern: '**', anchored: true, why: 'the deny rule Read(~/.ssh)' },
    { base: '/Users/u/proj', pattern: '.env', anchored: false, why: 'the deny rule Read(**/.env)' },
  ],
  readableAgain: [],
  unixSockets: [],
  network: { kind: 'none' },
  tempDir: '/private/tmp/yoke-1/tmp',
};

describe('the macOS sandbox-exec profile', () => {
  it('confines writes to the writable folders and keeps protected files read-only after them', () => {
    const profile = macosProfile(policy);
    expect(profile).toContain(
      '(deny file-write*)\n(allow file-write* (subpath "/Users/u/proj") (subpath "/private/tmp/yoke-1/tmp"))',
    );
    // Later rules win: the protected deny must follow the allow.
    expect(profile.indexOf('(deny file-write* (subpath "/Users/u/proj/.git/hooks"))')).toBeGreaterThan(
      profile.indexOf('(allow file-write* (subpath "/Users/u/proj")'),
    );
  });

  it('hides secrets by path or by glob, and allows no network without allowed hosts', () => {
    const profile = macosProfile(policy);
    expect(profile).toContain('(deny file-read* (subpath "/Users/u/.ssh"))');
    expect(profile).toContain('(deny file-read* (regex "^/Users/u/proj/(.*/)?\\\\.env(/.*)?$"))');
    expect(profile).toContain('(deny network*)');
    expect(profile).not.toContain('(allow network-outbound');
    expect(macosProfile(policy, 3128)).toContain('(allow network-outbound (remote tcp "localhost:3128"))');
  });
});
