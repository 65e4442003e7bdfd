/**
 * Builds the session's engine from the CLI options plus what `initialize` registered: SDK MCP
 * servers (connected over the control channel), hook callbacks and the stdio permission prompt.
 */

import { listKnownModels } from '../model/models';
import type { ControlChannel } from './control-channel';
import { hostElicitation } from './elicitation';
import { createHookCallbackInvoker, parseSdkHooks } from './hook-invoker';
import type { InitializeConfig, SdkModelInfo } from './initialize';
import { connectSdkMcpServer, type SdkMcpConnection } from './mcp-bridge';
import { createStdioPermissionPrompt } from './permission-prompt';
import type {
  AgentSummary,
  CreateSessionEngine,
  McpServerControl,
  SdkCommandInfo,
  SessionEngine,
  SessionReloader,
  StreamJsonCliOptions,
  StreamJsonEngineExtras,
} from './types';

export type EngineSetupDeps<Options extends StreamJsonCliOptions> = {
  cliOptions: Options;
  createEngine: CreateSessionEngine<Options>;
  channel: ControlChannel;
  /** Called with true while a `can_use_tool` answer is awaited. */
  onPermissionWaiting: (waiting: boolean) => void;
  warn: (message: string) => void;
};

export type EngineSetup = {
  engine: SessionEngine;
  /** The host's in-process servers. */
  mcpConnections: SdkMcpConnection[];
  /**
   * The servers from config, `--mcp-config` and plugins (the SDK's stdio/HTTP/SSE `mcpServers`);
   * read at each request, since a plugin reload may bring a session its first.
   */
  readonly mcp: McpServerControl | undefined;
  /** Every agent the session knows: built-ins, files, `--agents` and the SDK's own. */
  agents: AgentSummary[] | undefined;
  /** The session's slash commands, for the initialize reply. */
  commands: SdkCommandInfo[];
  /** Reads plugins, commands, skills and agents again; absent when the engine cannot. */
  reload: SessionReloader | undefined;
};

export async function setUpEngine<Options extends StreamJsonCliOptions>(
  deps: EngineSetupDeps<Options>,
  config: InitializeConfig | undefined,
): Promise<EngineSetup> {
  const extras: StreamJsonEngineExtras = { ...config?.extras };
  const mcpConnections = await Promise.all(
    (config?.sdkMcpServers ?? []).map((name) => {
      const callTimeoutMs = config?.mcpCallTimeouts[name];
      return connectSdkMcpServer(deps.channel, name, callTimeoutMs ? { callTimeoutMs } : {});
    }),
  );
  for (const connection of mcpConnections) {
    if (connection.status === 'failed') {
      deps.warn(`yoke: SDK MCP server "${connection.name}" could not be connected: ${connection.error}\n`);
    }
  }
  const extraTools = mcpConnections.flatMap((connection) => connection.tools);
  if (extraTools.length > 0) extras.extraTools = extraTools;
  if (mcpConnections.length > 0) {
    extras.initExtras = {
      ...extras.initExtras,
      mcp_servers: mcpConnections.map((connection) => ({
        name: connection.name,
        status: connection.status,
        source: 'sdk',
      })),
    };
  }

  const hooks = parseSdkHooks(config?.hooks);
  if (hooks.unsupportedEvents.length > 0) {
    deps.warn(`yoke: these SDK hook events are never fired by Yoke: ${hooks.unsupportedEvents.join(', ')}\n`);
  }
  for (const problem of hooks.timeoutProblems) deps.warn(`yoke: warning: ${problem}\n`);
  if (hooks.timeoutProblems.length > 0) {
    extras.initExtras = { ...extras.initExtras, warnings: hooks.timeoutProblems };
  }
  if (hooks.matchers.length > 0) {
    extras.sdkHooks = {
      matchers: hooks.matchers,
      invoke: createHookCallbackInvoker(deps.channel, hooks.blocking),
    };
  }

  if (deps.cliOptions.permissionPromptTool === 'stdio') {
    extras.permissionPrompt = createStdioPermissionPrompt({
      channel: deps.channel,
      onWaiting: deps.onPermissionWaiting,
    });
  }
  const made = await deps.createEngine({
    ...deps.cliOptions,
    ...extras,
  });
  const { engine, agents, commands, reload } = made;
  // The configured servers' questions go to the host, whose `onElicitation` answers them.
  const answerByHost = (servers: McpServerControl) =>
    servers.setElicitationHandler?.(hostElicitation(deps.channel));
  if (made.whenMcp) made.whenMcp(answerByHost);
  else if (made.mcp) answerByHost(made.mcp);
  return {
    engine,
    mcpConnections,
    get mcp() {
      return made.mcp;
    },
    agents,
    commands: commands?.describe() ?? [],
    reload,
  };
}

/**
 * The `models` list of the initialize answer: what `--model` and `set_model` accept, and which
 * effort levels each takes (the levels `--effort` may ask for and the model receives as asked).
 */
export function knownModels(): SdkModelInfo[] {
  return listKnownModels().map((model) => ({
    value: model.id,
    displayName: model.id,
    description: `${model.provider === 'anthropic' ? 'Anthropic' : 'OpenAI-compatible'} model`,
    supportsEffort: model.effortLevels !== undefined,
    ...(model.effortLevels ? { supportedEffortLevels: [...model.effortLevels] } : {}),
  }));
}
