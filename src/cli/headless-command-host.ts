/**
 * The `CommandHost` of a headless session (`-p`, stream-json): what the built-in local commands
 * that need no screen (/cost, /context, /status, /model, /compact) read and change, answered from
 * the engine and the session's set-up. The UI's own host is src/tui/session/command-host.ts.
 */
import type { CommandHost, CommandRegistry } from '../commands/types';
import { findGitRoot } from '../config/git-root';
import { projectTrust } from '../config/project-trust';
import type { QueryEngine } from '../engine/query-engine';
import { probeProvider } from '../interactive/provider-probe';
import { ModelCatalog } from '../model/catalog';
import { modelListUrl } from '../model/openai/served-models';
import type { ModelSelection } from '../model/select';
import { transcriptPath } from '../session/transcript-paths';
import type { AvailabilityProblem } from '../tools/availability';
import type { CliOptions } from './cli-options';
import { type Env, loadSessionSettings } from './session-settings';

export type HeadlessHostDeps = {
  options: CliOptions;
  env: Env;
  cwd: string;
  engine: QueryEngine;
  commands: CommandRegistry;
  selection: Pick<ModelSelection, 'provider' | 'providerName' | 'listModels' | 'endpoint'>;
  settingsErrors: readonly string[];
  warnings: readonly string[];
  toolAvailability: readonly AvailabilityProblem[];
  startedAt: number;
};

/**
 * /model's view of the server's own list, for an OpenAI-compatible server a base URL names
 * (Ollama, vLLM, a gateway). OpenAI's own API is left to Yoke's table: its list mixes in image,
 * speech and embedding models, and the table has the chat models with their prices.
 */
export function servedModelsOf(
  selection: Pick<ModelSelection, 'listModels' | 'endpoint'>,
): Pick<CommandHost, 'servedModels'> {
  const list = selection.listModels;
  if (!list || selection.endpoint.baseUrlSource === undefined) return {};
  const url = modelListUrl(selection.endpoint);
  return { servedModels: async (signal) => ({ url, served: await list(signal) }) };
}

/** Where and which session a host describes: the same for the UI's host and the headless one. */
export function sessionHostPlace(
  options: Pick<CliOptions, 'sessionPersistence'>,
  env: Env,
  cwd: string,
  sessionId: string,
): Pick<CommandHost, 'cwd' | 'projectRoot' | 'env' | 'sessionId' | 'transcriptPath'> {
  return {
    cwd,
    projectRoot: findGitRoot(cwd) ?? cwd,
    env,
    sessionId,
    transcriptPath: options.sessionPersistence ? transcriptPath(env, cwd, sessionId) : undefined,
  };
}

export function createHeadlessCommandHost(deps: HeadlessHostDeps): CommandHost {
  const { options, env, cwd, engine } = deps;
  const services = engine.sessionServices;
  const noEditor = 'There is no terminal to open an editor on in a headless session.';
  return {
    ...sessionHostPlace(options, env, cwd, engine.sessionId),
    commands: deps.commands,
    signal: new AbortController().signal,
    model: () => engine.currentModel,
    providerName: () => deps.selection.providerName,
    setModel: (id) => engine.setModel(id),
    models: services?.models ?? new ModelCatalog(),
    permissionMode: () => engine.permissionMode,
    setPermissionMode: (mode) => engine.setPermissionMode(mode),
    loadSettings: async () => (await loadSessionSettings(options, env, cwd)).loaded,
    permissionRules: () => engine.permissionRules,
    projectTrusted: async () => options.trust || (await projectTrust(cwd, env)).trusted,
    reloadPermissionRules: async () => {},
    cost: () => {
      const costs = services?.costs;
      const total = costs?.total() ?? {
        usage: { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
        costUsd: 0,
        apiDurationMs: 0,
        requests: 0,
      };
      return { ...total, byModel: costs?.byModel() ?? {}, sessionDurationMs: Date.now() - deps.startedAt };
    },
    context: () => ({
      systemPrompt: engine.systemPrompt.map((part) => part.text),
      tools: engine.userToolContext(new AbortController().signal).tools.map((tool) => ({
        name: tool.name,
        description: tool.prompt(),
        input_schema: tool.inputJsonSchema,
      })),
      memoryFiles: engine.memoryFiles,
      messages: engine.messages,
    }),
    backgroundShells: () => services?.shells.list() ?? [],
    backgroundAgents: () => services?.agentTasks.list() ?? [],
    sandbox: () => services?.sandbox,
    openInEditor: async () => ({ opened: false, reason: noEditor }),
    settingsProblems: () => ({ errors: [...deps.settingsErrors], warnings: [...deps.warnings] }),
    toolAvailability: () => deps.toolAvailability,
    probeProvider: (signal) =>
      probeProvider({ provider: deps.selection.provider, model: engine.currentModel, signal }),
    ...servedModelsOf(deps.selection),
  };
}
