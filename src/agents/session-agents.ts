/**
 * The agents part of a session's composition: the definitions it knows (loaded while the rest
 * of the session is set up), the Agent tool over them, and the runtime its workers run on. The
 * composition root calls `loadSessionAgents` early and `attach` once the session's provider,
 * permissions and pool exist.
 */
import type { HookRunner } from '../hooks/types';
import { resolveModelAlias } from '../model/models';
import type { Env } from '../model/types';
import { subagentTranscriptPaths } from '../session/transcript-paths';
import type { SessionServices } from '../tools/session-services';
import type { AnyTool } from '../tools/tool';
import { createAgentTool } from './agent-tool';
import { type LoadAgentsOptions, loadAgentDefinitions, type PluginAgentDirs } from './load-definitions';
import { type MainThreadAgent, mainThreadAgent } from './main-agent';
import type { AgentRegistry } from './registry';
import { type AgentRuntime, attachAgentRuntime } from './runtime';
import { systemClock } from './types';
import { workerHooks } from './worker-hooks';

export type SessionAgentsInput = {
  cwd: string;
  env: Env;
  /** The folder is trusted, and the project's hooks and MCP servers run in this session. */
  trusted: boolean;
  projectCodeRuns: boolean;
  /** `--agents` JSON and the SDK's `agents`. */
  agents?: Record<string, unknown>;
  plugins?: readonly PluginAgentDirs[];
  /** Which settings sources are read (`--setting-sources`); `--bare` reads no agent files. */
  settingSources?: readonly string[];
  bare?: boolean;
};

export type SessionAgents = {
  registry: AgentRegistry;
  /** The Agent tool, for the session's built-ins. */
  tool: AnyTool;
  /** Broken or narrowed definitions, one line each (said once at start, and in system/init). */
  warnings: readonly string[];
  /** Whether any definition brings its own hooks (the session then needs a hook runner). */
  hasScopedHooks: boolean;
  /** For `system/init.agents`. */
  names(): string[];
  /** `--agent NAME`: the main session as that agent; throws UnknownAgentError for a name it does not know. */
  mainThread(name: string): MainThreadAgent;
  /** For the SDK's initialize answer. */
  summaries(): { name: string; description: string; model: string }[];
  /** Gives the session's workers what they run on. */
  attach(
    services: SessionServices,
    runtime: Omit<AgentRuntime, 'definitions' | 'resolveModel' | 'sidechainPaths' | 'clock' | 'hooksFor'> & {
      /** The session's hooks: each worker gets them scoped to itself, plus its definition's. */
      hooks: HookRunner;
      providerName: string;
      sessionId: string;
      /** The session keeps transcripts: workers get sidechains beside them. */
      persisted: boolean;
    },
  ): void;
};

function sources(input: SessionAgentsInput): LoadAgentsOptions['sources'] {
  if (input.bare) return { user: false, project: false };
  const chosen = input.settingSources;
  if (!chosen) return { user: true, project: true };
  return { user: chosen.includes('user'), project: chosen.includes('project') || chosen.includes('local') };
}

export async function loadSessionAgents(input: SessionAgentsInput): Promise<SessionAgents> {
  const registry = await loadAgentDefinitions({
    cwd: input.cwd,
    env: input.env,
    gate: { trusted: input.trusted, codeRuns: input.projectCodeRuns },
    ...(input.agents ? { cliAgents: input.agents } : {}),
    ...(input.plugins ? { plugins: input.plugins } : {}),
    sources: sources(input),
  });
  return {
    registry,
    tool: createAgentTool(registry),
    warnings: registry.problems,
    hasScopedHooks: registry.list().some((definition) => definition.hooks !== undefined),
    names: () => registry.names(),
    mainThread: (name) => mainThreadAgent(registry, name),
    summaries: () =>
      registry.list().map((definition) => ({
        name: definition.agentType,
        description: definition.description,
        model: definition.model ?? 'inherit',
      })),
    attach(services, { providerName, sessionId, persisted, hooks, ...runtime }) {
      attachAgentRuntime(services, {
        ...runtime,
        hooksFor: (scope, definition) => workerHooks(hooks, scope, definition.hooks),
        definitions: registry,
        // Aliases name Anthropic models; another provider's worker keeps the parent's model.
        resolveModel: (requested, parentModel) => {
          if (requested === undefined || requested === 'inherit') return parentModel;
          const resolved = resolveModelAlias(requested);
          if (providerName !== 'anthropic' && resolved !== requested) return parentModel;
          return resolved;
        },
        ...(persisted
          ? {
              sidechainPaths: (agentId: string) =>
                subagentTranscriptPaths(input.env, input.cwd, sessionId, agentId),
            }
          : {}),
        clock: systemClock,
      });
    },
  };
}
