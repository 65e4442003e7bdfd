/**
 * A permission rule whose tool name is a typo of a built-in (`Bsah(npm test)`, `Raed`) matches
 * nothing: an allow rule leaves the prompt in place, a deny rule leaves the tool free. The
 * permission layer takes names it does not know as written — MCP tools, plugins and tools of
 * newer versions have names it cannot know — so the session says it here, where the built-ins
 * are known: one warning per rule, naming the tool meant. A name far from every built-in is left
 * alone, and so is a built-in in the wrong case (the permission layer reports that one).
 */
import { nearestName, typoBudget } from '../lib/edit-distance';
import type { PermissionRule, RuleBehavior, RuleSource } from '../permissions/types';

const WHERE: Readonly<Record<RuleSource, string>> = {
  policySettings: 'managed settings',
  userSettings: 'user settings',
  projectSettings: 'project settings',
  localSettings: 'local project settings',
  flagSettings: '--settings',
  cliArg: '',
  session: 'this session',
};

const EFFECT: Readonly<Record<RuleBehavior, string>> = {
  allow: 'it allows nothing',
  deny: 'it denies nothing',
  ask: 'it asks about nothing',
};

function where(rule: PermissionRule): string {
  if (rule.source !== 'cliArg') return WHERE[rule.source];
  return rule.behavior === 'allow' ? '--allowedTools' : '--disallowedTools';
}

/** Short names get one edit too (`Bsah`, `Raed`): a rule names a tool, not an arbitrary word. */
const budget = (candidate: string) => Math.max(1, typoBudget(candidate));

export function ruleToolTypos(
  rules: readonly PermissionRule[],
  builtins: readonly { name: string; aliases: readonly string[] }[],
): string[] {
  const names = builtins.flatMap((tool) => [tool.name, ...tool.aliases]);
  const known = new Set(names.map((name) => name.toLowerCase()));
  const lines: string[] = [];
  for (const rule of rules) {
    const name = rule.toolName;
    if (rule.malformed || name.startsWith('mcp__') || name.includes('*')) continue;
    if (known.has(name.toLowerCase())) continue;
    const meant = nearestName(name, names, budget);
    if (meant === undefined) continue;
    const text = rule.ruleContent === undefined ? name : `${name}(${rule.ruleContent})`;
    lines.push(
      `${where(rule)}: ${rule.behavior} rule ${JSON.stringify(text)} names no tool Yoke has ` +
        `(did you mean ${meant}?); ${EFFECT[rule.behavior]}`,
    );
  }
  return lines;
}
