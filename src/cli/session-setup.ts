/**
 * The composition root of a headless session: model, tools, permissions, hooks and the
 * QueryEngine, from parsed options. `yoke -p` and the stream-json protocol both start here; the
 * protocol adds what the SDK host supplies (permission prompt, hook callbacks, in-process tools,
 * system prompt, JSON schema, agents from `initialize`).
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { backgroundAgents } from '../agents/background/launch';
import { backgroundAgentOptions } from '../agents/background/options';
import { sendMessageTool } from '../agents/background/send-message';
import { startCoordinator } from '../agents/coordinator/coordinator-mode';
import { sessionWorktree } from '../agents/worktree/session-start';
import { WORKTREE_TOOLS } from '../agents/worktree/tools';
import type { HooksSettings } from '../config/settings-schema';
import { sideCallRetryNotices } from '../engine/api-notices';
import { environmentFacts } from '../engine/environment';
import type { HookCallbackInvoker, HookLifecycle, HookRunner, SdkHookMatcher } from '../hooks/types';
import { noopHooks } from '../hooks/types';
import type { McpManager } from '../mcp/manager';
import { chooseFastModel } from '../model/fast-model';
import type { ModelSelection } from '../model/select';
import { type ThinkingConfig, thinkingForBudget } from '../model/types';
import type { ProtectedPaths } from '../permissions/protected-paths';
import type { PermissionPrompt, ToolPermissionContext } from '../permissions/types';
import type { LoadedPlugin } from '../plugins/types';
import { lspSettings } from '../services/lsp/settings';
import { projectDir } from '../session/transcript-paths';
import { type AvailabilityProblem, describeAvailabilityProblem } from '../tools/availability';
import type { ToolNotification } from '../tools/context';
import { toolSearchWarnings } from '../tools/deferral/policy';
import type { AnyTool } from '../tools/tool';
import type { CliOptions } from './cli-options';
import type { SessionCommands } from './session-commands';
import { startSessionGit } from './session-git';
import { liveMcpPool, startSessionMcp } from './session-mcp';
import { sessionModels } from './session-models';
import {
  checkAddDirs,
  createPermissionSetup,
  requestedPermissionMode,
  sessionProtectedPaths,
} from './session-permissions';
import { confineLanguageServers, createSessionSandbox, sandboxStartNotice } from './session-sandbox';
import { autoCompactEnabled, contextStages, loadSessionSettings } from './session-settings';
import { selectSessionTools } from './session-tools';
import {
  appliedSettings,
  gatedProjectKeys,
  ignoredProjectSettings,
  projectCodeRuns,
  sessionTrust,
} from './session-trust';
import { checkAvailableFeatures } from './unavailable';

type QueryEngineType = import('../engine/query-engine').QueryEngine;
type QueryEngineConfig = import('../engine/query-engine').QueryEngineConfig;

/** SDK callback hooks from `initialize.hooks`, and how to call them. */
export type SdkHooks = { matchers: readonly SdkHookMatcher[]; invoke: HookCallbackInvoker };

export type SessionSetupOptions = CliOptions & {
  /** Asked where a headless run would refuse (the SDK's `can_use_tool`). */
  permissionPrompt?: PermissionPrompt;
  sdkHooks?: SdkHooks;
  /** In-process tools (SDK MCP servers), placed after the built-ins. */
  extraTools?: readonly AnyTool[];
  /** Replaces the system prompt (wins over `--system-prompt`). */
  systemPromptOverride?: string;
  /** Facts for `system/init` from the caller (the SDK MCP servers of a stream-json session). */
  initExtras?: QueryEngineConfig['initExtras'];
  /** The SDK's `skills` option: only these skills are offered to the model. */
  onlySkills?: readonly string[];
};

