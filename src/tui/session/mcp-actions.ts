/**
 * What the /mcp view does to a session's servers: sign in to one that answers 401 (the same
 * OAuth flow as `yoke mcp login`, loaded on first use) and reconnect it with the new tokens, or
 * reconnect one as it is. No restart: the manager swaps the connection and the tools follow at the
 * next turn.
 */
import type { Env } from '../../config/paths';
import { openInBrowser } from '../../interactive/open-browser';
import { expandServerConfig } from '../../mcp/expand-env';
import type { McpManager } from '../../mcp/manager';
import type { McpViewActions } from '../views/mcp-view';

export function mcpViewActions(manager: McpManager, env: Env, cwd: string): McpViewActions {
  return {
    async signIn(name, onUrl, signal) {
      const connection = manager.connection(name);
      if (!connection) throw new Error(`there is no MCP server named "${name}" in this session`);
      const expanded = expandServerConfig(connection.server.config, env);
      if (!expanded.ok) throw new Error(`unset variables ${expanded.missing.join(', ')}`);
      const config = expanded.config;
      if (config.type === 'stdio') throw new Error('it runs over stdio; only http and sse servers sign in');
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
