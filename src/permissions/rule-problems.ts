/**
 * Reading a permission rule as a user wrote it, and what happens when it is broken. A deny rule
 * that cannot be read must not vanish: that would silently allow what it was written to stop.
 * So a malformed deny (or ask) rule stands for the whole tool it names until it is fixed —
 * `Bash(echo:*` denies every Bash call — and one whose tool name cannot be read at all (`./.env`,
 * `(rm)`, an empty string) stands for every tool. A malformed allow rule is dropped. Either way
 * the problem is reported in one line naming the file and the rule.
 *
 * A built-in tool name in the wrong case (`bash(ls)`, `read`) counts as malformed: names are
 * case-sensitive and the rule would otherwise match nothing. MCP tools (`mcp__…`) and names Yoke
 * does not know (plugins, tools of newer versions) are taken as written.
 */
import { canonicalToolName, parseRuleValue, TOOL_NAME_ALIASES } from './rule-string';
import type { PermissionRule, RuleBehavior, RuleSource } from './types';

/** The tool name of a rule that stands for every tool (only ever a deny or ask rule). */
export const ANY_TOOL = '*';

/** Built-in tool names of Yoke and Claude Code (compat-surface §1), for the case check. */
export const BUILTIN_TOOL_NAMES: readonly string[] = [
  'Agent',
  'AskUserQuestion',
  'Bash',
  'CronCreate',
  'CronDelete',
  'CronList',
  'Edit',
  'EnterPlanMode',
  'EnterWorktree',
  'ExitPlanMode',
  'ExitWorktree',
  'Glob',
  'Grep',
  'ListAgents',
  'ListMcpResourcesTool',
  'LS',
  'Monitor',
  'MultiEdit',
  'NotebookEdit',
  'NotebookRead',
  'PowerShell',
  'Read',
  'ReadMcpResourceDirTool',
  'ReadMcpResourceTool',
  'ReportFindings',
  'ScheduleWakeup',
  'SendMessage',
  'Skill',
  'SlashCommand',
  'StructuredOutput',
  'TaskCreate',
  'TaskGet',
  'TaskList',
  'TaskOutput',
  'TaskStop',
  'TaskUpdate',
  'TodoWrite',
  'ToolSearch',
  'WebFetch',
  'WebSearch',
  'Workflow',
  'Write',
];

/** Lowercased name → the name as it must be written (aliases included). */
const BY_LOWERCASE = new Map<string, string>(
  [...BUILTIN_TOOL_NAMES, ...Object.keys(TOOL_NAME_ALIASES)].map((name) => [name.toLowerCase(), name]),
);

/** Where a rule was written: a settings file, or the flag that carried it. */
export type RuleOrigin = { source: RuleSource; file?: string };

/** What a broken rule was, kept on the rule that stands in for it so refusals can name it. */
export type MalformedRule = { text: string; problem: string; file?: string };

export type RuleReading = {
  /** The rule to apply: as written, or the whole-tool stand-in for a broken deny or ask rule. */
  rule?: PermissionRule;
  /** One line for the user, naming the file and the rule; absent when the rule is fine. */
  problem?: string;
};

const NAME = /^[A-Za-z_][\w.*-]*/;

/** The right spelling of `name` when it is a built-in tool name in the wrong case. */
function correctCase(name: string): string | undefined {
  if (name.startsWith('mcp__')) return undefined;
  const right = BY_LOWERCASE.get(name.toLowerCase());
  return right !== undefined && right !== name ? right : undefined;
}

/** Why `text` (trimmed, not a valid rule) is not `Tool` or `Tool(specifier)`. */
function shapeProblem(text: string, name: string | undefined): string {
  if (text === '') return 'it is empty';
  if (name === undefined) return 'it does not start with a tool name (expected Tool or Tool(specifier))';
  const rest = text.slice(name.length).trimStart();
  if (rest.startsWith('(')) {
    return rest.includes(')') ? 'there is text after the closing ")"' : 'the closing ")" is missing';
  }
  return `"${rest}" after the tool name is not a specifier (expected ${name}(specifier))`;
}

function effect(behavior: RuleBehavior, toolName: string | undefined): string {
  if (behavior === 'allow') return 'the rule is ignored';
  const verb = behavior === 'deny' ? 'denies' : 'asks before';
  return `until it is fixed it ${verb} ${toolName === undefined ? 'every tool call' : `every ${toolName} call`}`;
}

function where(origin: RuleOrigin, behavior: RuleBehavior): string {
  if (origin.file !== undefined) return `settings ${origin.file}`;
  if (origin.source === 'cliArg') return behavior === 'allow' ? '--allowedTools' : '--disallowedTools';
  return `settings (${origin.source})`;
}

/**
 * How a rule string reads: the parsed rule when it is well-formed (and not a built-in name in
 * the wrong case), else why not and the tool it names, if that much can be read.
 */
function inspect(
  text: string,
): { ok: true; toolName: string; ruleContent?: string } | { ok: false; problem: string; toolName?: string } {
  const trimmed = text.trim();
  const parsed = parseRuleValue(trimmed);
  if (parsed) {
    const right = correctCase(parsed.toolName);
    if (right === undefined) return { ok: true, ...parsed };
    return {
      ok: false,
      problem: `tool names are case-sensitive: "${parsed.toolName}" should be "${right}"`,
      toolName: canonicalToolName(right),
    };
  }
  const name = NAME.exec(trimmed)?.[0];
  const problem = shapeProblem(trimmed, name);
  return name === undefined
    ? { ok: false, problem }
    : { ok: false, problem, toolName: canonicalToolName(correctCase(name) ?? name) };
}

/** Why `text` cannot be read as a rule (malformed, or a built-in name in the wrong case). */
export function ruleTextProblem(text: string): string | undefined {
  const reading = inspect(text);
  return reading.ok ? undefined : reading.problem;
}

export function readRule(text: string, behavior: RuleBehavior, origin: RuleOrigin): RuleReading {
  const reading = inspect(text);
  if (reading.ok) {
    const rule: PermissionRule = { toolName: reading.toolName, behavior, source: origin.source };
    if (reading.ruleContent !== undefined) rule.ruleContent = reading.ruleContent;
    return { rule };
  }
  const { problem, toolName } = reading;
  const line = `${where(origin, behavior)}: ${behavior} rule ${JSON.stringify(text)} is malformed (${problem}); ${effect(behavior, toolName)}`;
  if (behavior === 'allow') return { problem: line };
  const malformed: MalformedRule = { text, problem };
  if (origin.file !== undefined) malformed.file = origin.file;
  return {
    rule: { toolName: toolName ?? ANY_TOOL, behavior, source: origin.source, malformed },
    problem: line,
  };
}
