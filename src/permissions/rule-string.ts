/**
 * Rule strings (`Tool`, `Tool(specifier)`) ↔ `PermissionRule`. Parsing is strict about the outer
 * shape only; what a specifier means is up to the matcher for that tool.
 */
import type { PermissionRule, RuleBehavior, RuleSource } from './types';

/** Legacy names that rules and hooks may still use, mapped to the current tool name. */
export const TOOL_NAME_ALIASES: Readonly<Record<string, string>> = {
  Task: 'Agent',
  KillShell: 'TaskStop',
  KillBash: 'TaskStop',
  BashOutput: 'TaskOutput',
  AgentOutputTool: 'TaskOutput',
  BashOutputTool: 'TaskOutput',
};

/** The current name for a tool name written in a rule. */
export function canonicalToolName(name: string): string {
  return TOOL_NAME_ALIASES[name] ?? name;
}

export type ParsedRuleValue = { toolName: string; ruleContent?: string };

/**
 * Splits `Tool(specifier)`. The specifier runs to the LAST `)` so commands with parentheses
 * (`Bash(echo (x))`) survive; `\(` and `\)` are accepted as escapes for the same reason.
 * Returns undefined for a string that is not a rule at all (empty, unbalanced, bad tool name).
 */
export function parseRuleValue(text: string): ParsedRuleValue | undefined {
  const trimmed = text.trim();
  const open = trimmed.indexOf('(');
  if (open < 0) {
    return /^[A-Za-z_][\w.*-]*$/.test(trimmed) ? { toolName: canonicalToolName(trimmed) } : undefined;
  }
  if (!trimmed.endsWith(')')) return undefined;
  const toolName = trimmed.slice(0, open).trim();
  if (!/^[A-Za-z_][\w.*-]*$/.test(toolName)) return undefined;
  const content = trimmed
    .slice(open + 1, -1)
    .replace(/\\([()])/g, '$1')
    .trim();
  // `Bash()` and `Bash(*)` mean the whole tool, as the bare name does.
  if (content === '' || content === '*') return { toolName: canonicalToolName(toolName) };
  return { toolName: canonicalToolName(toolName), ruleContent: content };
}

export function parseRule(
  text: string,
  behavior: RuleBehavior,
  source: RuleSource,
): PermissionRule | undefined {
  const value = parseRuleValue(text);
  if (!value) return undefined;
  return value.ruleContent === undefined
    ? { toolName: value.toolName, behavior, source }
    : { toolName: value.toolName, ruleContent: value.ruleContent, behavior, source };
}

/** The string form a user writes in settings: `Bash(npm test)`. */
export function formatRule(rule: ParsedRuleValue): string {
  return rule.ruleContent === undefined ? rule.toolName : `${rule.toolName}(${rule.ruleContent})`;
}

/** Two rules name the same thing (aliases resolved, whitespace ignored). */
export function sameRuleValue(a: ParsedRuleValue, b: ParsedRuleValue): boolean {
  return canonicalToolName(a.toolName) === canonicalToolName(b.toolName) && a.ruleContent === b.ruleContent;
}
