/**
 * Opens the MCP SDK transport a server's config names: a child process over stdio, streamable HTTP
 * or legacy SSE. The SDK loads only here, on first use (principle 8).
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { StoredOAuthProviderBase } from './oauth-provider';
import { watchScopeChallenges } from './oauth-scope';
import type { McpServerConfig } from './server-config';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The model provider's credentials are the session's, not a tool server's: a server gets them
 * only when its own `env` names them.
 */
const WITHHELD_VARIABLES = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'OPENAI_API_KEY'];

/** The child's environment: the session's (minus model credentials), then the server's `env`. */
export function stdioEnvironment(sessionEnv: Env, serverEnv: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(sessionEnv)) {
    if (value !== undefined && !WITHHELD_VARIABLES.includes(key)) out[key] = value;
  }
  return { ...out, ...serverEnv };
}

export type OpenedTransport = {
  transport: Transport;
  /** The last lines the server wrote to stderr (stdio only), for a failure's reason. */
  stderrTail(): string;
};

const STDERR_TAIL_CHARS = 2000;

export async function openTransport(
  config: McpServerConfig,
  options: { env: Env; cwd: string; authProvider?: OAuthClientProvider & StoredOAuthProviderBase },
): Promise<OpenedTransport> {
  if (config.type === 'stdio') {
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      env: stdioEnvironment(options.env, config.env),
      cwd: config.cwd ?? options.cwd,
      // Piped, never inherited: a server's log lines must not reach stdout's protocol or the TUI.
      stderr: 'pipe',
    });
    let tail = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    return { transport, stderrTail: () => tail.trim() };
  }
  const url = new URL(config.url);
  const requestInit = { headers: config.headers };
  const provider = options.authProvider;
  // The provider hears of each refusal for scope before the transport asks it for new tokens.
  const auth = provider
    ? {
        authProvider: provider,
        fetch: watchScopeChallenges((challenge) => provider.noteScopeChallenge(challenge)),
      }
    : {};
  if (config.type === 'sse') {
    const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
    return { transport: new SSEClientTransport(url, { requestInit, ...auth }), stderrTail: () => '' };
  }
  const { StreamableHTTPClientTransport } = await import(
    '@modelcontextprotocol/sdk/client/streamableHttp.js'
  );
  return {
    transport: new StreamableHTTPClientTransport(url, { requestInit, ...auth }),
    stderrTail: () => '',
  };
}
