/**
 * The `system/init` frame that opens every turn: what the SDK host learns about the session —
 * its id, model, tools, permission mode and the extras higher layers report (MCP servers, …).
 */
import { randomUUID } from 'node:crypto';
import type { ToolPermissionContext } from '../permissions/types';
import type { AnyTool } from '../tools/tool';
import type { SDKSystemInitMessage } from './sdk-messages';

export type InitExtras = Partial<
  Pick<SDKSystemInitMessage, 'mcp_servers' | 'slash_commands' | 'skills' | 'agents' | 'plugins' | 'warnings'>
>;

export function buildInitMessage(input: {
  cwd: string;
  sessionId: string;
  tools: readonly AnyTool[];
  model: string;
  permissionContext: ToolPermissionContext;
  apiKeySource?: string;
  extras?: InitExtras;
}): SDKSystemInitMessage {
  const extras = input.extras ?? {};
  return {
    type: 'system',
    subtype: 'init',
    cwd: input.cwd,
    session_id: input.sessionId,
    // The SDK's hosts know the Agent tool as "Task" in this list.
    tools: input.tools.map((t) => (t.name === 'Agent' ? 'Task' : t.name)),
    mcp_servers: extras.mcp_servers ?? [],
    model: input.model,
    permissionMode: input.permissionContext.mode,
    slash_commands: extras.slash_commands ?? [],
    skills: extras.skills ?? [],
    agents: extras.agents ?? [],
    plugins: extras.plugins ?? [],
    apiKeySource: input.apiKeySource ?? 'none',
    claude_code_version: YOKE_VERSION,
    yoke_version: YOKE_VERSION,
    output_style: 'default',
    // What the stream-json session honours (sdk/): a host checks here before relying on it.
    capabilities: ['interrupt_receipt_v1', 'reload_plugins_refuse_if_busy_v1'],
    additional_directories: [...input.permissionContext.additionalDirectories],
    ...(extras.warnings && extras.warnings.length > 0 ? { warnings: [...extras.warnings] } : {}),
    uuid: randomUUID(),
  };
}
