/**
 * The composition root of a headless session: model, tools, permissions, hooks and the
 * QueryEngine, from parsed options. `yoke -p` and the stream-json protocol both start here; the
 * protocol adds what the SDK host supplies (permission prompt, hook callbacks, in-process tools,
 * system prompt, JSON schema, agents from `initialize`).
 */
import type { HookCallbackInvoker, HookRunner, SdkHookMatcher } from '../hooks/types';
import { noopHooks } from '../hooks/types';
import type { ModelSelection } from '../model/select';
import type { ThinkingConfig } from '../model/types';
import type { PermissionPrompt, ToolPermissionContext } from '../permissions/types';
import type { AnyTool } from '../tools/tool';
import type { CliOptions } from './cli-options';
import { createPermissionSetup } from './session-permissions';
import { selectSessionTools } from './session-tools';
import { checkAvailableFeatures } from './unavailable';

type QueryEngineType = import('../engine/query-engine').QueryEngine;

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
};

export type SessionSetup = {
  engine: QueryEngineType;
  selection: ModelSelection;
  /** The pool the model sees (before the engine adds StructuredOutput for a JSON schema). */
  tools: AnyTool[];
  permissionContext: ToolPermissionContext;
  /** Non-fatal problems with the options, one line each, for the caller to show. */
  warnings: string[];
};

export type Env = Record<string, string | undefined>;

/** `--max-thinking-tokens N` → enabled with that budget (0 → off); `--thinking` otherwise. */
export function thinkingConfig(
  options: Pick<CliOptions, 'thinking' | 'maxThinkingTokens'>,
): ThinkingConfig | undefined {
  if (options.thinking === 'disabled') return { type: 'disabled' };
  if (options.maxThinkingTokens !== undefined) {
    return options.maxThinkingTokens === 0
      ? { type: 'disabled' }
      : { type: 'enabled', budgetTokens: options.maxThinkingTokens };
  }
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
 * SDK callback hooks run through the hook runner; `engine` is read lazily because the hook input
 * carries its session id and live permission mode. Settings-defined command hooks are not loaded here.
 */
async function sessionHooks(
  options: SessionSetupOptions,
  env: Env,
  cwd: string,
  engine: () => QueryEngineType | undefined,
): Promise<HookRunner> {
  if (!options.sdkHooks || options.sdkHooks.matchers.length === 0) return noopHooks;
  const { createHookRunner } = await import('../hooks/runner');
  return createHookRunner({
    settingsHooks: undefined,
    sdkHooks: { matchers: [...options.sdkHooks.matchers], invoke: options.sdkHooks.invoke },
    base: () => ({
      session_id: engine()?.sessionId ?? '',
      transcript_path: '',
      cwd,
      permission_mode: engine()?.permissionMode ?? options.permissionMode ?? 'default',
    }),
    env,
  });
}

export async function createSessionEngine(
  options: SessionSetupOptions,
  env: Env,
  cwd: string,
): Promise<SessionSetup> {
  checkAvailableFeatures(options);
  const [{ selectModel }, { QueryEngine }, { registerCoreTools }] = await Promise.all([
    import('../model/select'),
    import('../engine/query-engine'),
    import('../tools/builtin'),
  ]);
  const selection = await selectModel({
    model: options.model,
    provider: options.provider,
    fallbackModel: options.fallbackModel,
    env,
  });
  registerCoreTools();

  let engine: QueryEngineType | undefined;
  const hooks = await sessionHooks(options, env, cwd, () => engine);
  const permissions = createPermissionSetup(
    options,
    cwd,
    () => engine?.permissionMode ?? permissions.permissionContext.mode,
    options.permissionPrompt,
  );
  const { tools, warnings: toolWarnings } = selectSessionTools(
    permissions.permissionContext,
    options.tools,
    options.extraTools,
  );

  engine = new QueryEngine({
    cwd,
    provider: selection.provider,
    model: selection.model,
    fallback: selection.fallbackModel
      ? { provider: selection.provider, model: selection.fallbackModel }
      : undefined,
    tools,
    canUseTool: permissions.canUseTool,
    hooks,
    permissionContext: permissions.permissionContext,
    customSystemPrompt: options.systemPromptOverride ?? options.systemPrompt,
    appendSystemPrompt: options.appendSystemPrompt,
    maxTurns: options.maxTurns,
    maxBudgetUsd: options.maxBudgetUsd,
    taskBudget: options.taskBudget === undefined ? undefined : { total: options.taskBudget },
    jsonSchema: options.jsonSchema,
    thinking: thinkingConfig(options),
    includePartialMessages: options.includePartialMessages,
    apiKeySource: apiKeySource(selection, env),
    env,
  });
  return {
    engine,
    selection,
    tools,
    permissionContext: permissions.permissionContext,
    warnings: [...permissions.warnings, ...toolWarnings],
  };
}
