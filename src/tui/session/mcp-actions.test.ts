/**
 * In the REPL, a call that needs more scope than the sign-in got runs the sign-in right away:
 * against the OAuth MCP server of src/testing (tools/call needs `files:write` too), the address
 * is shown in the transcript and opened with $BROWSER — a script that opens it as a browser
 * would — and the call goes through once signed in, without the user retyping anything.
 */
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { httpServer, oauthFixture, signedInSession } from '../../mcp/oauth-test-support';
import { signInForMoreScope } from './mcp-actions';

const fixture = oauthFixture();

describe('a call that needs more scope, in the REPL', () => {
  it('shows the address, opens it with $BROWSER, and retries the call once signed in', async () => {
    const { scratch } = fixture;
    const server = await fixture.start({
      openInitialize: true,
      scopes: { 'tools/call': ['files:read', 'files:write'], '*': ['files:read'] },
    });
    const config = httpServer(server.mcpUrl);
    const browser = join(scratch.root, 'browser.sh');
    await writeFile(browser, `#!/bin/sh\nexec '${process.execPath}' -e 'fetch(process.argv[1])' "$1"\n`);
    await chmod(browser, 0o755);
    const env = { ...scratch.env, BROWSER: browser };
    const manager = await signedInSession(scratch, 'files', config, env);
    const notices: string[] = [];
    signInForMoreScope(
      manager,
      { transcript: { notice: (_level, text) => notices.push(text) } },
      env,
      scratch.root,
    );

    const call = manager.connection('files')?.callTool('secret', {}, new AbortController().signal);
    await expect(call).resolves.toMatchObject({ content: [{ text: 'ok' }] });
    expect(notices).toEqual([
      expect.stringMatching(
        new RegExp(
          `^MCP server "files" needs more access for this call\\. Sign in at ${server.base}/authorize\\?.* \\(opened with ${browser}\\); Esc cancels\\.$`,
        ),
      ),
      'Signed in to "files" with more access; the call is retried.',
    ]);
    expect(server.authorizations.at(-1)?.get('scope')).toBe('files:read files:write');
    await manager.close();
  });
});
