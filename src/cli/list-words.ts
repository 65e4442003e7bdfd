/**
 * Claude Code takes `--allowedTools`, `--disallowedTools` and `--tools` as variadic options:
 * `--allowedTools "Bash(git log:*)" Read Edit`. There every word up to the next flag joins the
 * list — a prompt after the list included, which Claude Code's own help warns of. Yoke reads the
 * same forms but stops the list at the first word that cannot be one of its items, so
 * `yoke -p --allowedTools Read Edit "fix the tests"` keeps its prompt. A word continues the list
 * when every item in it (split on commas and spaces outside parentheses) is:
 * - a rule with parentheses (`Bash(npm test:*)`, `Agent(Explore)`) — no prompt reads like that;
 * - a name with `_` or `*` (`mcp__db__query`, `mcp__db__*`, `ast_grep`);
 * - a built-in tool name or alias in any case (`Read`, `lsp`, `Task`), or a near miss of one
 *   (`Bsah`: taken as the rule meant, so the typo warning names it rather than running it as the
 *   prompt).
 * `--` ends a list outright: every word before it belongs to the list, and the prompt follows.
 */
import { nearestName } from '../lib/edit-distance';
import { BUILTIN_TOOL_NAMES } from '../permissions/rule-problems';
import { parseRuleValue, TOOL_NAME_ALIASES } from '../permissions/rule-string';
import { splitRuleList } from './list-values';

/** Flags (their canonical long form) that take a list of rules or tool names. */
export const RULE_LIST_FLAGS: ReadonlySet<string> = new Set([
  '--allowed-tools',
  '--disallowed-tools',
  '--tools',
]);

/**
 * Yoke's own built-ins that Claude Code does not have (`BUILTIN_TOOL_NAMES` is Claude Code's
 * set); list-words.test.ts checks that every built-in a session offers is known here or there.
 */
const YOKE_TOOL_NAMES: readonly string[] = ['ast_edit', 'ast_grep', 'lsp', 'lsp_rename', 'resolve'];

const KNOWN_NAMES: readonly string[] = [
  ...BUILTIN_TOOL_NAMES,
  ...YOKE_TOOL_NAMES,
  ...Object.keys(TOOL_NAME_ALIASES),
];
const KNOWN_LOWERCASE: ReadonlySet<string> = new Set(KNOWN_NAMES.map((name) => name.toLowerCase()));

/** Short names get one edit, as in the rule typo check (`Raed`, `Bsah`). */
const typoBudget = (candidate: string) => (candidate.length <= 8 ? 1 : 2);

function isListItem(item: string): boolean {
  if (parseRuleValue(item) === undefined) return false;
  if (item.includes('(') || /[_*]/.test(item)) return true;
  if (KNOWN_LOWERCASE.has(item.toLowerCase())) return true;
  return nearestName(item, KNOWN_NAMES, typoBudget) !== undefined;
}

/** Whether `word`, after a list flag's first value, is more of the list rather than the prompt. */
export function continuesRuleList(word: string): boolean {
  // A rule the shell split at a space (`Bash(npm` `test)`) is one word of the list: the parse
  // then stops with the quoting that fixes it (stray-words.ts).
  const open = word.indexOf('(');
  if (open > 0 && !word.includes(')')) return isListItem(`${word.slice(0, open)}(x)`);
  const items = splitRuleList([word]);
  return items.length > 0 && items.every(isListItem);
}

/**
 * How many of `words` (the tokens after a list flag's first value) belong to the list: up to a
 * `--` (all of them, when nothing that looks like a flag comes first), else while each continues it.
 */
export function listWordCount(words: readonly string[], looksLikeFlag: (token: string) => boolean): number {
  const run = words.findIndex((word) => word === '--' || looksLikeFlag(word));
  if (run !== -1 && words[run] === '--') return run;
  let count = 0;
  while (count < words.length && continuesRuleList(words[count] as string)) count++;
  return count;
}
