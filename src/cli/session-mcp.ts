/**
 * A session's MCP servers: which are configured (mcp/config-sources.ts), started at once without
 * waiting for them, and the live pool the engine reads at each turn — the session's tools with
 * whatever MCP tools are connected by then, `system/init.mcp_servers`, and the notices about
 * servers that are not there. A session with no server has no manager until a plugin reload
 * brings the first servers (mcp/manager-slot.ts); until then no MCP code is loaded.
 */
import type { SettingsSource } from '../config/settings-merge';
import type { InitExtras } from '../engine/init-message';
import type { LiveToolPool } from '../engine/query-engine-config';
import type { ConfiguredServer } from '../mcp/config-sources';
import type { McpManager } from '../mcp/manager';
import { McpManagerSlot } from '../mcp/manager-slot';
import type { ToolPermissionContext } from '../permissions/types';
import type { AnyTool } from '../tools/tool';
import type { CliOptions } from './cli-options';
import type { Env } from './session-settings';

export type SessionMcp = { slot: McpManagerSlot; problems: string[] };

/** Reads the configuration and starts connecting; the MCP SDK loads only when a server is configured. */
export async function startSessionMcp(input: {
  options: Pick<CliOptions, 'mcpConfigs' | 'strictMcpConfig' | 'bare' | 'print'>;
  env: Env;
  cwd: string;
  settingsSources: readonly SettingsSource[];
  trusted: boolean;
  /** The enabled plugins' servers. */
  pluginServers?: readonly ConfiguredServer[];
}): Promise<SessionMcp> {
  const { options } = input;
  const { loadMcpConfiguration } = await import('../mcp/config-sources');
  const configuration = await loadMcpConfiguration({
    cwd: input.cwd,
    env: input.env,
    mcpConfigs: options.mcpConfigs,
    strict: options.strictMcpConfig,
    bare: options.bare,
    settingsSources: input.settingsSources,
    trusted: input.trusted,
    interactive: !options.print,
    ...(input.pluginServers ? { pluginServers: input.pluginServers } : {}),
  });
  const start = async (servers: readonly ConfiguredServer[]) => {
    const { McpManager, connectionOptionsFromEnv } = await import('../mcp/manager');
    const manager = new McpManager(servers, connectionOptionsFromEnv(input.env, input.cwd));
    manager.start();
    return manager;
  };
  const manager = configuration.servers.length > 0 ? await start(configuration.servers) : undefined;
  // Made on demand with no server: the plugins' servers join it (McpManager.replacePluginServers).
  return { slot: new McpManagerSlot(manager, () => start([])), problems: configuration.problems };
}

/**
 * The pool at each turn. `assemble` builds it from extra tools exactly as the session's first
 * pool was built (mode, deny rules, order), so a blanket deny on a server keeps its tools out.
 */
export async function liveMcpPool(
  manager: McpManager,
  assemble: (permissionContext: ToolPermissionContext, extraTools: readonly AnyTool[]) => AnyTool[],
  /** What the caller reports already (the SDK host's in-process servers). */
  base: InitExtras = {},
): Promise<LiveToolPool> {
  const [{ listMcpResourcesTool, readMcpResourceTool }, { resourceMentions }, { mcpServerTools }] =
    await Promise.all([
      import('../tools/mcp/resource-tools'),
      import('../mcp/resource-mentions'),
      import('../tools/mcp/server-tools'),
    ]);
  return {
    tools: (permissionContext) => {
      const resourceTools =
        manager.resourceServers().length > 0 ? [listMcpResourcesTool, readMcpResourceTool] : [];
      return assemble(permissionContext, [...mcpServerTools(manager), ...resourceTools]);
    },
    initExtras: () => ({
      mcp_servers: [
        ...(base.mcp_servers ?? []),
        ...manager.statuses().map((s) => ({ name: s.name, status: s.status, source: s.source })),
      ],
      // The session's commands, and the prompts of servers as they connect (once each).
      slash_commands: [...new Set([...(base.slash_commands ?? []), ...manager.promptCommands()])],
    }),
    notices: () => manager.notices(),
    promptContext: (prompt, signal) => resourceMentions(manager, prompt, signal),
  };
}
