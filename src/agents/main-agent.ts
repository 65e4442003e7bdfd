/**
 * `--agent NAME` (and the SDK's `agent`): the main session runs as that agent. Its prompt replaces
 * Yoke's, its tool lists and tier cut the pool (the main thread keeps the Agent tool), and its
 * model and permission mode apply unless a flag says otherwise. Its permission mode was already
 * gated when the file was loaded: a project file never brings bypassPermissions.
 */
import type { PermissionMode } from '../permissions/types';
import type { AnyTool } from '../tools/tool';
import type { AgentRegistry } from './registry';
import { filterAgentTools } from './tool-filter';
import type { AgentDefinition } from './types';

export type MainThreadAgent = {
  definition: AgentDefinition;
  systemPrompt: string;
  /** The model to use when no flag or setting chose one; undefined for `inherit` or none. */
  model: string | undefined;
  permissionMode: PermissionMode | undefined;
  pool(tools: readonly AnyTool[]): AnyTool[];
};

export class UnknownAgentError extends Error {
  override name = 'UnknownAgentError';
  constructor(name: string, registry: AgentRegistry) {
    super(`--agent: there is no agent named "${name}"; known agents: ${registry.names().join(', ')}.`);
  }
}

/**
 * The agent the main session runs as: `--agent` (an unknown name is an error), else the `agent`
 * setting, whose unknown name is said in a warning and the session runs as itself.
 */
export function chooseMainAgent(
  agents: { mainThread(name: string): MainThreadAgent },
  flag: string | undefined,
  setting: string | undefined,
): { agent: MainThreadAgent | undefined; warnings: string[] } {
  if (flag !== undefined) return { agent: agents.mainThread(flag), warnings: [] };
  if (setting === undefined || setting.trim() === '') return { agent: undefined, warnings: [] };
  try {
    return { agent: agents.mainThread(setting), warnings: [] };
  } catch (error) {
    if (!(error instanceof UnknownAgentError)) throw error;
    return {
      agent: undefined,
      warnings: [`${error.message.replace(/^--agent:/, 'settings: agent:')} The session runs without one.`],
    };
  }
}

export function mainThreadAgent(registry: AgentRegistry, name: string): MainThreadAgent {
  const definition = registry.get(name);
  if (!definition) throw new UnknownAgentError(name, registry);
  return {
    definition,
    systemPrompt: definition.systemPrompt,
    model: definition.model === 'inherit' ? undefined : definition.model,
    permissionMode: definition.permissionMode,
    pool: (tools) => filterAgentTools(definition, tools, { allowSpawning: true }),
  };
}

/**
 * The first prompt of a session run as an agent: its `initialPrompt`, then the prompt given (the
 * argument or stdin), as one user turn. Empty when neither says anything.
 */
export function withInitialPrompt(initialPrompt: string | undefined, prompt: string): string {
  const parts = [initialPrompt?.trim() ?? '', prompt.trim()].filter((part) => part !== '');
  return parts.join('\n\n');
}

/**
 * The REPL's first turn, sent without the user typing: a session run as an agent opens with its
 * `initialPrompt`, the prompt given on the command line following it in the same turn (as with
 * `-p`). A resumed conversation has begun already, so it gets only the prompt given. Undefined
 * when there is nothing to send and the REPL waits for the user.
 */
export function firstReplTurn(
  initialPrompt: string | undefined,
  given: string | undefined,
  resumed: boolean,
): string | undefined {
  const prompt = withInitialPrompt(resumed ? undefined : initialPrompt, given ?? '');
  return prompt === '' ? undefined : prompt;
}
