/**
 * The hook runner the engine and tool runner call (`HookRunner`), backed by settings command
 * hooks and SDK callbacks. All matching hooks of an event run in parallel; their verdicts are
 * combined, and every failure is reported through `onMessage` instead of passing silently.
 */
import { randomUUID } from 'node:crypto';
import type { HooksSettings } from '../config/settings-schema';
import type { EffortLevel } from '../model/effort';
import type { RuleCallRoots } from '../permissions/rule-matches-call';
import type { PermissionMode, ToolAccess } from '../permissions/types';
import { combineVerdicts, emptyHookRunResult, type HookRunResult } from './combine';
import { executeHook } from './execute';
import { postLike, responseOf, toPermissionDecision, withBlocking } from './hook-outcomes';
import { matchTargetFor } from './matcher';
import { permissionRequestDecision } from './permission-request';
import { CONDITIONAL_EVENTS, type PlannedToolCall, planHooks } from './plan';
import { withScopedHooks } from './scoped-hooks';
import type {
  AgentHookScope,
  HookCallbackInvoker,
  HookEvent,
  HookLifecycle,
  HookPayload,
  HookRunner,
  PermissionRequestHookInput,
  PreSkillShellCommandOutcome,
  PreToolUseOutcome,
  SdkHookMatcher,
  SessionStartOutcome,
  StopOutcome,
  SubagentStartOutcome,
  ToolHookInput,
  UserPromptExpansionOutcome,
  UserPromptSubmitOutcome,
} from './types';
import { worktreeCreateOutcome, worktreeRemoveOutcome } from './worktree-hooks';

export type HookMessageLevel = 'debug' | 'info' | 'warning' | 'error';

/** The `BaseHookInput` fields every hook receives (compat-surface §2.3). */
export type BaseHookFields = {
  session_id: string;
  transcript_path: string;
  cwd: string;
  permission_mode: string;
};

export type HookRunnerOptions = {
  settingsHooks: HooksSettings | undefined;
  sdkHooks?: { matchers: SdkHookMatcher[]; invoke: HookCallbackInvoker };
  base: () => BaseHookFields;
  /** The environment hook processes inherit (usually process.env plus settings `env`). */
  env: Record<string, string | undefined>;
  /** `CLAUDE_PROJECT_DIR` / `YOKE_PROJECT_DIR`; defaults to the session cwd at each call. */
  projectDir?: string;
  onMessage?: (text: string, level: HookMessageLevel) => void;
  /** Told when each hook starts and what it answered (stream-json's hook frames). */
  onLifecycle?: (event: HookLifecycle) => void;
  /** The worker this runner speaks for (`forAgent`); the main thread's runner has none. */
  agent?: AgentHookScope;
  /**
   * The worker's own hooks (its definition's, then a nested worker's), added after
   * `settingsHooks` at each event rather than once: the session's hooks are changed in place
   * (a plugin reload), and a worker that runs on must see the change at its next event.
   */
  agentHooks?: readonly HooksSettings[];
};

export type RunHooksExtra = {
  toolUseId?: string;
  env?: Record<string, string>;
  /** The tool call's own working directory: the hook's `cwd` and the root of `if` paths. */
  cwd?: string;
  /** The tool call's own permission mode: the hook's `permission_mode`. */
  permissionMode?: PermissionMode;
  /** What the call's tool touches, for `if` conditions (a tool event without it: `none`). */
  access?: ToolAccess;
  /** The effort of the loop the event belongs to (tool-context events: compat-surface §2.3). */
  effort?: EffortLevel | undefined;
};

export type YokeHookRunner = HookRunner &
  Required<Pick<HookRunner, 'subagentStart' | 'forAgent' | 'worktreeCreate' | 'worktreeRemove'>> & {
    /** Runs one event's hooks and returns the combined result, for events with richer outputs. */
    runHooks<E extends HookEvent>(
      event: E,
      payload: HookPayload<E>,
      matchTarget: string | undefined,
      signal: AbortSignal,
      extra?: RunHooksExtra,
    ): Promise<HookRunResult>;
  };

/** Events that fire outside a permission context carry no `permission_mode` (compat-surface §2.3). */
const NO_PERMISSION_MODE: ReadonlySet<HookEvent> = new Set(['SessionStart', 'SessionEnd']);

