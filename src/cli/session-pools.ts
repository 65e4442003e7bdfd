/**
 * Every tool pool of a session from one assembly: the first pool, each permission mode's
 * (EnterPlanMode, ExitPlanMode, set_permission_mode), each turn's with the MCP tools connected by
 * then, and each worker's. `--agent` narrows them all to that agent's tools.
 */
import type { MainThreadAgent } from '../agents/main-agent';
import type { LiveToolPool } from '../engine/query-engine-config';
import type { McpManagerSlot } from '../mcp/manager-slot';
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
  /** Each turn's pool: the mode's, with the MCP tools connected by then once there is a manager. */
  livePool: LiveToolPool;
};

export async function createSessionPools(input: {
  options: Pick<SessionSetupOptions, 'tools' | 'extraTools' | 'initExtras'>;
  env: Env;
  builtins: readonly AnyTool[];
  mainAgent: MainThreadAgent | undefined;
  permissionContext: ToolPermissionContext;
  mcp: McpManagerSlot;
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
  const forMode = (permissionContext: ToolPermissionContext) => assemble(permissionContext, extraTools).tools;
  // Made with the manager, at start or when a plugin reload brings the first servers.
  let live: LiveToolPool | undefined;
  await input.mcp.whenPresent(async (manager) => {
    live = await liveMcpPool(
      manager,
      (permissionContext, mcpTools) => assemble(permissionContext, [...extraTools, ...mcpTools]).tools,
      {
        ...options.initExtras,
        // Read at each turn: a reload changes the session's commands in place.
        get slash_commands() {
          return [...input.slashCommands, ...(options.initExtras?.slash_commands ?? [])];
        },
      },
    );
  });
  // Without a manager it is the mode's pool and adds nothing: as if there were no live pool.
  const livePool: LiveToolPool = {
    tools: (permissionContext) => live?.tools(permissionContext) ?? forMode(permissionContext),
    initExtras: () => live?.initExtras() ?? {},
    notices: () => live?.notices() ?? [],
    promptContext: (prompt, signal) => live?.promptContext(prompt, signal) ?? Promise.resolve([]),
  };
  return { selected, forMode, forWorker: livePool.tools, livePool };
}
