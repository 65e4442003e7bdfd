/**
 * /permissions: the rules in force, grouped by where they come from, and adding or removing a
 * rule in one of the user's settings files. A malformed rule is refused with the reason before
 * any file is touched; managed policy and `--allowedTools` rules are shown but never edited here.
 */
import { editSettingsFile } from '../../config/edit-settings';
import { type SettingsFileSource, yokeSettingsFile } from '../../config/paths';
import type { SettingsRule } from '../../config/settings-merge';
import type { RuleBehavior, RuleSource } from '../../lib/permission-vocabulary';
import { settingsRuleApplies } from '../../permissions/permission-context';
import { ruleTextProblem } from '../../permissions/rule-problems';
import { formatRule, parseRuleValue, sameRuleValue } from '../../permissions/rule-string';
import { withoutRule, withRule } from '../permission-edits';
import type { CommandHost, CommandOutcome, LocalCommand } from '../types';

const USAGE =
  'Usage: /permissions [list] | /permissions add allow|deny|ask <rule> [--local|--project|--user] | ' +
  '/permissions remove <rule> [--local|--project|--user]';

const SOURCE_ORDER: readonly RuleSource[] = [
  'policySettings',
  'flagSettings',
  'cliArg',
  'localSettings',
  'projectSettings',
  'userSettings',
  'session',
];
const SOURCE_LABEL: Readonly<Record<RuleSource, string>> = {
  policySettings: 'Managed policy',
  flagSettings: 'Settings flag (--settings)',
  cliArg: 'Command line (--allowedTools / --disallowedTools)',
  localSettings: 'Local settings (yours, this project)',
  projectSettings: 'Project settings (shared)',
  userSettings: 'User settings (all projects)',
  session: 'This session ("always allow" answers)',
};
const BEHAVIOR_ORDER: Readonly<Record<RuleBehavior, number>> = { deny: 0, ask: 1, allow: 2 };
const SCOPE_SOURCE: Readonly<Record<SettingsFileSource, RuleSource>> = {
  local: 'localSettings',
  project: 'projectSettings',
  user: 'userSettings',
};

export const permissionsCommand: LocalCommand = {
  kind: 'local',
  name: 'permissions',
  aliases: ['allowed-tools'],
  description: 'List the permission rules by source; add or remove a rule in a settings file',
  argumentHint: '[list | add <behavior> <rule> | remove <rule>] [--local|--project|--user]',
  async run(args, host) {
    const [sub = 'list', ...rest] = args.split(/\s+/).filter((w) => w !== '');
    if (sub === 'list' && rest.length === 0) return text(await listRules(host));
    if (sub === 'add') return text(await addRule(rest, host));
    if (sub === 'remove' || sub === 'rm') return text(await removeRule(rest, host));
    return text(USAGE);
  },
};

const text = (t: string): CommandOutcome => ({ kind: 'text', text: t });

async function listRules(host: CommandHost): Promise<string> {
  const [loaded, trusted] = await Promise.all([host.loadSettings(), host.projectTrusted()]);
  const fromFiles: SettingsRule[] = loaded.rules;
  // Rules the session holds beyond the files: flags and "always allow" answers.
  const runtime: SettingsRule[] = host
    .permissionRules()
    .filter((r) => r.source === 'cliArg' || r.source === 'session')
    .map((r) => ({ rule: formatRule(r), behavior: r.behavior, source: r.source }));
  const all = [...fromFiles, ...runtime];
  const lines = [`Permission mode: ${host.permissionMode()}`];
  if (all.length === 0)
    lines.push('No permission rules. Add one with /permissions add allow "Bash(npm test)".');
  for (const source of SOURCE_ORDER) {
    const rules = all
      .filter((r) => r.source === source)
      .sort((a, b) => BEHAVIOR_ORDER[a.behavior] - BEHAVIOR_ORDER[b.behavior]);
    if (rules.length === 0) continue;
    lines.push(`${SOURCE_LABEL[source]}:`);
    for (const rule of rules) {
      const where = rule.path ? `  ${rule.path}` : '';
      const ignored = settingsRuleApplies(rule.source, rule.behavior, trusted)
        ? ''
        : '  (ignored: this folder is not trusted)';
      lines.push(`  ${rule.behavior.padEnd(5)}  ${rule.rule}${where}${ignored}`);
    }
  }
  for (const error of loaded.errors) lines.push(`warning: ${error.message}`);
  return lines.join('\n');
}

type Parsed = { scope?: SettingsFileSource; words: string[] };

function takeScope(words: readonly string[]): Parsed | string {
  const flags = words.filter((w) => w.startsWith('--'));
  const rest = words.filter((w) => !w.startsWith('--'));
  if (flags.length > 1) return `Give one of --local, --project or --user, not ${flags.join(' ')}.`;
  if (flags.length === 0) return { words: rest };
  const scope = (flags[0] as string).slice(2);
  if (scope !== 'local' && scope !== 'project' && scope !== 'user')
    return `Unknown option ${flags[0]}. ${USAGE}`;
  return { scope, words: rest };
}