export function createHookRunner(options: HookRunnerOptions): YokeHookRunner {
  const report = options.onMessage ?? (() => {});
  const reportedProblems = new Set<string>();

  async function runHooks<E extends HookEvent>(
    event: E,
    payload: HookPayload<E>,
    matchTarget: string | undefined,
    signal: AbortSignal,
    extra: RunHooksExtra = {},
  ): Promise<HookRunResult> {
    const { permission_mode: sessionMode, ...session } = options.base();
    const base = extra.cwd === undefined ? session : { ...session, cwd: extra.cwd };
    const permission_mode = extra.permissionMode ?? sessionMode;
    const projectDir = options.projectDir ?? session.cwd;
    const { hooks, problems } = await planHooks(
      event,
      matchTarget,
      (options.agentHooks ?? []).reduce(withScopedHooks, options.settingsHooks),
      options.sdkHooks?.matchers ?? [],
      toolCallOf(event, payload, extra.access ?? 'none', { cwd: base.cwd, projectRoot: projectDir }),
    );
    for (const problem of problems) {
      if (reportedProblems.has(problem.key)) continue;
      reportedProblems.add(problem.key);
      report(problem.message, 'warning');
    }
    if (hooks.length === 0) return emptyHookRunResult(event);

    const agent = options.agent;
    const input: Record<string, unknown> = {
      ...base,
      ...(NO_PERMISSION_MODE.has(event) ? {} : { permission_mode }),
      ...(agent ? { agent_id: agent.agentId, agent_type: agent.agentType } : {}),
      ...(extra.effort ? { effort: { level: extra.effort } } : {}),
      hook_event_name: event,
      ...payload,
    };
    const env = {
      ...options.env,
      CLAUDE_PROJECT_DIR: projectDir,
      YOKE_PROJECT_DIR: projectDir,
      CLAUDE_CODE_SESSION_ID: base.session_id,
      YOKE_SESSION_ID: base.session_id,
      CLAUDECODE: '1',
      ...(extra.effort ? { CLAUDE_EFFORT: extra.effort } : {}),
      ...extra.env,
    };
    const label = matchTarget === undefined ? event : `${event}:${matchTarget}`;
    const ctx = { event, label, input, cwd: base.cwd, env, signal };
    const lifecycle = options.onLifecycle;
    const verdicts = await Promise.all(
      hooks.map(async (hook) => {
        const hookId = randomUUID();
        lifecycle?.({ phase: 'started', hookId, hookName: label, hookEvent: event });
        const execution = await executeHook(hook, {
          ...ctx,
          ...(extra.toolUseId === undefined ? {} : { toolUseId: extra.toolUseId }),
          ...(options.sdkHooks ? { invoke: options.sdkHooks.invoke } : {}),
        });
        lifecycle?.(responseOf(execution, { hookId, hookName: label, hookEvent: event }));
        return execution.verdict;
      }),
    );
    const result = combineVerdicts(event, label, verdicts);
    for (const verdict of verdicts) if (verdict.debug) report(verdict.debug, 'debug');
    for (const error of result.errors) report(error, 'warning');
    return result;
  }

  const toolPayload = (input: ToolHookInput): HookPayload<'PreToolUse'> => ({
    tool_name: input.toolName,
    tool_input: input.toolInput,
    tool_use_id: input.toolUseId,
  });
  const toolExtra = (input: ToolHookInput | PermissionRequestHookInput): RunHooksExtra => ({
    access: input.access,
    ...('toolUseId' in input ? { toolUseId: input.toolUseId } : {}),
    ...(input.cwd === undefined ? {} : { cwd: input.cwd }),
    ...(input.permissionMode === undefined ? {} : { permissionMode: input.permissionMode }),
    ...(input.effort === undefined ? {} : { effort: input.effort }),
  });

  return {
    runHooks,

    async preToolUse(input, signal) {
      const result = await runHooks(
        'PreToolUse',
        toolPayload(input),
        input.toolName,
        signal,
        toolExtra(input),
      );
      const outcome: PreToolUseOutcome = postLike(result);
      const decision = toPermissionDecision(result, `PreToolUse:${input.toolName}`);
      if (decision) outcome.permissionDecision = decision;
      if (result.updatedInput) outcome.updatedInput = result.updatedInput;
      return outcome;
    },

    async postToolUse(input, signal) {
      const payload = { ...toolPayload(input), tool_response: input.toolResponse };
      const result = await runHooks('PostToolUse', payload, input.toolName, signal, toolExtra(input));
      return withBlocking(postLike(result), result);
    },

    async postToolUseFailure(input, signal) {
      const payload = { ...toolPayload(input), error: input.error };
      const result = await runHooks('PostToolUseFailure', payload, input.toolName, signal, toolExtra(input));
      return withBlocking(postLike(result), result);
    },

    async permissionRequest(input, signal) {
      const payload = {
        tool_name: input.toolName,
        tool_input: input.toolInput,
        permission_suggestions: input.suggestions,
      };
      const result = await runHooks('PermissionRequest', payload, input.toolName, signal, toolExtra(input));
      return permissionRequestDecision(result);
    },

    async stop(input, signal) {
      const agent = options.agent;
      // A worker's end is its SubagentStop, which can send it back to work as Stop does.
      const result = agent
        ? await runHooks(
            'SubagentStop',
            {
              stop_hook_active: input.stopHookActive,
              agent_id: agent.agentId,
              agent_type: agent.agentType,
              agent_transcript_path: agent.transcriptPath,
              last_assistant_message: input.lastAssistantText,
            },
            agent.agentType,
            signal,
            { effort: input.effort },
          )
        : await runHooks(
            'Stop',
            { stop_hook_active: input.stopHookActive, last_assistant_message: input.lastAssistantText },
            undefined,
            signal,
            { effort: input.effort },
          );
      const outcome: StopOutcome = { blockingErrors: result.blockingErrors };
      if (result.preventContinuation) outcome.preventContinuation = result.preventContinuation;
      if (result.systemMessages.length > 0) outcome.systemMessages = result.systemMessages;
      return outcome;
    },

    async userPromptSubmit(input, signal) {
      const result = await runHooks('UserPromptSubmit', { prompt: input.prompt }, undefined, signal);
      const outcome: UserPromptSubmitOutcome = {};
      const reasons = [...result.blockingErrors];
      if (result.preventContinuation) reasons.push(result.preventContinuation.stopReason);
      if (reasons.length > 0) outcome.blocked = { reason: reasons.join('\n') };
      if (result.additionalContext.length > 0) outcome.additionalContext = result.additionalContext;
      if (result.systemMessages.length > 0) outcome.systemMessages = result.systemMessages;
      return outcome;
    },

    async userPromptExpansion(input, signal) {
      const result = await runHooks('UserPromptExpansion', input, input.command_name, signal);
      const outcome: UserPromptExpansionOutcome = {};
      const reasons = [...result.blockingErrors];
      if (result.preventContinuation) reasons.push(result.preventContinuation.stopReason);
      if (reasons.length > 0) outcome.blocked = { reason: reasons.join('\n') };
      if (result.additionalContext.length > 0) outcome.additionalContext = result.additionalContext;
      if (result.hookSpecificOutputs.some((specific) => specific.suppressOriginalPrompt === true))
        outcome.suppressOriginalPrompt = true;
      if (result.systemMessages.length > 0) outcome.systemMessages = result.systemMessages;
      return outcome;
    },

    async preSkillShellCommand(input, signal) {
      const label = `PreSkillShellCommand:${input.command_name}`;
      const result = await runHooks('PreSkillShellCommand', input, input.command_name, signal, {
        toolUseId: input.tool_use_id,
      });
      const outcome: PreSkillShellCommandOutcome = {};
      const verdict = result.permissionDecision;
      const reasons: string[] = [];
      // Only an allow lets the command on to the permission pipeline; there is no one to ask here.
      if (verdict && verdict.behavior !== 'allow')
        reasons.push(verdict.reason ?? `${label} hook "${verdict.hookName}" answered ${verdict.behavior}`);
      if (result.updatedInput)
        reasons.push(`${label} hook returned updatedInput; a skill's shell command cannot be rewritten`);
      if (result.preventContinuation) reasons.push(result.preventContinuation.stopReason);
      if (reasons.length > 0) outcome.blocked = { reason: reasons.join('\n') };
      if (result.systemMessages.length > 0) outcome.systemMessages = result.systemMessages;
      return outcome;
    },

    async sessionStart(input, signal) {
      const result = await runHooks('SessionStart', input, input.source, signal);
      const outcome: SessionStartOutcome = {};
      if (result.additionalContext.length > 0) outcome.additionalContext = result.additionalContext;
      if (result.systemMessages.length > 0) outcome.systemMessages = result.systemMessages;
      // SessionStart cannot block (compat-surface §2.4); a blocking answer is still shown.
      for (const error of result.blockingErrors) report(`SessionStart hook error: ${error}`, 'warning');
      return outcome;
    },

    async subagentStart(input, signal) {
      const payload = { agent_id: input.agentId, agent_type: input.agentType };
      const result = await runHooks('SubagentStart', payload, input.agentType, signal);
      const outcome: SubagentStartOutcome = {};
      if (result.additionalContext.length > 0) outcome.additionalContext = result.additionalContext;
      if (result.systemMessages.length > 0) outcome.systemMessages = result.systemMessages;
      for (const error of result.blockingErrors) report(`SubagentStart hook error: ${error}`, 'warning');
      return outcome;
    },

    forAgent(scope, scopedHooks) {
      return createHookRunner({
        ...options,
        agent: scope,
        ...(scopedHooks ? { agentHooks: [...(options.agentHooks ?? []), scopedHooks] } : {}),
      });
    },

    async worktreeCreate(input, signal) {
      return worktreeCreateOutcome(await runHooks('WorktreeCreate', { name: input.name }, undefined, signal));
    },

    async worktreeRemove(input, signal) {
      const result = await runHooks('WorktreeRemove', { worktree_path: input.path }, undefined, signal);
      return worktreeRemoveOutcome(result, input.path);
    },

    async notify(event, payload, signal) {
      const result = await runHooks(event, payload, matchTargetFor(event, payload), signal);
      for (const message of result.systemMessages) report(message, 'info');
      // These events cannot block; a blocking answer is still worth showing (compat-surface §2.4).
      for (const error of result.blockingErrors) report(`${event} hook error: ${error}`, 'warning');
    },
  };
}

/** The call a tool event's payload describes, for `if` conditions; none for other events. */
function toolCallOf<E extends HookEvent>(
  event: E,
  payload: HookPayload<E>,
  access: ToolAccess,
  roots: RuleCallRoots,
): PlannedToolCall | undefined {
  if (!CONDITIONAL_EVENTS.has(event) || !('tool_name' in payload)) return undefined;
  return { toolName: payload.tool_name, access, input: payload.tool_input, roots };
}
