/**
 * The permission decision (seed 001 step 4c): one function that owns the five levels in order —
 * the PreToolUse hook's decision (with the tool's own check), policy rules, the other rules
 * (settings, CLI flags, session), the permission mode, and finally a prompt — or, with nobody to
 * ask, a denial that names the rule to add. Deny always wins over allow, and a policy deny over
 * everything; a hook `allow` skips the prompt but no deny rule.
 *
 * Everything about the call comes in the request, read from the call's own context (its cwd,
 * project root, permission context and conversation). What lives here belongs to the session:
 * the rules an "always allow" added, the caches of folder walks and git checks, and whom to ask.
 */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { SavedRuleDestination } from '../lib/permission-vocabulary';
import { lastUserPromptText } from '../session/messages';
import {
  type AutoClassifier,
  CLASSIFIER_TIMEOUT_MS,
  type ClassifierRequest,
  classifySafely,
  startSpeculativeClassification,
} from './classifier';
import type { Evaluation, EvaluationEnv } from './evaluation';
import { FolderWalks } from './folder-walks';
import { GitConfigSafety } from './git-config-safety';
import { checkMcpFolderReads } from './mcp-folder-reads';
import { askMessage, callLabel, destructiveWarning, headlessDenyMessage, planModeMessage } from './messages';
import { defaultProtectedPaths, type ProtectedPaths } from './protected-paths';
import { diskPathFs, type PathFs, RealPaths } from './real-paths';
import { parseRule } from './rule-string';
import { evaluateTool } from './tool-rules';
import type {
  CanUseToolFn,
  CanUseToolRequest,
  DecisionReason,
  PermissionCallContext,
  PermissionDecision,
  PermissionPrompt,
  PermissionRequestHook,
  PermissionRule,
  PermissionTool,
  ShellSandboxJudge,
} from './types';
import { type KnownCopies, withWorktreeCopies } from './worktree-copies';

export type CreateCanUseToolOptions = {
  home?: string;
  /** The files whose writes always ask; the user folders under `home` when absent. */
  protectedPaths?: ProtectedPaths;
  /** Level 5; without it every `ask` becomes a denial that says which rule to add. */
  prompt?: PermissionPrompt;
  /** The `auto` mode classifier; without it `auto` behaves like `default`. */
  classifier?: AutoClassifier;
  classifierTimeoutMs?: number;
  /** Asked before anyone is prompted; a decision it returns is final. */
  permissionRequestHook?: PermissionRequestHook;
  /** Called for each rule an "always allow" answer adds (e.g. to show or persist it). */
  onSessionRule?: (rule: PermissionRule) => void;
  /**
   * Saves the rules a "don't ask again" answer added in the settings file it names, for later
   * sessions; the answer's decision stands whether or not that works.
   */
  saveRules?: (rules: readonly string[], destination: SavedRuleDestination) => Promise<void>;
  /** Where symlinks are resolved and folders listed (default: the disk; tests pass a fake). */
  fs?: PathFs;
  /** Checks git repositories' own configuration; one per session (it caches per directory). */
  gitConfig?: GitConfigSafety;
  /** The session's shell sandbox: sandboxed calls may skip the prompt, leaving it always asks. */
  sandbox?: ShellSandboxJudge;
  /** The session's known copies of the project (a WorktreeCreate hook's), for the rules' twins. */
  copies?: KnownCopies;
};

type Allow = Extract<PermissionDecision, { behavior: 'allow' }>;
type Ask = { evaluation: Evaluation; hard: boolean; note?: string; reason?: DecisionReason };

const deny = (message: string, decisionReason: DecisionReason): PermissionDecision => ({
  behavior: 'deny',
  message,
  decisionReason,
});