export type SessionSetup = {
  engine: QueryEngineType;
  selection: ModelSelection;
  /** The pool the model sees (before the engine adds StructuredOutput for a JSON schema). */
  tools: AnyTool[];
  permissionContext: ToolPermissionContext;
  /** Non-fatal problems with the options, one line each, for the caller to show. */
  warnings: string[];
  /** Tools left out or limited on this machine, and why (also among `warnings`, as one line each). */
  toolAvailability: AvailabilityProblem[];
  /** The session's MCP servers (for `mcp_status`, `/mcp`); absent when none are configured. */
  mcp: McpManager | undefined;
  /** The files whose writes always ask (the REPL's `#` memory note respects them too). */
  protectedPaths: ProtectedPaths;
  /** The settings loaded for the session, with their problems (the REPL's /doctor shows them). */
  settings: SessionSettings;
  /** The agents the session knows (the SDK's initialize answer lists them). */
  agents: { name: string; description: string; model: string }[];
  /** The session's plugins: their command, skill and agent folders for those loaders. */
  plugins: LoadedPlugin[];
  /** The slash commands and skills (the REPL's registry takes the prompt commands from here). */
  commands: SessionCommands;
};

import type { Env, SessionSettings } from './session-settings';

export type { Env };

/** `--max-thinking-tokens N` → enabled with that budget (0 → off); `--thinking` otherwise. */
export function thinkingConfig(
  options: Pick<CliOptions, 'thinking' | 'maxThinkingTokens'>,
): ThinkingConfig | undefined {
  if (options.thinking === 'disabled') return { type: 'disabled' };
  if (options.maxThinkingTokens !== undefined) return thinkingForBudget(options.maxThinkingTokens);
  return options.thinking === undefined ? undefined : { type: 'adaptive' };
}

/** What `system/init.apiKeySource` reports. */
export function apiKeySource(selection: Pick<ModelSelection, 'providerName'>, env: Env): string {
  const variable = selection.providerName === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
  if (env[variable]?.trim()) return variable;
  if (selection.providerName === 'anthropic' && env.ANTHROPIC_AUTH_TOKEN?.trim())
    return 'ANTHROPIC_AUTH_TOKEN';
  return 'none';
}

/**
 * The session's hook runner: settings-defined command hooks (none in `--bare` mode) and the SDK
 * host's callback hooks. `engine` is read lazily because hook input carries its session id and
 * live permission mode. Hook problems (timeouts, bad output) reach the user through `report`.
 */
async function sessionHooks(
  options: SessionSetupOptions,
  settingsHooks: HooksSettings | undefined,
  env: Env,
  cwd: string,
  live: {
    sessionId: string;
    transcriptPath: string;
    engine: () => QueryEngineType | undefined;
    /** An agent definition brings hooks of its own: its workers need a runner. */
    agentHooks: boolean;
  },
  report: (text: string, level: string) => void,
  onLifecycle: (event: HookLifecycle) => void,
  /** Skills may add hooks later (their `hooks:`), so even none now needs a runner. */
  mayGrow = false,
): Promise<HookRunner> {
  const sdk = options.sdkHooks && options.sdkHooks.matchers.length > 0 ? options.sdkHooks : undefined;
  const commands = options.bare ? undefined : settingsHooks;
  if (!sdk && !mayGrow && (!commands || Object.keys(commands).length === 0) && !live.agentHooks)
    return noopHooks;
  const { createHookRunner } = await import('../hooks/runner');
  return createHookRunner({
    settingsHooks: commands,
    sdkHooks: sdk ? { matchers: [...sdk.matchers], invoke: sdk.invoke } : undefined,
    base: () => ({
      session_id: live.sessionId,
      transcript_path: live.transcriptPath,
      cwd: live.engine()?.currentCwd ?? cwd,
      permission_mode: live.engine()?.permissionMode ?? options.permissionMode ?? 'default',
    }),
    env,
    projectDir: cwd,
    onMessage: report,
    onLifecycle,
  });
}

export type SessionLog = { warn(text: string): void; debug(text: string): void };

const silentLog: SessionLog = { warn: () => {}, debug: () => {} };

