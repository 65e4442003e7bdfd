/**
 * The five-level permission pipeline (seed 001 step 4c): the PreToolUse hook's decision, policy
 * rules, the other rules (settings, CLI flags, session), the permission mode, and finally a
 * prompt — or, with nobody to ask, a denial that names the rule to add. Deny always wins over
 * allow, and a policy deny over everything; a hook `allow` skips the prompt but no deny rule.
 */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { evaluateBash } from './bash-permission';
import {
  type AutoClassifier,
  CLASSIFIER_TIMEOUT_MS,
  classifySafely,
  startSpeculativeClassification,
} from './classifier';
import type { Evaluation, EvaluationEnv } from './evaluation';
import { FolderWalks } from './folder-walks';
import { GitConfigSafety } from './git-config-safety';
import { askMessage, callLabel, headlessDenyMessage, planModeMessage } from './messages';
import { defaultProtectedPaths, type ProtectedPaths } from './protected-paths';
import { diskPathFs, type PathFs, RealPaths } from './real-paths';
import { parseRule } from './rule-string';
import { evaluateTool, type ToolFacts } from './tool-rules';
import type {
  CanUseToolFn,
  CanUseToolRequest,
  DecisionReason,
  PermissionDecision,
  PermissionPrompt,
  PermissionRule,
  ToolPermissionContext,
} from './types';

/** What the pipeline needs to know about a tool (structural, so this layer needs no tool module). */
export type PermissionTool = {
  name: string;
  aliases: readonly string[];
  tier: 'read' | 'write' | 'exec';
  isMcp: boolean;
  toAutoClassifierInput(input: never): string;
};

export type CreateCanUseToolOptions = {
  getContext: () => ToolPermissionContext;
  tools: readonly PermissionTool[] | (() => readonly PermissionTool[]);
  projectRoot: string;
  /**
   * The session's working directory, for calls that do not bring their own (`request.cwd`);
   * defaults to the project root.
   */
  cwd?: string | (() => string);
  home?: string;
  /** The files whose writes always ask; the user folders under `home` when absent. */
  protectedPaths?: ProtectedPaths;
  /** Level 5; without it every `ask` becomes a denial that says which rule to add. */
  prompt?: PermissionPrompt;
  /** The `auto` mode classifier; without it `auto` behaves like `default`. */
  classifier?: AutoClassifier;
  classifierTimeoutMs?: number;
  /** The user's latest request, for the classifier. */
  getUserRequest?: () => string;
  /**
   * `PermissionRequest` hooks: asked before anyone is prompted; a decision they return is final
   * (undefined: no opinion). Runs in every mode that would otherwise ask.
   */
  permissionRequestHook?: (request: {
    toolName: string;
    input: Record<string, unknown>;
    suggestions: readonly string[];
    signal: AbortSignal;
    /** The call's own working directory, for the hook's `cwd` and `if` conditions. */
    cwd?: string;
  }) => Promise<PermissionDecision | undefined>;
  /** Called for each rule an "always allow" answer adds (e.g. to show or persist it). */
  onSessionRule?: (rule: PermissionRule) => void;
  /** Where symlinks are resolved and folders listed (default: the disk; tests pass a fake). */
  fs?: PathFs;
  /** Checks git repositories' own configuration; one per session (it caches per directory). */
  gitConfig?: GitConfigSafety;
};

type Ask = { evaluation: Evaluation; hard: boolean; note?: string; reason?: DecisionReason };

