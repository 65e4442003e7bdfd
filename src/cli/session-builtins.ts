/**
 * Every built-in tool a session offers: the tools/ layer's, and the agent layer's (Agent, the
 * worktree tools, SendMessage), which the composition root adds because they need the session's
 * agents. In the built CLI their JSON Schemas come from the build (scripts/build.mjs converts
 * `everyBuiltinTool()`), so no zod schema is converted on the way to the first request.
 */

import { createAgentTool } from '../agents/agent-tool';
import { sendMessageTool } from '../agents/background/send-message';
import { AgentRegistry } from '../agents/registry';
import { WORKTREE_TOOLS } from '../agents/worktree/tools';
import { applyPrebuiltSchemas, type BuiltinToolDeps, createBuiltinTools } from '../tools/builtin';
import type { AnyTool } from '../tools/tool';

export function sessionBuiltins(deps: BuiltinToolDeps, agentTool: AnyTool): AnyTool[] {
  const agentLayer = [agentTool, ...WORKTREE_TOOLS, sendMessageTool];
  applyPrebuiltSchemas(agentLayer);
  return [...createBuiltinTools(deps), ...agentLayer];
}

/** Each built-in tool once (for the build's schema table): the Agent tool's schema does not depend on the agents. */
export function everyBuiltinTool(): AnyTool[] {
  return sessionBuiltins({ canAskUser: true }, createAgentTool(new AgentRegistry()));
}