export async function createSessionEngine(
  options: SessionSetupOptions,
  env: Env,
  cwd: string,
  log: SessionLog = silentLog,
): Promise<SessionSetup> {
  checkAvailableFeatures(options);
  checkAddDirs(options.addDirs, cwd);
  // `--worktree`: the session runs in a new git worktree, so everything below reads its cwd.
  const isolation = await sessionWorktree(options.worktree, cwd, env, log);
  cwd = isolation.cwd;
  // Everything on the way to the first model request starts at once: git (for the system
  // prompt), the settings files, and the big modules, so their waits overlap.
  const git = startSessionGit(cwd, env);
  const modules = Promise.all([
    import('../model/select'),
    import('../engine/query-engine'),
    import('../tools/builtin'),
    import('../tools/session-services'),
    import('../session/resume'),
    import('../config/memory/memory-files'),
    import('../engine/hook-frames'),
  ]);
  const interactive = !options.print;
  const [settings, trust] = await Promise.all([
    loadSessionSettings(options, env, cwd),
    sessionTrust(options, cwd, env),
  ]);
  const merged = settings.loaded.merged;
  const trustWarnings = [
    ...trust.problems,
    ...ignoredProjectSettings({
      sources: settings.loaded.sources,
      trusted: trust.trusted,
      interactive,
      explicitMode: requestedPermissionMode(options) !== undefined,
      cwd,
    }),
  ];
  // What an untrusted project may not set: its hooks, env and baseUrl where someone could trust
  // the folder, and its WebFetch hosts (an allow by host) anywhere.
  const { merged: applied, env: sessionEnv } = appliedSettings(
    settings,
    env,
    gatedProjectKeys(trust.trusted, interactive),
  );
  // Enabled plugins and `--plugin-dir`: their hooks join the settings' hooks, their servers the MCP config.
  const { sessionPlugins, withPluginHooks } = await import('../plugins/session-plugins');
  const plugins = await sessionPlugins({
    cwd,
    env: sessionEnv,
    settingsSources: settings.loaded.sources,
    trusted: trust.trusted,
    pluginDirs: options.pluginDirs,
    pluginDirsWithoutMcp: options.pluginDirNoMcp,
    bare: options.bare,
    strictMcpConfig: options.strictMcpConfig,
  });
  const hookSettings = withPluginHooks(applied.hooks, plugins);
  // Agent files load while servers connect and the model is chosen.
  const agentsLoad = import('../agents/session-agents').then(({ loadSessionAgents }) =>
    loadSessionAgents({
      cwd,
      env: sessionEnv,
      trusted: trust.trusted,
      projectCodeRuns: projectCodeRuns(trust.trusted, interactive),
      ...(options.agents ? { agents: options.agents } : {}),
      ...(options.settingSources ? { settingSources: options.settingSources } : {}),
      bare: options.bare,
      plugins: plugins.plugins,
    }),
  );
  // Servers connect while the rest is set up, and on after: the first request does not wait.
  const mcp = await startSessionMcp({
    options,
    env: sessionEnv,
    cwd,
    settingsSources: settings.loaded.sources,
    trusted: trust.trusted,
    pluginServers: plugins.mcpServers,
  });
  // One per session: the permission checks and the system prompt's git status share its verdicts.
  const { gitConfig, facts: gitFacts } = git.settle(sessionEnv);
  const [
    { selectModel },
    { QueryEngine },
    { createBuiltinTools },
    { SessionServices, toolSettings },
    { resolveSession },
    memoryFiles,
    { HookFrameQueue },
  ] = await modules;
  // `--setting-sources` picks memory files too: user → the user's, project → the project's, local → *.local.md.
  const memorySources = options.settingSources;
  const memoryPromise = options.bare
    ? Promise.resolve([])
    : memoryFiles.loadMemoryFiles({ cwd, env: sessionEnv, sources: memorySources });
  const agents = await agentsLoad;
  const mainAgent = options.agent === undefined ? undefined : agents.mainThread(options.agent);
  const selection = await selectModel({
    model: options.model ?? mainAgent?.model ?? merged.model,
    provider: options.provider ?? merged.provider,
    baseUrl: applied.baseUrl,
    fallbackModel: options.fallbackModel,
    env: sessionEnv,
    timeouts: merged.apiTimeouts,
  });
  const fast = chooseFastModel({
    providerName: selection.providerName,
    setting: merged.smallFastModel,
    env: sessionEnv,
  });

  const [session, memory, models] = await Promise.all([
    resolveSession({
      cwd,
      env: sessionEnv,
      resume: options.resume,
      continue: options.continue,
      forkSession: options.forkSession,
      resumeSessionAt: options.resumeSessionAt,
      sessionId: options.sessionId,
      model: selection.model,
      persist: options.sessionPersistence,
    }),
    memoryPromise,
    sessionModels(
      merged.models,
      { ...selection, ...(fast.model ? { fastModel: fast.model } : {}) },
      sessionEnv,
      log,
    ),
  ]);
  const coordinator = startCoordinator({
    flag: options.coordinator,
    env: sessionEnv,
    cwd,
    sessionId: session.sessionId,
  });
  let engine: QueryEngineType | undefined;
  // The settings' hooks, and a skill's once it runs (unless hooks are turned off).
  const hooksOff = merged.disableAllHooks === true || merged.allowManagedHooksOnly === true;
  const liveHooks = new (await import('../skills/skill-hooks')).LiveHooks(hookSettings);
  // The permission pipeline and hooks are made below; the skills read them when a command runs.
  const commands = await (await import('./session-commands')).setUpSessionCommands({
    projectRoot: cwd,
    env: sessionEnv,
    sessionId: session.sessionId,
    trusted: trust.trusted,
    bare: options.bare,
    settings: merged,
    // Their command and skill folders, and the single files and skill folders their manifests list.
    plugins: plugins.plugins,
    ...(options.onlySkills ? { onlySkills: options.onlySkills } : {}),
    contextWindow: models.catalog.contextWindow(selection.model),
    pipeline: () => ({ canUseTool: permissions.canUseTool, hooks }),
    ...(mcp.manager ? { mcp: mcp.manager } : {}),
    ...(hooksOff ? {} : { liveHooks }),
  });
  const notify = (n: ToolNotification) => (n.level === 'info' ? log.debug(n.message) : log.warn(n.message));
  // Owned by the engine from here on: its close() disposes them. One cost tracker for every
  // request, and one side-call client (compaction summaries, WebFetch, the classifier) on the
  // session's provider, base URL and keys.
  const protectedPaths = await sessionProtectedPaths({
    settingsSources: settings.loaded.sources,
    cliSettings: options.settings,
    cwd,
    env,
  });
  let permissionContext: ToolPermissionContext | undefined;
  const sandbox = createSessionSandbox({
    settingsSources: settings.loaded.sources,
    flag: options.sandbox,
    projectRoot: cwd,
    home: sessionEnv.HOME || homedir(),
    additionalDirs: () => (permissionContext?.additionalDirectories ?? []).map((dir) => resolve(cwd, dir)),
    rules: () => permissionContext?.rules ?? [],
    protectedPaths,
  });
  const services = new SessionServices({
    env: sessionEnv,
    sandbox: sandbox.manager,
    settings: toolSettings(applied, sessionEnv),
    models: models.catalog,
    gitConfig,
    lsp: {
      trusted: trust.trusted,
      settings: lspSettings(applied),
      confine: confineLanguageServers(sandbox.manager),
    },
    ...(mcp.manager ? { mcp: mcp.manager } : {}),
    backgroundAgents: backgroundAgentOptions(applied.backgroundAgents),
    skills: commands.skills,
    sideCalls: {
      provider: selection.provider,
      fastModel: () => fast.model ?? engine?.currentModel ?? selection.model,
      onRetry: (retry) => {
        for (const notice of sideCallRetryNotices(retry)) notify(notice);
      },
    },
  });
  isolation.attach(services);
  coordinator.attach(services);
  const transcript = options.sessionPersistence
    ? new (await import('../session/transcript-writer')).TranscriptWriter({
        path: session.transcriptPath,
        sessionId: session.sessionId,
        cwd,
        parentUuid: session.parentUuid,
        entrypoint: sessionEnv.CLAUDE_CODE_ENTRYPOINT ? 'sdk-cli' : 'cli',
      })
    : undefined;

  const hookFrames = new HookFrameQueue(options.includeHookEvents);
  const hooks = await sessionHooks(
    options,
    liveHooks.settings,
    sessionEnv,
    cwd,
    {
      sessionId: session.sessionId,
      transcriptPath: session.transcriptPath,
      engine: () => engine,
      agentHooks: agents.hasScopedHooks,
    },
    (text, level) => (level === 'debug' ? log.debug(text) : log.warn(text)),
    hookFrames.push,
    !hooksOff && commands.skills.specs.some((spec) => spec.hooks !== undefined),
  );
  const permissions = createPermissionSetup({
    // `--agent`'s mode applies unless a flag chose one.
    options:
      mainAgent?.permissionMode && requestedPermissionMode(options) === undefined
        ? { ...options, permissionMode: mainAgent.permissionMode }
        : options,
    settingsSources: settings.loaded.sources,
    projectTrusted: trust.trusted,
    protectedPaths,
    sandbox: sandbox.manager,
    cwd,
    env: sessionEnv,
    permissionPrompt: options.permissionPrompt,
    permissionRequestHook: ({ input, signal, ...call }) =>
      hooks.permissionRequest({ ...call, toolInput: input }, signal),
    sideCalls: services.sideCalls,
    gitConfig,
  });
  // Coordinator mode: the scratchpad in the permission context, the main loop's pool and prompt.
  permissions.permissionContext = coordinator.permissionContext(permissions.permissionContext);
  permissionContext = permissions.permissionContext;
  const sandboxNotice = await sandboxStartNotice(sandbox.manager);
  const builtins = [
    ...createBuiltinTools({ canAskUser: options.permissionPrompt !== undefined }),
    agents.tool,
    ...WORKTREE_TOOLS,
    sendMessageTool,
  ];
  // One assembly for every pool of the session: the first, each mode's (EnterPlanMode,
  // ExitPlanMode, set_permission_mode) and each turn's with the MCP tools connected by then.
  const assemble = (permissionContext: ToolPermissionContext, extraTools: readonly AnyTool[]) => {
    const selected = selectSessionTools(permissionContext, options.tools, builtins, extraTools, sessionEnv);
    return mainAgent ? { ...selected, tools: mainAgent.pool(selected.tools) } : selected;
  };
  const selected = assemble(permissions.permissionContext, options.extraTools ?? []);
  const tools = selected.tools;
  const livePool = mcp.manager
    ? await liveMcpPool(
        mcp.manager,
        (permissionContext, mcpTools) =>
          assemble(permissionContext, [...(options.extraTools ?? []), ...mcpTools]).tools,
        {
          ...options.initExtras,
          slash_commands: [
            ...commands.initExtras.slash_commands,
            ...(options.initExtras?.slash_commands ?? []),
          ],
        },
      )
    : undefined;
  // Said once on stderr by the caller, and in every `system/init` for an SDK host.
  const warnings = [
    ...settings.warnings,
    ...trustWarnings,
    ...selection.warnings,
    ...fast.warnings,
    ...models.warnings,
    ...session.warnings,
    ...permissions.warnings,
    ...sandbox.warnings,
    ...(sandboxNotice ? [sandboxNotice] : []),
    ...selected.warnings,
    ...toolSearchWarnings(
      applied.toolSearch,
      sessionEnv,
      builtins.map((tool) => tool.name),
    ),
    ...mcp.problems,
    ...agents.warnings,
    ...plugins.problems,
    ...commands.warnings,
  ];

  const environment = environmentFacts(
    cwd,
    selection.model,
    await gitFacts,
    permissions.permissionContext.additionalDirectories,
  );
  engine = new QueryEngine({
    cwd,
    provider: selection.provider,
    model: selection.model,
    fallback: selection.fallbackModel
      ? { provider: selection.provider, model: selection.fallbackModel }
      : undefined,
    services,
    ...coordinator.mainPools({
      tools,
      // A mode switch (EnterPlanMode, ExitPlanMode, set_permission_mode) gets that mode's pool.
      toolsForMode: (permissionContext: ToolPermissionContext) =>
        assemble(permissionContext, options.extraTools ?? []).tools,
      ...(livePool ? { livePool } : {}),
    }),
    canUseTool: permissions.canUseTool,
    hooks,
    permissionContext: permissions.permissionContext,
    customSystemPrompt:
      options.systemPromptOverride ??
      options.systemPrompt ??
      mainAgent?.systemPrompt ??
      coordinator.systemPrompt,
    appendSystemPrompt: options.appendSystemPrompt,
    memory,
    environment,
    nestedMemory: options.bare
      ? undefined
      : {
          projectRoot: cwd,
          env: sessionEnv,
          alreadyLoaded: memory.map((file) => file.path),
          sources: memorySources,
        },
    maxTurns: options.maxTurns,
    stopHookBlockCap: merged.stopHookBlockCap,
    maxBudgetUsd: options.maxBudgetUsd,
    taskBudget: options.taskBudget === undefined ? undefined : { total: options.taskBudget },
    jsonSchema: options.jsonSchema,
    thinking: thinkingConfig(options),
    includePartialMessages: options.includePartialMessages,
    hookFrames,
    apiKeySource: apiKeySource(selection, sessionEnv),
    initExtras: {
      ...commands.initExtras,
      ...options.initExtras,
      agents: agents.names(),
      plugins: [...(options.initExtras?.plugins ?? []), ...plugins.initPlugins],
      warnings: [...(options.initExtras?.warnings ?? []), ...warnings],
    },
    ...commands.engineConfig({
      options,
      env: sessionEnv,
      cwd,
      engine: () => engine as QueryEngineType,
      selection,
      settingsErrors: settings.loaded.errors.map((e) => e.message),
      warnings,
      toolAvailability: selected.availability,
    }),
    env: sessionEnv,
    sessionId: session.sessionId,
    // Not kept: the engine uses a temp folder and removes it when the session ends.
    sessionDir: options.sessionPersistence ? join(projectDir(sessionEnv, cwd), session.sessionId) : undefined,
    initialMessages: session.messages,
    transcript,
    contextManagement: {
      ...commands.essentials,
      autoCompact: autoCompactEnabled(options, settings.loaded),
      ...contextStages(settings.loaded),
      ...(merged.autoCompactThreshold !== undefined
        ? { autoCompactThreshold: merged.autoCompactThreshold }
        : {}),
    },
    onNotification: notify,
  });
  agents.attach(services, {
    provider: selection.provider,
    providerName: selection.providerName,
    ...(selection.fallbackModel
      ? { fallback: { provider: selection.provider, model: selection.fallbackModel } }
      : {}),
    canUseTool: permissions.canUseTool,
    // The pool of the worker's own mode, with the MCP tools connected by the time it asks.
    toolsFor: (permissionContext) =>
      livePool?.tools(permissionContext) ?? assemble(permissionContext, options.extraTools ?? []).tools,
    environment,
    memory,
    hooks,
    sessionId: session.sessionId,
    persisted: options.sessionPersistence,
    ...(options.maxBudgetUsd === undefined ? {} : { maxBudgetUsd: options.maxBudgetUsd }),
    background: backgroundAgents,
  });
  return {
    engine,
    agents: agents.summaries(),
    commands,
    selection,
    tools,
    mcp: mcp.manager,
    permissionContext: permissions.permissionContext,
    warnings: [...warnings, ...selected.availability.map(describeAvailabilityProblem)],
    toolAvailability: selected.availability,
    protectedPaths,
    settings,
    plugins: plugins.plugins,
  };
}
