/** Opening a sign-in address with a real program standing in for the browser. */
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../tools/builtin/bash/test-helpers';
import { browserCommand, openInBrowser } from './open-browser';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'yoke-browser-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('openInBrowser', () => {
  it('runs $BROWSER with the address as one argument (no shell sees it)', async () => {
    const seen = join(dir, 'seen');
    const browser = join(dir, 'browser.sh');
    // The browser runs detached, so the test cannot wait for its exit: it writes beside the file
    // and renames it into place, so the file exists only once its whole content is written.
    await writeFile(
      browser,
      `#!/bin/sh\nprintf '%s|%s' "$#" "$1" > '${seen}.part' && mv '${seen}.part' '${seen}'\n`,
    );
    await chmod(browser, 0o755);
    const url = new URL('https://auth.example/authorize?a=1&b=$(touch pwned)');
    expect(openInBrowser(url, { BROWSER: browser, PATH: process.env.PATH })).toEqual({
      opened: true,
      with: browser,
    });
    await waitFor(() => existsSync(seen), 'the browser to run');
    expect(readFileSync(seen, 'utf8')).toBe(`1|${url.href}`);
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
  });

  it('refuses an address that is not http(s), and says when there is no browser', () => {
    expect(openInBrowser(new URL('file:///etc/passwd'), { BROWSER: 'true' })).toEqual({
      opened: false,
      why: 'not a web address (file:)',
    });
    expect(openInBrowser(new URL('https://a.example/'), {}, 'linux')).toEqual({
      opened: false,
      why: 'no browser found (set $BROWSER)',
    });
  });

  it('picks the desktop opener where there is one', () => {
    expect(browserCommand({}, 'darwin')).toBe('open');
    expect(browserCommand({ DISPLAY: ':0' }, 'linux')).toBe('xdg-open');
    expect(browserCommand({}, 'linux')).toBeUndefined();
    expect(browserCommand({ BROWSER: 'firefox:chromium' }, 'linux')).toBe('firefox');
  });
});
