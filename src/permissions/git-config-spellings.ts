/**
 * Deny and ask rules on git commands against what git's configuration makes a line run, read
 * from the configuration itself (git-line-config.ts), since the repository may be planted:
 * - an alias: `git pf origin main` with `alias.pf = push --force` is `git push --force origin
 *   main`, matched as written out; an alias running a shell command (`!…`) is code no rule can be
 *   checked against, and asks;
 * - a push the configuration forces: to a remote with `remote.<name>.mirror` set, or with a
 *   `remote.<name>.push` refspec led by `+`, a plain `git push` force-updates the remote's refs,
 *   so a rule on the forced push (`Bash(git push --force:*)`, `-f`) holds against it.
 *
 * Calibrated (git 2.39, a scratch bare remote holding `main` whose local commit was then amended;
 * each replaced the remote's `main`): `git push` and `git push origin` with `remote.origin.mirror`
 * (true or yes, or through an `include.path`, or reached through `remote.pushDefault`); `git
 * push`, `git push origin` and `git push origin main` with `remote.origin.push =
 * +refs/heads/main:refs/heads/main` (and `+main`); `git pf origin main` with `alias.pf = push
 * --force`, in `.git/config` or as `-c`. Refused, ref unchanged: `git push origin main` with a
 * mirror remote (git refuses refspecs with mirror), `git push origin HEAD` and `git push --all`
 * with the `+` refspec, a mirror remote pushed to by URL (`git push r.git`), `push.default` of
 * any value, `remote.origin.push = main`. So with a refspec on the line a `+` setting only may
 * force (asked); without one it surely does (denied).
 */
import { gitSubcommandRuns, literalWord } from '../services/bash-parser';
import { type CompiledBashRule, denyRuleMatchesUnit } from './bash-rule-match';
import { baseName, literalUnit, type SpelledMatch, spelledMatch } from './deny-spellings';
import { nearestExisting } from './git-config-safety';
import {
  configChoosingOptions,
  type GitHead,
  type GitLineSettings,
  type GitSetting,
} from './git-line-config';
import { gitSubcommandIndex } from './shell-danger';
import type { ShellUnit } from './shell-unit';

export type ReadLineConfig = (directory: string, options: readonly string[]) => Promise<GitLineSettings>;

/** git stops expanding aliases that loop; this bound is for aliases naming other aliases. */
const MAX_ALIAS_DEPTH = 8;

/** git push's options that take the next word as their value. */
const PUSH_WITH_VALUE = new Set(['--repo', '-o', '--push-option', '--receive-pack', '--exec']);
/** Options that choose the refs as a refspec would. */
const PUSH_REF_CHOOSERS = new Set(['--all', '--branches', '--tags']);

const TRUE = /^(true|yes|on|1)$/i;

/** Whether the rule takes the line with these words: surely (no reason) or by another spelling. */
function ruleTakes(
  rule: CompiledBashRule,
  unit: ShellUnit,
  words: readonly string[],
): SpelledMatch | undefined {
  const written = literalUnit(unit, words);
  if (denyRuleMatchesUnit(rule, written)) return { reason: '', certain: true };
  return spelledMatch(rule, written);
}

/** An alias's words as git splits them (quotes and backslashes), or undefined when unbalanced. */
export function splitAlias(body: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i] as string;
    if (ch === '\\' && quote !== "'" && i + 1 < body.length) word = (word ?? '') + body[++i];
    else if (quote) {
      if (ch === quote) quote = undefined;
      else word = (word ?? '') + ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      word ??= '';
    } else if (/\s/.test(ch)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + ch;
  }
  if (quote) return undefined;
  if (word !== undefined) words.push(word);
  return words;
}

const lastOf = (settings: readonly GitSetting[], key: string) => settings.filter((s) => s.key === key).at(-1);