export function createCanUseTool(options: CreateCanUseToolOptions): CanUseToolFn {
  const sessionRules: PermissionRule[] = [];
  // Folders walked for recursive searches, kept while one model reply's calls are decided.
  const walks = new FolderWalks();
  const gitConfig = options.gitConfig ?? new GitConfigSafety();
  const tools = () => (typeof options.tools === 'function' ? options.tools() : options.tools);
  const cwd = () =>
    typeof options.cwd === 'function' ? options.cwd() : (options.cwd ?? options.projectRoot);
  const home = options.home ?? homedir();
  const protection = options.protectedPaths ?? defaultProtectedPaths(home);
  const findTool = (name: string) =>
    tools().find((t) => t.name === name) ?? tools().find((t) => t.aliases.includes(name));
  const classifierInput = (toolName: string, input: Record<string, unknown>) => {
    const text = (findTool(toolName)?.toAutoClassifierInput as ((i: unknown) => string) | undefined)?.(input);
    return text || JSON.stringify(input);
  };
  const classifierRequest = (toolName: string, input: Record<string, unknown>, signal: AbortSignal) => ({
    toolName,
    action: classifierInput(toolName, input),
    userRequest: options.getUserRequest?.() ?? '',
    signal,
  });

  async function evaluate(
    request: CanUseToolRequest,
    context: ToolPermissionContext,
  ): Promise<{ evaluation: Evaluation; facts: ToolFacts }> {
    const tool = findTool(request.toolName);
    const facts: ToolFacts = {
      toolName: tool?.name ?? request.toolName,
      aliases: tool?.aliases ?? [],
      input: request.input,
      tier: tool?.tier ?? (request.isReadOnly ? 'read' : 'exec'),
      isMcp: tool?.isMcp ?? request.toolName.startsWith('mcp__'),
      isReadOnly: request.isReadOnly,
    };
    const here = request.cwd ?? cwd();
    walks.beginTurn(request.assistantMessage?.uuid);
    // A call that may write can change the walked folders before the next search.
    if (!request.isReadOnly) walks.forget();
    const env: EvaluationEnv = {
      rules: [...context.rules, ...sessionRules],
      roots: { projectRoot: options.projectRoot, cwd: here, home },
      workingDirs: [options.projectRoot, ...context.additionalDirectories.map((d) => resolve(here, d))],
      protection,
      paths: new RealPaths(options.fs ?? diskPathFs),
      walks,
      gitConfig,
    };
    const command = request.input.command;
    const evaluation =
      facts.toolName === 'Bash' && typeof command === 'string'
        ? await evaluateBash(command, env)
        : evaluateTool(facts, env);
    return { evaluation, facts };
  }

  function addSessionRules(decision: PermissionDecision, offered: readonly string[]): void {
    if (decision.behavior !== 'allow') return;
    for (const text of decision.addRules ?? []) {
      // Only what the person was shown: a prompt cannot widen an "always allow".
      if (!offered.includes(text)) continue;
      const rule = parseRule(text, 'allow', 'session');
      if (!rule) continue;
      sessionRules.push(rule);
      options.onSessionRule?.(rule);
    }
  }

  async function ask(
    request: CanUseToolRequest,
    context: ToolPermissionContext,
    pending: Ask,
  ): Promise<PermissionDecision> {
    const label = callLabel(request.toolName, request.input);
    const { evaluation } = pending;
    if (context.mode === 'auto' && !pending.hard && options.classifier) {
      const verdict = request.speculativeClassification
        ? await request.speculativeClassification.result
        : await classifySafely(
            options.classifier,
            classifierRequest(request.toolName, request.input, request.signal),
            options.classifierTimeoutMs ?? CLASSIFIER_TIMEOUT_MS,
          );
      if (verdict.behavior === 'allow')
        return { behavior: 'allow', decisionReason: { type: 'classifier', reason: verdict.reason } };
      pending.note = `The auto-mode classifier did not allow it: ${verdict.reason}.`;
    }
    request.speculativeClassification?.cancel();
    const hooked = await options.permissionRequestHook?.({
      toolName: request.toolName,
      input: request.input,
      suggestions: evaluation.suggestions,
      signal: request.signal,
      ...(request.cwd === undefined ? {} : { cwd: request.cwd }),
    });
    if (hooked) return hooked;
    if (context.mode === 'dontAsk' || !options.prompt) {
      return {
        behavior: 'deny',
        message: headlessDenyMessage(label, evaluation, context.mode),
        decisionReason: {
          type: 'headless',
          reason: context.mode === 'dontAsk' ? 'dontAsk mode' : 'no prompt available',
        },
      };
    }
    const message = askMessage(label, evaluation, pending.note);
    const promptRequest: Parameters<PermissionPrompt>[0] = {
      toolName: request.toolName,
      input: request.input,
      toolUseId: request.toolUseId,
      message,
      signal: request.signal,
    };
    if (evaluation.suggestions.length > 0) promptRequest.suggestions = [...evaluation.suggestions];
    if (pending.reason) promptRequest.decisionReason = pending.reason;
    const decision = await options.prompt(promptRequest);
    addSessionRules(decision, evaluation.suggestions);
    return decision;
  }

  const canUseTool: CanUseToolFn = async (request) => {
    const context = options.getContext();
    const hook = request.hookDecision;
    const done = (decision: PermissionDecision) => {
      request.speculativeClassification?.cancel();
      return decision;
    };
    // Level 1: a hook's deny is final.
    if (hook?.behavior === 'deny') return done(hook);
    if (request.toolPermission.behavior === 'deny') {
      return done({
        behavior: 'deny',
        message: request.toolPermission.message,
        decisionReason: { type: 'tool', reason: request.toolPermission.message },
      });
    }
    const { evaluation, facts } = await evaluate(request, context);
    // Levels 2–3: deny rules (policy first) beat everything else, a hook's allow included.
    if (evaluation.denied) {
      const reason: DecisionReason = evaluation.denied.rule
        ? { type: 'rule', rule: evaluation.denied.rule }
        : { type: 'other', reason: evaluation.denied.message };
      return done({ behavior: 'deny', message: evaluation.denied.message, decisionReason: reason });
    }
    if (hook?.behavior === 'allow') return done(hook);
    if (hook?.behavior === 'ask')
      return ask(request, context, {
        evaluation,
        hard: true,
        reason: { type: 'hook', hookName: 'PreToolUse', reason: hook.message },
      });
    if (request.toolPermission.behavior === 'ask') {
      evaluation.reasons.unshift(request.toolPermission.message);
      return ask(request, context, {
        evaluation,
        hard: true,
        reason: { type: 'tool', reason: request.toolPermission.message },
      });
    }
    if (evaluation.askRule)
      return ask(request, context, {
        evaluation,
        hard: true,
        reason: { type: 'rule', rule: evaluation.askRule },
      });
    // Level 4: the mode. Plan mode lets only reads through, whatever the rules allow.
    const mode = context.mode;
    if (mode === 'plan' && !evaluation.onlyReads) {
      return done({
        behavior: 'deny',
        message: planModeMessage(callLabel(facts.toolName, request.input)),
        decisionReason: { type: 'mode', mode },
      });
    }
    // Files that decide what runs later ask in every mode but bypassPermissions, whatever allowed them.
    if (evaluation.protectedWrites.length > 0 && mode !== 'bypassPermissions') {
      const reason = evaluation.protectedWrites.map((w) => w.reason).join('; ');
      return ask(request, context, { evaluation, hard: true, reason: { type: 'other', reason } });
    }
    if (request.toolPermission.behavior === 'allow') {
      const allow: PermissionDecision = {
        behavior: 'allow',
        decisionReason: { type: 'tool', reason: 'the tool allowed this input' },
      };
      if (request.toolPermission.updatedInput) allow.updatedInput = request.toolPermission.updatedInput;
      return done(allow);
    }
    if (evaluation.allowed) {
      const reason: DecisionReason = evaluation.allowRule
        ? { type: 'rule', rule: evaluation.allowRule }
        : { type: 'other', reason: 'read-only call inside the working directories' };
      return done({ behavior: 'allow', decisionReason: reason });
    }
    if (mode === 'bypassPermissions')
      return done({ behavior: 'allow', decisionReason: { type: 'mode', mode } });
    if (mode === 'acceptEdits' && evaluation.editsInside)
      return done({ behavior: 'allow', decisionReason: { type: 'mode', mode } });
    // Level 5: ask (the classifier first in auto mode).
    return ask(request, context, { evaluation, hard: evaluation.hardReasons.length > 0 });
  };

  canUseTool.startSpeculativeClassification = ({ toolName, input, signal }) => {
    if (toolName !== 'Bash' || !options.classifier || options.getContext().mode !== 'auto') return undefined;
    return startSpeculativeClassification(
      options.classifier,
      classifierRequest(toolName, input, signal),
      options.classifierTimeoutMs ?? CLASSIFIER_TIMEOUT_MS,
    );
  };
  return canUseTool;
}
