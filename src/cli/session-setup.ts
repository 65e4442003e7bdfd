/**
 * The composition root of a headless session: model, tools, permissions, hooks and the
 * QueryEngine, from parsed options. `yoke -p` and the stream-json protocol both start here; the
 * protocol adds what the SDK host supplies (permission prompt, hook callbacks, in-process tools,
 * system prompt, JSON schema, agents from `initialize`). Each step's details live in a
 * `session-*.ts` helper; this file keeps their order, which is what makes the first request early.
 */
import { join } from 'node:path';
import { backgroundAgents } from '../agents/background/launch';
import { startCoordinator } from '../agents/coordinator/coordinator-mode';
import { environmentFacts } from '../engine/environment';
import { sessionEffort } from '../model/effort';
import type { ToolPermissionContext } from '../permissions/types';
import { projectDir } from '../session/transcript-paths';
import { describeAvailabilityProblem } from '../tools/availability';
import type { ToolNotification } from '../tools/context';
import { applySessionSettings } from './session-applied-settings';
import {
  apiKeySource,
  contextManagement,
  contextSettings,
  nestedMemory,
  runLimits,
  sessionTranscript,
} from './session-engine-config';
import { loadPluginsForSession, startAgentsLoad } from './session-extensions';
import { startSessionGit } from './session-git';
import { growingSessionHooks, sessionHooks } from './session-hooks';
import { startSessionMcp } from './session-mcp';
import { startMemoryLoad } from './session-memory';
import { chooseSessionModel, sessionModels } from './session-models';
import { loadSessionModules } from './session-modules';
import {
  checkAddDirs,
  createPermissionSetup,
  requestedPermissionMode,
  sessionProtectedPaths,
} from './session-permissions';
import { createSessionPools } from './session-pools';
import { sessionReload } from './session-reload';
import { sandboxStartNotice } from './session-sandbox';
import { createSessionServices } from './session-services';
import type { Env } from './session-settings';
import type { SessionLog, SessionSetup, SessionSetupOptions } from './session-types';
import { sessionWarnings } from './session-warnings';
import { startSessionWorktree } from './session-worktree-start';
import { checkAvailableFeatures } from './unavailable';

export type { SdkHooks, SessionLog, SessionSetup, SessionSetupOptions } from './session-types';
export type { Env };

type QueryEngineType = import('../engine/query-engine').QueryEngine;

const silentLog: SessionLog = { warn: () => {}, debug: () => {} };