/** The remote named on the push line and whether refs are chosen on it. */
function pushOperands(args: readonly string[]): { remote?: string; choosesRefs: boolean } {
  const operands: string[] = [];
  let remote: string | undefined;
  let choosesRefs = false;
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (ended || !arg.startsWith('-') || arg === '-') operands.push(arg);
    else if (arg === '--') ended = true;
    else if (arg === '--repo') remote = args[++i];
    else if (arg.startsWith('--repo=')) remote = arg.slice('--repo='.length);
    else if (PUSH_WITH_VALUE.has(arg)) i++;
    else if (PUSH_REF_CHOOSERS.has(arg)) choosesRefs = true;
  }
  const [first, ...refspecs] = operands;
  return {
    ...((first ?? remote) === undefined ? {} : { remote: first ?? remote }),
    choosesRefs: choosesRefs || refspecs.length > 0,
  };
}

/** The setting that makes a push to `remote` force-update refs, and whether it surely does. */
function forcingSetting(
  settings: readonly GitSetting[],
  remote: string,
  choosesRefs: boolean,
): SpelledMatch | undefined {
  const mirror = lastOf(settings, `remote.${remote}.mirror`);
  if (mirror && (mirror.value === undefined || TRUE.test(mirror.value)) && !choosesRefs)
    return {
      reason: `\`remote.${remote}.mirror\` (in ${mirror.origin}) makes the push mirror every ref, force-updating the remote's`,
      certain: true,
    };
  const plus = settings.find((s) => s.key === `remote.${remote}.push` && s.value?.startsWith('+'));
  if (plus)
    return {
      reason: `\`remote.${remote}.push = ${plus.value}\` (in ${plus.origin}) force-updates the refs it names`,
      certain: !choosesRefs,
    };
  return undefined;
}

/**
 * The remote a push that names none goes to, as git picks it (remote.c, pushremote_for_branch):
 * the branch's `pushRemote`, else `remote.pushDefault`, else the branch's `remote`, else
 * `origin`; on a detached HEAD, `remote.pushDefault` or `origin`. With what chose it, for the
 * reason. `git config` prints a key's section and name in lower case, its subsection (the
 * branch) as written.
 */
export function pushRemote(
  settings: readonly GitSetting[],
  branch: string | undefined,
): { name: string; chosenBy: string } {
  const keys = [
    ...(branch === undefined ? [] : [`branch.${branch}.pushremote`]),
    'remote.pushdefault',
    ...(branch === undefined ? [] : [`branch.${branch}.remote`]),
  ];
  for (const key of keys) {
    const found = lastOf(settings, key);
    if (found?.value)
      return { name: found.value, chosenBy: `\`${key} = ${found.value}\` (in ${found.origin})` };
  }
  return { name: 'origin', chosenBy: 'no setting names a remote, so git pushes to `origin`' };
}

async function pushVerdict(
  rule: CompiledBashRule,
  unit: ShellUnit,
  head: readonly string[],
  args: readonly string[],
  found: { settings: readonly GitSetting[]; head: () => Promise<GitHead> },
): Promise<SpelledMatch | undefined> {
  if (!ruleTakes(rule, unit, [...head, 'push', '--force', ...args])) return undefined;
  const { settings } = found;
  const { remote, choosesRefs } = pushOperands(args);
  if (remote !== undefined) return forcingSetting(settings, remote, choosesRefs);
  // No remote on the line: git takes the one the checked-out branch's settings name.
  const checkedOut = await found.head();
  if ('unknown' in checkedOut) {
    const forcing = configuredRemotes(settings).map((name) => forcingSetting(settings, name, choosesRefs))[0];
    return forcing && { reason: `${checkedOut.unknown}, and ${forcing.reason}`, certain: false };
  }
  const picked = pushRemote(settings, checkedOut.branch);
  const forcing = forcingSetting(settings, picked.name, choosesRefs);
  return forcing && { ...forcing, reason: `${picked.chosenBy}, and ${forcing.reason}` };
}

/** Remotes with a setting that may force a push, for when git's choice among them is unknown. */
function configuredRemotes(settings: readonly GitSetting[]): string[] {
  const names = settings.flatMap((s) => /^remote\.(.+)\.(push|mirror)$/.exec(s.key)?.[1] ?? []);
  return [...new Set(names)];
}