/** Yoke's own file of a scope: `.yoke/settings.local.json`, `.yoke/settings.json`, `~/.yoke/settings.json`. */
function yokeFile(scope: SettingsFileSource, host: CommandHost): string {
  return yokeSettingsFile(scope, host.projectRoot, host.env);
}

const unquote = (rule: string) => rule.replace(/^(["'])(.*)\1$/, '$2');

async function addRule(words: readonly string[], host: CommandHost): Promise<string> {
  const parsed = takeScope(words);
  if (typeof parsed === 'string') return parsed;
  const [behavior, ...ruleWords] = parsed.words;
  if (behavior !== 'allow' && behavior !== 'deny' && behavior !== 'ask')
    return `Say which kind of rule: allow, deny or ask. ${USAGE}`;
  const rule = unquote(ruleWords.join(' ').trim());
  if (rule === '') return `Give the rule to add, e.g. /permissions add ${behavior} Bash(npm test). ${USAGE}`;
  const problem = ruleTextProblem(rule);
  if (problem)
    return `Not added: "${rule}" is not a valid rule: ${problem}. Write it as Tool or Tool(specifier).`;
  const scope = parsed.scope ?? 'local';
  const file = yokeFile(scope, host);
  const target = parseRuleValue(rule);
  if (!target) return `Not added: "${rule}" is not a valid rule.`;
  const shown = formatRule(target);
  const loaded = await host.loadSettings();
  const present = loaded.rules.find((r) => {
    const p = parseRuleValue(r.rule);
    return r.path === file && r.behavior === behavior && p !== undefined && sameRuleValue(p, target);
  });
  if (present) return `${behavior} ${shown} is already in ${file}.`;
  try {
    await editSettingsFile(file, (json) => withRule(json, behavior, rule));
  } catch (error) {
    return `Not added: ${(error as Error).message}`;
  }
  await host.reloadPermissionRules();
  const lines = [`Added ${behavior} ${shown} to ${file}.`];
  // The same rule with another behaviour still counts: say which one wins.
  const others = loaded.rules.filter((r) => {
    const p = parseRuleValue(r.rule);
    return r.behavior !== behavior && p !== undefined && sameRuleValue(p, target);
  });
  if (others.length > 0)
    lines.push(
      `Also in your settings: ${others.map((r) => `${r.behavior} ${shown}${r.path ? ` (${r.path})` : ''}`).join(', ')}; deny wins over ask, and ask over allow.`,
    );
  if (!settingsRuleApplies(SCOPE_SOURCE[scope], behavior, await host.projectTrusted()))
    lines.push(
      'It has no effect until this folder is trusted: project settings cannot allow in an untrusted folder.',
    );
  return lines.join('\n');
}

async function removeRule(words: readonly string[], host: CommandHost): Promise<string> {
  const parsed = takeScope(words);
  if (typeof parsed === 'string') return parsed;
  const rule = unquote(parsed.words.join(' ').trim());
  if (rule === '') return `Give the rule to remove. ${USAGE}`;
  const target = parseRuleValue(rule);
  if (!target)
    return `"${rule}" is not a permission rule; write it as Tool or Tool(specifier), e.g. "Bash(npm test)".`;
  const shown = formatRule(target);
  const loaded = await host.loadSettings();
  const matches = loaded.rules.filter((r) => {
    const p = parseRuleValue(r.rule);
    return p !== undefined && sameRuleValue(p, target);
  });
  const wanted: readonly RuleSource[] = parsed.scope
    ? [SCOPE_SOURCE[parsed.scope]]
    : ['localSettings', 'projectSettings', 'userSettings'];
  const files = [
    ...new Set(
      matches.filter((r) => wanted.includes(r.source) && r.path !== undefined).map((r) => r.path as string),
    ),
  ];
  if (files.length === 0) {
    if (matches.length === 0) return `${shown} is not in any settings file; /permissions lists the rules.`;
    const places = matches.map((r) => `${SOURCE_LABEL[r.source]}${r.path ? ` (${r.path})` : ''}`).join(', ');
    return `${shown} is not in ${parsed.scope ? `the ${parsed.scope} settings` : 'your settings files'}; it comes from ${places}.`;
  }
  const lines: string[] = [];
  for (const file of files) {
    try {
      await editSettingsFile(file, (json) => withoutRule(json, target));
      // Every list of the file loses it: say which (the same rule may be both allowed and denied).
      const held = new Set(matches.filter((r) => r.path === file).map((r) => r.behavior));
      const kinds = (['allow', 'ask', 'deny'] as const).filter((kind) => held.has(kind));
      lines.push(`Removed ${kinds.join(' and ')} ${shown} from ${file}.`);
    } catch (error) {
      lines.push(`Not removed from ${file}: ${(error as Error).message}`);
    }
  }
  if (lines.some((line) => line.startsWith('Removed'))) await host.reloadPermissionRules();
  return lines.join('\n');
}
