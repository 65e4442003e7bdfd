/**
 * Level 5 of the permission pipeline over stdio (`--permission-prompt-tool stdio`): an undecided
 * tool call becomes a `can_use_tool` control request, and the host's `PermissionResult` becomes
 * Yoke's decision (agent-sdk-protocol.md §5.8, §9.1).
 */

import { isJsonObject } from '../lib/json-object';
import type { SavedRuleDestination } from '../lib/permission-vocabulary';
import type { DecisionReason, PermissionDecision, PermissionPrompt } from '../permissions/types';
import type { ControlChannel } from './control-channel';
import type { JsonObject } from './ndjson';

export type StdioPermissionPromptDeps = {
  channel: ControlChannel;
  /** Called with true while the host's answer is awaited (`requires_action`), false after. */
  onWaiting?: (waiting: boolean) => void;
};

const VIA_STDIO: DecisionReason = { type: 'prompt', via: 'stdio' };

export function createStdioPermissionPrompt(deps: StdioPermissionPromptDeps): PermissionPrompt {
  return async (request) => {
    const question: { subtype: string } & JsonObject = {
      subtype: 'can_use_tool',
      tool_name: request.toolName,
      input: request.input,
      tool_use_id: request.toolUseId,
      display_name: request.toolName,
      description: request.message,
      decision_reason: request.message,
    };
    if (request.decisionReason) question.decision_reason_type = request.decisionReason.type;
    if (request.agentId) question.agent_id = request.agentId;
    if (request.suggestions?.length)
      question.permission_suggestions = toPermissionUpdates(request.suggestions);

    deps.onWaiting?.(true);
    let answer: JsonObject;
    try {
      answer = await deps.channel.request(question, request.signal);
    } catch (error) {
      // An aborted turn is not a denial: let the runner report the interrupt.
      if (request.signal.aborted) throw error;
      return {
        behavior: 'deny',
        message: `Permission to use ${request.toolName} could not be obtained: ${(error as Error).message}`,
        decisionReason: VIA_STDIO,
      };
    } finally {
      deps.onWaiting?.(false);
    }
    return toDecision(answer, request.input);
  };
}

/** Maps the host's `PermissionResult` to a decision; anything unreadable fails closed. */
export function toDecision(answer: JsonObject, originalInput: Record<string, unknown>): PermissionDecision {
  if (answer.behavior === 'allow') {
    const updated = answer.updatedInput;
    const updatedInput = isJsonObject(updated) ? updated : originalInput;
    const decision: PermissionDecision = { behavior: 'allow', updatedInput, decisionReason: VIA_STDIO };
    const approved = approvedRulesFrom(answer.updatedPermissions);
    if (approved.rules.length > 0) decision.addRules = approved.rules;
    if (approved.rules.length > 0 && approved.saveTo) decision.saveRulesTo = approved.saveTo;
    return decision;
  }
  if (answer.behavior === 'deny') {
    const message =
      typeof answer.message === 'string' && answer.message !== '' ? answer.message : 'Permission denied.';
    const decision: PermissionDecision = { behavior: 'deny', message, decisionReason: VIA_STDIO };
    if (answer.interrupt === true) decision.interrupt = true;
    return decision;
  }
  return {
    behavior: 'deny',
    message: `The host answered the permission request with an unknown behavior: ${JSON.stringify(answer.behavior)}.`,
    decisionReason: VIA_STDIO,
  };
}

/**
 * Suggestions are rule strings such as `Bash(npm test:*)`; the SDK expects `PermissionUpdate`
 * objects it can hand back in `updatedPermissions` for an "always allow" answer.
 */
export function toPermissionUpdates(rules: readonly string[]): JsonObject[] {
  return [
    {
      type: 'addRules',
      behavior: 'allow',
      // As Claude Code suggests them: answered back, they are saved for later sessions in the folder.
      destination: 'localSettings',
      rules: rules.map((rule) => {
        const match = /^([^()]+)\((.*)\)$/s.exec(rule);
        return match ? { toolName: match[1], ruleContent: match[2] } : { toolName: rule };
      }),
    },
  ];
}

const SAVED_DESTINATIONS: readonly SavedRuleDestination[] = [
  'localSettings',
  'projectSettings',
  'userSettings',
];

/**
 * The "always allow" part of `updatedPermissions`: its `addRules` allow entries as rule strings,
 * and the settings file they are saved in when every such entry names the same one (`session`,
 * `cliArg` or a mix: this session only). The pipeline keeps only the rules it suggested, so a host
 * cannot widen what the user was shown. Other update kinds (modes, directories, deny rules) are
 * not something a prompt answer may change.
 */
export function approvedRulesFrom(updates: unknown): { rules: string[]; saveTo?: SavedRuleDestination } {
  const rules: string[] = [];
  const destinations = new Set<unknown>();
  if (!Array.isArray(updates)) return { rules };
  for (const update of updates) {
    if (!isJsonObject(update) || update.type !== 'addRules' || update.behavior !== 'allow') continue;
    if (!Array.isArray(update.rules)) continue;
    destinations.add(update.destination);
    for (const rule of update.rules) {
      if (!isJsonObject(rule) || typeof rule.toolName !== 'string') continue;
      const content = rule.ruleContent;
      rules.push(
        typeof content === 'string' && content !== '' ? `${rule.toolName}(${content})` : rule.toolName,
      );
    }
  }
  const [only] = destinations;
  const saveTo = SAVED_DESTINATIONS.find((d) => destinations.size === 1 && d === only);
  return saveTo ? { rules, saveTo } : { rules };
}