/** What git's configuration makes of the line's words after git's own options. */
async function judge(
  rule: CompiledBashRule,
  unit: ShellUnit,
  head: readonly string[],
  words: readonly string[],
  found: { settings: readonly GitSetting[]; head: () => Promise<GitHead> },
  programs: boolean,
): Promise<SpelledMatch | undefined> {
  const { settings } = found;
  let expanded = [...words];
  const chain: string[] = [];
  for (let depth = 0; depth < MAX_ALIAS_DEPTH; depth++) {
    const alias = lastOf(settings, `alias.${(expanded[0] as string).toLowerCase()}`);
    if (!alias) break;
    const body = alias.value ?? '';
    const shown = `\`git ${expanded[0]}\` is the alias \`${body}\` (in ${alias.origin})`;
    if (body.trimStart().startsWith('!'))
      return { reason: `${shown}, a shell command no rule can be checked against`, certain: false };
    const split = splitAlias(body);
    if (!split || split.length === 0)
      return { reason: `${shown}, which git cannot split into words`, certain: false };
    expanded = [...split, ...expanded.slice(1)];
    chain.push(shown);
  }
  if (chain.length > 0) {
    const taken = ruleTakes(rule, unit, [...head, ...expanded]);
    if (taken) return { reason: [...chain, taken.reason].filter(Boolean).join('; '), certain: taken.certain };
    // `alias.x = rebase --exec 'touch y'`: the program an option of the written-out line names.
    const runs = programs ? gitSubcommandRuns(expanded.map(literalWord)) : undefined;
    if (runs)
      return { reason: `${chain.join('; ')}; ${runs}, which no rule can be checked against`, certain: false };
  }
  if (expanded[0] !== 'push') return undefined;
  const forced = await pushVerdict(rule, unit, head, expanded.slice(1), found);
  return forced && { ...forced, reason: [...chain, forced.reason].join('; ') };
}

/**
 * Why the git unit runs (or may run) what `rule` names once git's configuration is applied, or
 * undefined. `read` gives the configuration for a folder and git's options (memoized per line).
 */
export async function gitConfigSpelling(
  rule: CompiledBashRule,
  unit: ShellUnit,
  read: ReadLineConfig,
  /** Whether a program an alias's options name counts (a deny rule: yes; the forced-push check: no). */
  programs = true,
): Promise<SpelledMatch | undefined> {
  if (unit.kind !== 'command' || rule.form === 'any') return undefined;
  // A word only known when it runs is doubted by deny-spellings already.
  if (unit.argv.some((w) => w.dynamic || w.glob)) return undefined;
  const literals = unit.argv.map((w) => w.value);
  if (literals[0] === undefined || baseName(literals[0]) !== 'git') return undefined;
  const sub = gitSubcommandIndex(literals.slice(1)) + 1;
  if (sub >= literals.length) return undefined;
  const globals = literals.slice(1, sub);
  const head = literals.slice(0, sub);
  const words = literals.slice(sub);
  if (globals.some((o) => o === '--config-env' || o.startsWith('--config-env=')))
    return {
      reason: '`--config-env` takes a setting of git from an environment variable only known when it runs',
      certain: false,
    };
  const mayForce = () => ruleTakes(rule, unit, [...head, 'push', '--force', ...words.slice(1)]) !== undefined;
  if ('unknown' in unit.cwd)
    return words[0] === 'push' && mayForce()
      ? {
          reason: `the folder it runs in is only known when it runs, so git's push settings are unknown`,
          certain: false,
        }
      : undefined;
  for (const dir of unit.cwd.dirs) {
    let found: GitLineSettings;
    try {
      found = await read(nearestExisting(dir), configChoosingOptions(globals));
    } catch (error) {
      found = { unknown: `the folder ${dir} cannot be read (${(error as Error).message})` };
    }
    if ('unknown' in found) {
      if (words[0] === 'push' && mayForce()) return { reason: found.unknown, certain: false };
      continue;
    }
    const verdict = await judge(rule, unit, head, words, found, programs);
    if (verdict) return verdict;
  }
  return undefined;
}
