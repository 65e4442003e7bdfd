/**
 * `yoke mcp login <name>`: signs in to an HTTP or SSE server that asks for OAuth, through the
 * flow in mcp/oauth-login.ts (the REPL's /mcp runs the same): the user opens the printed URL, and
 * the tokens are kept in Yoke's user state (mode 0600), which sessions read from then on.
 */
import type { Env } from '../../config/paths';
import { userStatePath } from '../../config/user-state';
import { loadMcpConfiguration, standaloneConfigInput } from '../../mcp/config-sources';
import { expandServerConfig } from '../../mcp/expand-env';
import { signInToServer } from '../../mcp/oauth-login';
import { CliUsageError } from '../errors';

export async function runMcpLogin(
  args: readonly string[],
  context: { cwd: string; env: Env; print: (line: string) => void },
): Promise<number> {
  const [name, ...extra] = args;
  if (!name || extra.length > 0) throw new CliUsageError('usage: yoke mcp login <name>');
  const configuration = await loadMcpConfiguration(standaloneConfigInput(context.cwd, context.env));
  const server = configuration.servers.find((s) => s.name === name);
  if (!server)
    throw new CliUsageError(`No MCP server named "${name}"; \`yoke mcp list\` shows the configured ones`);
  const expanded = expandServerConfig(server.config, context.env);
  if (!expanded.ok)
    throw new CliUsageError(`MCP server "${name}": unset variables ${expanded.missing.join(', ')}`);
  const config = expanded.config;
  if (config.type === 'stdio')
    throw new CliUsageError(`MCP server "${name}" runs over stdio; only http and sse servers sign in`);
  const outcome = await signInToServer(name, config, {
    env: context.env,
    cwd: context.cwd,
    onAuthorizationUrl: (url) => {
      context.print(`Open this address in your browser to sign in to "${name}":`);
      context.print(url.href);
    },
  });
  context.print(
    outcome === 'not-needed'
      ? `MCP server "${name}" let Yoke in without signing in; nothing to do.`
      : `Signed in to "${name}"; the tokens are kept in ${userStatePath(context.env)}.`,
  );
  return 0;
}
