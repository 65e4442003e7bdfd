/**
 * Every tool pool of a session from one assembly: the first pool, each permission mode's
 * (EnterPlanMode, ExitPlanMode, set_permission_mode), each turn's with the MCP tools connected by
 * then, and each worker's. `--agent` narrows them all to that agent's tools.
 */
import type { MainThreadAgent } from '../agents/main-agent';
import type { LiveToolPool } from '../engine/query-engine-config';
import type { McpManager } from '../mcp/manager';
import type { ToolPermissionContext } from '../permissions/types';
import type { AnyTool } from '../tools/tool';
import { liveMcpPool } from './session-mcp';
import type { Env } from './session-settings';
import { selectSessionTools, type ToolSelection } from './session-tools';
import type { SessionSetupOptions } from './session-types';

export type SessionPools = {
  /** The first pool, with its warnings and the tools this machine cannot run. */
  selected: ToolSelection;
  /** A permission mode's pool (built-ins and the SDK host's tools). */
  forMode(permissionContext: ToolPermissionContext): AnyTool[];
  /** A worker's pool: its mode's, with the MCP tools connected by the time it asks. */
  forWorker(permissionContext: ToolPermissionContext): readonly AnyTool[];
  /** Each turn's pool when MCP servers are configured. */
  livePool: LiveToolPool | undefined;
};

export async function createSessionPools(input: {
  options: Pick<SessionSetupOptions, 'tools' | 'extraTools' | 'initExtras'>;
  env: Env;
  builtins: readonly AnyTool[];
  mainAgent: MainThreadAgent | undefined;
  permissionContext: ToolPermissionContext;
  mcp: McpManager | undefined;
  /** The session's slash commands, for `system/init` (MCP prompts join them as servers connect). */
  slashCommands: readonly string[];
}): Promise<SessionPools> {
  const { options, mainAgent } = input;
  const extraTools = options.extraTools ?? [];
  const assemble = (permissionContext: ToolPermissionContext, extra: readonly AnyTool[]) => {
    const selected = selectSessionTools(permissionContext, options.tools, input.builtins, extra, input.env);
    return mainAgent ? { ...selected, tools: mainAgent.pool(selected.tools) } : selected;
  };
  const selected = assemble(input.permissionContext, extraTools);
  const livePool = input.mcp
    ? await liveMcpPool(
        input.mcp,
        (permissionContext, mcpTools) => assemble(permissionContext, [...extraTools, ...mcpTools]).tools,
        {
          ...options.initExtras,
          // Read at each turn: a reload changes the session's commands in place.
          get slash_commands() {
            return [...input.slashCommands, ...(options.initExtras?.slash_commands ?? [])];
          },
        },
      )
    : undefined;
  const forMode = (permissionContext: ToolPermissionContext) => assemble(permissionContext, extraTools).tools;
  return {
    selected,
    forMode,
    forWorker: (permissionContext) => livePool?.tools(permissionContext) ?? forMode(permissionContext),
    livePool,
  };
}
