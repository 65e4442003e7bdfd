/**
 * The words of the pipeline: what the person asked sees, and what a headless run says instead
 * of asking — always naming the exact rule that would allow the call.
 */
import { describeRule, type Evaluation } from './evaluation';
import type { PermissionMode, PermissionTool } from './types';

/** The call as the person asked sees it: the command line of a shell call, else the tool and its target. */
export function callLabel(
  tool: Pick<PermissionTool, 'name' | 'access'>,
  input: Record<string, unknown>,
): string {
  if (tool.access === 'shell' && typeof input.command === 'string') return `${tool.name}: ${input.command}`;
  const target = input.file_path ?? input.notebook_path ?? input.url ?? input.path ?? input.pattern;
  return typeof target === 'string' ? `${tool.name}: ${target}` : tool.name;
}

/** The warning a destructive call carries into every question and refusal about it. */
export function destructiveWarning(toolName: string): string {
  return `${toolName} reports that this call is destructive: it may delete or overwrite data that cannot be recovered`;
}

export function askMessage(label: string, evaluation: Evaluation, extra?: string): string {
  const parts = [`Allow ${label}?`];
  if (evaluation.askRule) {
    const rule = describeRule(evaluation.askRule);
    // A deny rule asks when the call may do what it denies: read a file a search sweeps over, run
    // a command a word only known at run time may name (see the reasons).
    const what = { Read: 'a file it may read', Edit: 'a file it may write' }[evaluation.askRule.toolName];
    parts.push(
      evaluation.askRule.behavior === 'deny'
        ? `The rule ${rule} denies ${what ?? 'what it may run'}.`
        : `The rule ${rule} asks first.`,
    );
  }
  if (evaluation.reasons.length > 0) parts.push(`Needs approval: ${evaluation.reasons.join('; ')}.`);
  for (const warning of evaluation.warnings) parts.push(`Warning: ${warning}.`);
  if (extra) parts.push(extra);
  return parts.join(' ');
}

/**
 * How to allow the call next time, for messages that cannot ask. Local settings apply without
 * trusting the folder; a protected file needs a rule the model cannot have written (user
 * settings or the command line — see protected-paths.ts).
 */
export function howToAllow(suggestions: readonly string[], protectedFile = false): string {
  if (suggestions.length === 0) {
    return 'No rule can allow it as written; rewrite the command in plain form or run it yourself.';
  }
  const quoted = suggestions.map((s) => `"${s}"`);
  const where = protectedFile
    ? '~/.yoke/settings.json (user settings; project and local settings cannot allow a protected file)'
    : '.yoke/settings.local.json';
  return `To allow it, add ${quoted.join(', ')} to permissions.allow in ${where} or pass --allowedTools ${quoted.join(' ')}.`;
}

export function headlessDenyMessage(
  label: string,
  evaluation: Evaluation,
  mode: PermissionMode,
  denyInsteadOfPrompting = false,
): string {
  const why =
    mode === 'dontAsk'
      ? 'permission mode dontAsk never asks'
      : denyInsteadOfPrompting
        ? 'the settings deny instead of asking (permissions.denyInsteadOfPrompting)'
        : 'no one is here to approve it';
  const detail = evaluation.reasons.length > 0 ? ` (${evaluation.reasons.join('; ')})` : '';
  const warnings = evaluation.warnings.map((w) => ` Warning: ${w}.`).join('');
  const protectedFile = evaluation.protectedWrites.length > 0;
  return `Permission for ${label} was not granted: ${why}${detail}.${warnings} ${howToAllow(evaluation.suggestions, protectedFile)}`;
}

/** `canExit`: ExitPlanMode exists in this session (someone can approve a plan). */
export function planModeMessage(label: string, canExit: boolean): string {
  const next = canExit
    ? 'Finish the plan and call ExitPlanMode; once it is approved, the change can run.'
    : 'Finish the plan and give it as your answer: the user runs it in another permission mode.';
  return `Plan mode allows only reading: ${label} would change something. ${next}`;
}