export async function createSessionEngine(
  options: SessionSetupOptions,
  env: Env,
  cwd: string,
  log: SessionLog = silentLog,
): Promise<SessionSetup> {
  checkAvailableFeatures(options);
  checkAddDirs(options.addDirs, cwd);
  // `--worktree`: the session runs in a new worktree (git's, or a WorktreeCreate hook's), so
  // everything below reads its cwd.
  const isolation = await startSessionWorktree(options, cwd, env, log);
  cwd = isolation.cwd;
  // Everything on the way to the first model request starts at once: git (for the system
  // prompt), the settings files, and the big modules, so their waits overlap.
  const git = startSessionGit(cwd, env);
  const modules = loadSessionModules();
  const { settings, trust, applied, sessionEnv, trustWarnings } = await applySessionSettings(
    options,
    env,
    cwd,
  );
  const merged = settings.loaded.merged;
  // The protected files' link targets are looked up while plugins, agents, the model and the
  // commands load; the services await them.
  const protectedPathsLoad = sessionProtectedPaths({
    settingsSources: settings.loaded.sources,
    cliSettings: options.settings,
    cwd,
    env,
  });
  protectedPathsLoad.catch(() => {});
  const extensionsInput = {
    options,
    cwd,
    env: sessionEnv,
    settingsSources: settings.loaded.sources,
    trusted: trust.trusted,
  };
  const { plugins } = await loadPluginsForSession(extensionsInput, applied.hooks);
  const agentsLoad = startAgentsLoad(extensionsInput, plugins);
  // Awaited further down; a failure is reported there, not as an unhandled rejection meanwhile.
  agentsLoad.catch(() => {});
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
  const { selectModel, QueryEngine, sessionBuiltins, resolveSession, memoryFiles, HookFrameQueue } =
    await modules;
  const { loading: memoryPromise, denied: memoryDenied } = startMemoryLoad({
    options,
    settingsRules: settings.loaded.rules,
    cwd,
    env: sessionEnv,
    trusted: trust.trusted,
    memoryFiles,
    warn: (line) => log.warn(line),
  });
  const { main, selection, fast } = await chooseSessionModel({
    options,
    merged,
    applied,
    agents: agentsLoad,
    selectModel,
    env: sessionEnv,
  });
  // The first request's connection (DNS, TCP, TLS) opens now, beside the rest of the set-up and,
  // in the REPL, while the user types the first prompt.
  selection.provider.preconnect?.();
  const mainAgent = main.agent;

  const [session, memory, models] = await Promise.all([
    resolveSession({
      cwd,
      env: sessionEnv,
      resume: options.resume,
      continue: options.continue,
      forkSession: options.forkSession,
      resumeSessionAt: options.resumeSessionAt,
      sessionId: options.sessionId,
      ...(isolation.freshSessionId ? { freshSessionId: isolation.freshSessionId } : {}),
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
  const liveHooks = new (await import('../skills/skill-hooks')).LiveHooks(applied.hooks, plugins.hooks);
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
    mcp: mcp.slot,
    ...(hooksOff ? {} : { liveHooks }),
  });
  const agents = await agentsLoad;
  const notify = (n: ToolNotification) => (n.level === 'info' ? log.debug(n.message) : log.warn(n.message));
  let permissionContext: ToolPermissionContext | undefined;
  const { services, sandbox, protectedPaths } = await createSessionServices({
    settingsSources: settings.loaded.sources,
    protectedPaths: protectedPathsLoad,
    sandboxFlag: options.sandbox,
    applied,
    cwd,
    sessionEnv,
    trusted: trust.trusted,
    models: models.catalog,
    gitConfig,
    mcp: mcp.slot,
    skills: commands.skills,
    provider: selection.provider,
    fastModel: () => fast.model ?? engine?.currentModel ?? selection.model,
    notify,
    permissionContext: () => permissionContext,
  });
  isolation.attach(services);
  coordinator.attach(services);
  const transcript = await sessionTranscript(options, session, cwd, sessionEnv);

  const hookFrames = new HookFrameQueue(options.includeHookEvents);
  // A reload may bring the first plugin hooks: the runner everyone holds can then grow a real one.
  const { runner: hooks, ensureRunner } = await growingSessionHooks(
    (mayGrow) =>
      sessionHooks(
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
        mayGrow,
      ),
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
    copies: services.copies,
    report: (line) => log.warn(line),
  });
  // Coordinator mode: the scratchpad in the permission context, the main loop's pool and prompt.
  permissions.permissionContext = coordinator.permissionContext(permissions.permissionContext);
  permissionContext = permissions.permissionContext;
  const sandboxNotice = await sandboxStartNotice(sandbox.manager);
  const builtins = sessionBuiltins({ canAskUser: options.permissionPrompt !== undefined }, agents.tool);
  const pools = await createSessionPools({
    options,
    env: sessionEnv,
    builtins,
    mainAgent,
    permissionContext: permissions.permissionContext,
    mcp: mcp.slot,
    slashCommands: commands.initExtras.slash_commands,
  });
  const { selected, livePool } = pools;
  const tools = selected.tools;
  const warnings = sessionWarnings({
    settings,
    trust: trustWarnings,
    selection,
    fast,
    models,
    session,
    permissions,
    rules: permissions.permissionContext.rules,
    builtins,
    sandbox,
    sandboxNotice,
    selected,
    toolSearch: applied.toolSearch,
    env: sessionEnv,
    mcpProblems: mcp.problems,
    agents,
    mainAgent: main,
    pluginProblems: plugins.problems,
    commands,
  });

  // `system/init`'s lists, which a plugin reload changes in place.
  const initAgents = agents.names();
  const initPlugins = [...(options.initExtras?.plugins ?? []), ...plugins.initPlugins];
  const environment = environmentFacts(
    cwd,
    selection.model,
    await gitFacts,
    permissions.permissionContext.additionalDirectories,
  );
  const context = contextSettings(options, settings);
  const effort = sessionEffort({
    flag: options.effort,
    agent: mainAgent?.definition.effort,
    setting: merged.effortLevel,
  });
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
      toolsForMode: pools.forMode,
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
    nestedMemory: nestedMemory(options, cwd, sessionEnv, memory, {
      trusted: trust.trusted,
      denied: memoryDenied,
    }),
    ...runLimits(options, merged),
    ...(effort ? { effort } : {}),
    hookFrames,
    apiKeySource: apiKeySource(selection, sessionEnv),
    initExtras: {
      ...commands.initExtras,
      ...options.initExtras,
      agents: initAgents,
      plugins: initPlugins,
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
    contextManagement: contextManagement(context, commands.essentials),
    onNotification: notify,
    letInputIn: options.letInputIn,
    toolStartFrames: options.toolStartFrames,
  });
  agents.attach(services, {
    provider: selection.provider,
    providerName: selection.providerName,
    ...(selection.fallbackModel
      ? { fallback: { provider: selection.provider, model: selection.fallbackModel } }
      : {}),
    canUseTool: permissions.canUseTool,
    toolsFor: pools.forWorker,
    environment,
    memory,
    context,
    ...(merged.worktree ? { worktree: merged.worktree } : {}),
    hooks,
    sessionId: session.sessionId,
    persisted: options.sessionPersistence,
    ...(options.maxBudgetUsd === undefined ? {} : { maxBudgetUsd: options.maxBudgetUsd }),
    background: backgroundAgents,
    letInputIn: options.letInputIn,
  });
  return {
    engine,
    agents: agents.summaries(),
    commands,
    selection,
    tools,
    // Read when asked: a plugin reload may make the first manager.
    get mcp() {
      return mcp.slot.manager;
    },
    whenMcp: (adopt) => void mcp.slot.whenPresent(adopt),
    permissionContext: permissions.permissionContext,
    warnings: [...warnings, ...selected.availability.map(describeAvailabilityProblem)],
    toolAvailability: selected.availability,
    protectedPaths,
    settings,
    plugins: plugins.plugins,
    reload: sessionReload({
      extensions: extensionsInput,
      settingsHooks: applied.hooks,
      commands,
      agents,
      plugins,
      log,
      hooks: { live: liveHooks, ensureRunner },
      mcp: mcp.slot,
      sessionStarted: () => engine?.sessionStarted ?? false,
      init: { agents: initAgents, plugins: initPlugins, hostPlugins: options.initExtras?.plugins ?? [] },
    }),
    ...(mainAgent?.definition.initialPrompt ? { initialPrompt: mainAgent.definition.initialPrompt } : {}),
    ...(session.earlierSpend ? { earlierSpend: session.earlierSpend } : {}),
  };
}
