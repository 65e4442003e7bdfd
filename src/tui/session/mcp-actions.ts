/**
 * What the REPL does to a session's servers: /mcp signs in to one that answers 401 (the same
 * OAuth flow as `yoke mcp login`, loaded on first use) and reconnects it with the new tokens, or
 * reconnects one as it is; and when a call needs more scope than the sign-in got, the user signs
 * in right there (the address shown in the transcript and opened in the browser) and the call is
 * retried. No restart: the manager swaps the connection and the tools follow at the next turn.
 */
import type { Env } from '../../config/paths';
import { openInBrowser } from '../../interactive/open-browser';
import type { McpManager } from '../../mcp/manager';
import type { McpRemoteServerConfig } from '../../mcp/server-config';
import type { McpViewActions } from '../views/mcp-view';
import type { ReplSession } from './repl-session';

/**
 * The server's config with its variables expanded, if it is one a user can sign in to. The
 * expansion lives in the MCP bundle, loaded here on first use: the REPL sets these actions up
 * before its first frame, which should not wait for that bundle.
 */
async function signInConfig(manager: McpManager, name: string, env: Env): Promise<McpRemoteServerConfig> {
  const connection = manager.connection(name);
  if (!connection) throw new Error(`there is no MCP server named "${name}" in this session`);
  const { expandServerConfig } = await import('../../mcp/expand-env');
  const expanded = expandServerConfig(connection.server.config, env);
  if (!expanded.ok) throw new Error(`unset variables ${expanded.missing.join(', ')}`);
  if (expanded.config.type === 'stdio')
    throw new Error('it runs over stdio; only http and sse servers sign in');
  return expanded.config;
}

export function mcpViewActions(manager: McpManager, env: Env, cwd: string): McpViewActions {
  return {
    async signIn(name, onUrl, signal) {
      const config = await signInConfig(manager, name, env);
      const { signInToServer } = await import('../../mcp/oauth-login');
      const outcome = await signInToServer(name, config, {
        env,
        cwd,
        signal,
        onAuthorizationUrl: (url) => onUrl(url, openInBrowser(url, env)),
      });
      await manager.reconnect(name);
      return outcome;
    },
    reconnect: (name) => manager.reconnect(name),
  };
}

/**
 * A call refused for want of scope runs the sign-in for the union of the scopes the server named
 * (mcp/step-up.ts); Esc (the turn's abort) cancels the wait for the browser, and the call fails.
 */
export function signInForMoreScope(
  manager: McpManager,
  session: { transcript: Pick<ReplSession['transcript'], 'notice'> },
  env: Env,
  cwd: string,
): void {
  manager.setSignInHandler(async (name, signal) => {
    const config = await signInConfig(manager, name, env);
    const { signInToServer } = await import('../../mcp/oauth-login');
    await signInToServer(name, config, {
      env,
      cwd,
      signal,
      onAuthorizationUrl: (url) => {
        const browser = openInBrowser(url, env);
        session.transcript.notice(
          'info',
          `MCP server "${name}" needs more access for this call. Sign in at ${url.href}${browser.opened ? ` (opened with ${browser.with})` : ''}; Esc cancels.`,
        );
      },
    });
    session.transcript.notice('info', `Signed in to "${name}" with more access; the call is retried.`);
    return true;
  });
}