export function createCanUseTool(options: CreateCanUseToolOptions = {}): CanUseToolFn {
  const sessionRules: PermissionRule[] = [];
  // Folders walked for recursive searches, kept while one model reply's calls are decided.
  const walks = new FolderWalks();
  const gitConfig = options.gitConfig ?? new GitConfigSafety();
  const home = options.home ?? homedir();
  const protection = options.protectedPaths ?? defaultProtectedPaths(home);
  const classifierTimeoutMs = options.classifierTimeoutMs ?? CLASSIFIER_TIMEOUT_MS;

  const classifierRequest = (
    tool: PermissionTool,
    input: Record<string, unknown>,
    context: PermissionCallContext,
    signal: AbortSignal,
  ): ClassifierRequest => ({
    toolName: tool.name,
    action: tool.toAutoClassifierInput(input) || JSON.stringify(input),
    userRequest: lastUserPromptText(context.messages),
    signal,
  });

  async function evaluate(request: CanUseToolRequest): Promise<Evaluation> {
    const { tool, input } = request;
    const { cwd, projectRoot, permissionContext } = request.context;
    walks.beginTurn(request.assistantMessage?.uuid);
    // A call that may write can change the walked folders before the next search.
    if (!request.isReadOnly) walks.forget();
    // Rules added later (an "always allow", the SDK) are held to managed policy's switch too.
    // In a git worktree, absolute deny and ask rules hold for its copies too (worktree-copies.ts).
    const rules = withWorktreeCopies(
      [...permissionContext.rules, ...sessionRules].filter(
        (rule) =>
          !permissionContext.managedRulesOnly ||
          rule.behavior !== 'allow' ||
          rule.source === 'policySettings',
      ),
      { projectRoot, home, ...(options.copies ? { copies: options.copies } : {}) },
    );
    const env: EvaluationEnv = {
      rules,
      roots: { projectRoot, cwd, home },
      workingDirs: [projectRoot, ...permissionContext.additionalDirectories.map((d) => resolve(cwd, d))],
      scratchpadDirs: permissionContext.scratchpadDirectories ?? [],
      protection,
      paths: new RealPaths(options.fs ?? diskPathFs),
      walks,
      gitConfig,
    };
    // The shell's evaluation (with the parser) is the `shell` lazy bundle: loaded by the first
    // command line, not by every start (scripts/build.mjs).
    const evaluation =
      tool.access === 'shell' && typeof input.command === 'string'
        ? await (await import('./bash-permission')).evaluateBash(input.command, env)
        : evaluateTool(
            {
              toolName: tool.name,
              aliases: tool.aliases,
              input,
              tier: tool.tier,
              isMcp: tool.isMcp,
              access: tool.access,
              isReadOnly: request.isReadOnly,
            },
            env,
          );
    // A folder an MCP call names may hold files a Read deny rule hides (mcp-folder-reads.ts).
    if (tool.isMcp) await checkMcpFolderReads(tool.name, input, env, evaluation);
    // No "always allow" to offer: managed policy keeps allow rules to itself.
    if (permissionContext.managedRulesOnly) evaluation.suggestions = [];
    if (request.isDestructive) {
      evaluation.hardReasons.push('the tool reports the call as destructive');
      evaluation.warnings.push(destructiveWarning(tool.name));
    }
    return evaluation;
  }

  /** The rules an "always allow" answer adds, for this session and, if it says so, for later ones. */
  async function addApprovedRules(decision: PermissionDecision, offered: readonly string[]): Promise<void> {
    if (decision.behavior !== 'allow') return;
    const added: string[] = [];
    for (const text of decision.addRules ?? []) {
      // Only what the person was shown: a prompt cannot widen an "always allow".
      if (!offered.includes(text)) continue;
      const rule = parseRule(text, 'allow', 'session');
      if (!rule) continue;
      sessionRules.push(rule);
      added.push(text);
      options.onSessionRule?.(rule);
    }
    if (decision.saveRulesTo && added.length > 0) await options.saveRules?.(added, decision.saveRulesTo);
  }

  async function ask(request: CanUseToolRequest, pending: Ask): Promise<PermissionDecision> {
    const { tool, input, context, signal } = request;
    const { mode } = context.permissionContext;
    const { evaluation } = pending;
    if (mode === 'auto' && !pending.hard && options.classifier) {
      const verdict = await (request.speculativeClassification?.result ??
        classifySafely(
          options.classifier,
          classifierRequest(tool, input, context, signal),
          classifierTimeoutMs,
        ));
      if (verdict.behavior === 'allow')
        return { behavior: 'allow', decisionReason: { type: 'classifier', reason: verdict.reason } };
      pending.note = `The auto-mode classifier did not allow it: ${verdict.reason}.`;
    }
    const hooked = await options.permissionRequestHook?.({
      toolName: tool.name,
      access: tool.access,
      input,
      suggestions: evaluation.suggestions,
      cwd: context.cwd,
      permissionMode: mode,
      signal,
    });
    if (hooked) return hooked;
    const label = callLabel(tool, input);
    // `denyInsteadOfPrompting`: where the prompt would appear, after the hooks had their say.
    const denyInstead = context.permissionContext.denyInsteadOfPrompting === true;
    const prompt = options.prompt;
    if (mode === 'dontAsk' || denyInstead || !prompt) {
      const reason =
        mode === 'dontAsk'
          ? 'dontAsk mode'
          : denyInstead
            ? 'permissions.denyInsteadOfPrompting'
            : 'no prompt available';
      return {
        behavior: 'deny',
        message: headlessDenyMessage(label, evaluation, mode, denyInstead),
        decisionReason: { type: 'headless', reason },
      };
    }
    const promptRequest: Parameters<PermissionPrompt>[0] = {
      toolName: tool.name,
      input,
      toolUseId: request.toolUseId,
      message: askMessage(label, evaluation, pending.note),
      signal,
    };
    if (evaluation.suggestions.length > 0) promptRequest.suggestions = [...evaluation.suggestions];
    if (pending.reason) promptRequest.decisionReason = pending.reason;
    if (request.context.agentId) promptRequest.agentId = request.context.agentId;
    const decision = await prompt(promptRequest);
    await addApprovedRules(decision, evaluation.suggestions);
    return decision;
  }

  /** The five levels, in order; the first that settles the call decides. */
  async function decide(request: CanUseToolRequest): Promise<PermissionDecision> {
    const { tool, input, toolPermission, hookDecision: hook } = request;
    const { mode } = request.context.permissionContext;
    // Level 1: a hook's deny is final, and so is a tool refusing its own input: no mode or rule
    // can make an unsafe call safe.
    if (hook?.behavior === 'deny') return hook;
    if (toolPermission.behavior === 'deny')
      return deny(toolPermission.message, { type: 'tool', reason: toolPermission.message });
    const evaluation = await evaluate(request);
    // Levels 2–3: deny rules (policy first) beat everything else, a hook's allow included.
    if (evaluation.denied) {
      const { rule, message } = evaluation.denied;
      return deny(message, rule ? { type: 'rule', rule } : { type: 'other', reason: message });
    }
    if (hook?.behavior === 'allow') return hook;
    if (hook?.behavior === 'ask')
      return ask(request, {
        evaluation,
        hard: true,
        reason: { type: 'hook', hookName: 'PreToolUse', reason: hook.message },
      });
    if (toolPermission.behavior === 'ask') {
      evaluation.reasons.unshift(toolPermission.message);
      return ask(request, {
        evaluation,
        hard: true,
        reason: { type: 'tool', reason: toolPermission.message },
      });
    }
    if (evaluation.askRule)
      return ask(request, { evaluation, hard: true, reason: { type: 'rule', rule: evaluation.askRule } });
    // Level 4: the mode. Plan mode lets only reads through, whatever the rules allow.
    if (mode === 'plan' && !evaluation.onlyReads)
      return deny(planModeMessage(callLabel(tool, input), options.prompt !== undefined), {
        type: 'mode',
        mode,
      });
    // Files that decide what runs later ask in every mode but bypassPermissions, whatever allowed them.
    if (evaluation.protectedWrites.length > 0 && mode !== 'bypassPermissions') {
      const reason = evaluation.protectedWrites.map((w) => w.reason).join('; ');
      return ask(request, { evaluation, hard: true, reason: { type: 'other', reason } });
    }
    const sandboxed = await sandboxVerdict(request, evaluation);
    if (sandboxed) return sandboxed;
    if (evaluation.inScratchpad)
      return {
        behavior: 'allow',
        decisionReason: { type: 'other', reason: "inside the session's scratchpad" },
      };
    if (toolPermission.behavior === 'allow')
      return { behavior: 'allow', decisionReason: { type: 'tool', reason: 'the tool allowed this input' } };
    if (evaluation.allowed) {
      const reason: DecisionReason = evaluation.allowRule
        ? { type: 'rule', rule: evaluation.allowRule }
        : { type: 'other', reason: 'read-only call inside the working directories' };
      return { behavior: 'allow', decisionReason: reason };
    }
    if (mode === 'bypassPermissions') return { behavior: 'allow', decisionReason: { type: 'mode', mode } };
    if (mode === 'acceptEdits' && evaluation.editsInside)
      return { behavior: 'allow', decisionReason: { type: 'mode', mode } };
    // Level 5: ask (the classifier first in auto mode).
    return ask(request, { evaluation, hard: evaluation.hardReasons.length > 0 });
  }

  /**
   * The shell sandbox's say (after deny rules, ask rules, plan mode and protected files, which it
   * never overrides): a call that leaves the sandbox on request always asks, and with
   * `autoAllowBashIfSandboxed` a call that runs inside is allowed, its confinement the reason.
   */
  async function sandboxVerdict(
    request: CanUseToolRequest,
    evaluation: Evaluation,
  ): Promise<PermissionDecision | undefined> {
    const { tool, input } = request;
    const sandbox = options.sandbox;
    if (!sandbox || tool.access !== 'shell' || typeof input.command !== 'string') return undefined;
    const call = {
      command: input.command,
      ...(input.dangerouslyDisableSandbox === true ? { dangerouslyDisableSandbox: true } : {}),
    };
    const mode = request.context.permissionContext.mode;
    if (call.dangerouslyDisableSandbox && mode !== 'bypassPermissions' && (await sandbox.honoursDisable())) {
      const reason = 'the command asks to run outside the sandbox (dangerouslyDisableSandbox)';
      evaluation.reasons.unshift(reason);
      return ask(request, { evaluation, hard: true, reason: { type: 'other', reason } });
    }
    if (!sandbox.autoAllow) return undefined;
    const verdict = await sandbox.decide(call);
    if (!verdict.sandboxed) return undefined;
    return {
      behavior: 'allow',
      decisionReason: {
        type: 'other',
        reason: `runs inside the sandbox (sandbox.autoAllowBashIfSandboxed): ${verdict.confinement}`,
      },
    };
  }

  /**
   * An allow that brings its own input (a person's edit, a PermissionRequest hook's or the SDK
   * host's `updatedInput`) runs that input, not the one decided on: deny rules win over every
   * allow, so they judge the rewrite too.
   */
  async function refusedRewrite(
    decision: Allow,
    request: CanUseToolRequest,
  ): Promise<PermissionDecision | undefined> {
    const rewritten = decision.updatedInput;
    if (!rewritten || isDeepStrictEqual(rewritten, request.input)) return undefined;
    const evaluation = await evaluate({
      ...request,
      input: rewritten,
      isReadOnly: false,
      isDestructive: false,
    });
    if (!evaluation.denied) return undefined;
    const { rule, message } = evaluation.denied;
    const { tool } = request;
    return deny(
      `The answer that allowed ${callLabel(tool, request.input)} rewrote it to ${callLabel(tool, rewritten)}, which is refused: ${message}`,
      rule ? { type: 'rule', rule } : { type: 'other', reason: message },
    );
  }

  const canUseTool: CanUseToolFn = async (request) => {
    const decision = await decide(request);
    if (decision.behavior !== 'allow') return decision;
    return (await refusedRewrite(decision, request)) ?? withToolRewrite(decision, request);
  };

  canUseTool.startSpeculativeClassification = ({ tool, input, context, signal }) => {
    // Shell commands are the calls that most often reach the classifier, and the ones a person
    // waits on: their classification starts while the hooks run.
    if (tool.access !== 'shell' || !options.classifier || context.permissionContext.mode !== 'auto')
      return undefined;
    return startSpeculativeClassification(
      options.classifier,
      classifierRequest(tool, input, context, signal),
      classifierTimeoutMs,
    );
  };
  return canUseTool;
}

/**
 * A tool that allowed its input may have rewritten it (`checkPermissions` → `updatedInput`); that
 * rewrite runs whoever allowed the call, unless the allow brings an input of its own (a person's
 * or a PermissionRequest hook's edit).
 */
function withToolRewrite(decision: Allow, request: CanUseToolRequest): Allow {
  const { toolPermission } = request;
  if (decision.updatedInput || toolPermission.behavior !== 'allow' || !toolPermission.updatedInput)
    return decision;
  return { ...decision, updatedInput: toolPermission.updatedInput };
}
