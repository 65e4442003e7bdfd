/**
 * The REPL's side of the slash-command contract (commands/types.ts): what a command may read of
 * and change in the running session, answered from the engine, its services and the session's
 * set-up. One per session, built once the engine is ready.
 */
import type { CliOptions } from '../../cli/cli-options';
import { servedModelsOf, sessionHostPlace } from '../../cli/headless-command-host';
import { loadSessionSettings } from '../../cli/session-settings';
import type { SessionSetup } from '../../cli/session-setup';
import type { CommandHost, CommandRegistry, EditorResult } from '../../commands/types';
import { projectTrust } from '../../config/project-trust';
import { probeProvider } from '../../interactive/provider-probe';
import { ModelCatalog } from '../../model/catalog';
import { buildPermissionContext } from '../../permissions/permission-context';
import type { ReplSession } from './repl-session';

export type CommandHostDeps = {
  options: CliOptions;
  env: CommandHost['env'];
  cwd: string;
  setup: SessionSetup;
  commands: CommandRegistry;
  session: ReplSession;
  openInEditor(path: string): Promise<EditorResult>;
  /** The terminal's width now. */
  columns(): number | undefined;
  /** Aborted when the user cancels a running command (Esc) or the session ends. */
  signal: AbortSignal;
  /**
   * When the session started, on the monotonic clock (performance.now()): /cost's duration stays
   * true when the machine's clock is set back or forward meanwhile.
   */
  startedAt: number;
};

export function createCommandHost(deps: CommandHostDeps): CommandHost {
  const { options, env, cwd, setup } = deps;
  const engine = setup.engine;
  const services = engine.sessionServices;
  const trusted = async () => options.trust || (await projectTrust(cwd, env)).trusted;
  return {
    ...sessionHostPlace(options, env, cwd, engine.sessionId),
    commands: deps.commands,
    signal: deps.signal,
    // Command output is drawn 2 columns in (views/transcript-item.tsx).
    textColumns: () => {
      const columns = deps.columns();
      return columns === undefined ? undefined : columns - 2;
    },
    model: () => engine.currentModel,
    providerName: () => setup.selection.providerName,
    setModel: (id) => deps.session.setModel(id),
    models: services?.models ?? new ModelCatalog(),
    permissionMode: () => engine.permissionMode,
    setPermissionMode: (mode) => deps.session.setPermissionMode(mode),
    loadSettings: async () => (await loadSessionSettings(options, env, cwd)).loaded,
    permissionRules: () => engine.permissionRules,
    projectTrusted: trusted,
    async reloadPermissionRules() {
      // The same construction as at start (cli/session-permissions.ts), from the files as they are now.
      const fresh = await loadSessionSettings(options, env, cwd);
      const context = buildPermissionContext({
        settingsSources: fresh.loaded.sources,
        cliAllowed: options.allowedTools,
        cliDisallowed: options.disallowedTools,
        mode: engine.permissionMode,
        additionalDirectories: options.addDirs,
        cwd,
        projectTrusted: await trusted(),
      });
      engine.setPermissionRules(context.rules);
    },
    cost: () => {
      const total = services?.costs.total() ?? {
        usage: {
          input_tokens: 0,
          output_tokens: 0,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
        },
        costUsd: engine.totalCostUsd,
        apiDurationMs: 0,
        requests: 0,
      };
      return {
        ...total,
        byModel: services?.costs.byModel() ?? {},
        ...(setup.earlierSpend ? { earlier: setup.earlierSpend } : {}),
        sessionDurationMs: performance.now() - deps.startedAt,
      } as ReturnType<CommandHost['cost']>;
    },
    context: () => ({
      systemPrompt: engine.systemPrompt.map((part) => part.text),
      tools: setup.tools.map((tool) => ({
        name: tool.name,
        description: tool.prompt(),
        input_schema: tool.inputJsonSchema,
      })),
      memoryFiles: engine.memoryFiles,
      messages: engine.messages,
      ...(deps.session.getStatus().contextTokens > 0
        ? { lastRequestInputTokens: deps.session.getStatus().contextTokens }
        : {}),
    }),
    backgroundShells: () => services?.shells.list() ?? [],
    backgroundAgents: () => services?.agentTasks.list() ?? [],
    sandbox: () => services?.sandbox,
    mcpServers: () => setup.mcp?.statuses() ?? [],
    async reloadPlugins() {
      // The REPL's registry holds its own copy of the prompt commands: a reload held for the next
      // turn would leave it behind, so a reload waits for an idle session, as /compact does.
      if (deps.session.getStatus().running)
        throw new Error('wait for the running turn to end (or press Esc), then run it again.');
      const idle = () => !deps.session.getStatus().running;
      const reload = await setup.reload.plugins({ idle, addPluginDirs: [] });
      deps.commands.setPromptCommands(setup.commands.promptCommands);
      return {
        plugins: reload.plugins,
        commands: reload.commands.length,
        agents: reload.agents.length,
        problems: reload.error_count,
        mcpServers: (setup.mcp?.statuses() ?? []).filter((s) => s.source === 'plugin'),
      };
    },
    openInEditor: deps.openInEditor,
    settingsProblems: () => ({
      errors: setup.settings.loaded.errors.map((e) => e.message),
      warnings: setup.warnings,
    }),
    toolAvailability: () => setup.toolAvailability,
    probeProvider: (signal) =>
      probeProvider({ provider: setup.selection.provider, model: engine.currentModel, signal }),
    ...servedModelsOf(setup.selection),
  };
}
