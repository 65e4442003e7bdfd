/**
 * A deny (or ask) rule holds against every spelling of the command it names, not only against
 * the words as written. Before it runs them, the shell expands braces (`{rm,x}` is `rm x`, always),
 * matches patterns against the disk (`/bin/r?` is `/bin/rm`, `git pu[s]h` is `git push` once a
 * file `push` exists), and fills in words only known then (`git $x`, which may be `git push`, or
 * several words). git reads its own options before the subcommand (`git -C . push`), and options
 * mean the same split, reordered, long or after an operand (`rm -r -f`, `git push origin -f`). The
 * answer says why, as one phrase for the refusal, and whether the unit surely runs what the rule
 * names (braces, git's options, options spelt otherwise: denied) or only may (a pattern, an unknown word: asked, in every
 * mode, naming the rule).
 *
 * Wildcard rules (`Bash(git * --force)`) are matched against brace expansions only: a pattern or
 * an unknown word in the middle of a line does not say which text the wildcard would see.
 */
import { literalWord } from '../services/bash-parser';
import { type CompiledBashRule, compileBashRule, denyRuleMatchesUnit, matchWords } from './bash-rule-match';
import { describeRule } from './evaluation';
import { withLongOptionsWrittenOut } from './long-option-prefixes';
import { gitSubcommandIndex } from './shell-danger';
import { wordShapes } from './shell-expansion';
import { spelledPath } from './shell-paths';
import { allUnits, type ShellUnit } from './shell-unit';
import type { PermissionRule } from './types';

/** A command word after expansion: literal, a pattern the disk decides, or anything at all. */
type Slot = { literal: string } | { pattern: RegExp; name: RegExp; text: string } | { unknown: string };

/** The unit's words as the shell may pass them; after a pattern or an unknown word, nothing is known. */
function slotsOf(unit: ShellUnit): Slot[] {
  const slots: Slot[] = [];
  for (const word of unit.argv) {
    if (word.dynamic) return [...slots, { unknown: word.text }];
    if (!word.glob && !word.text.includes('{')) {
      slots.push({ literal: word.value });
      continue;
    }
    const shapes = wordShapes(word.text);
    if (!shapes) return [...slots, { unknown: word.text }];
    for (const shape of shapes) {
      if ('pattern' in shape) return [...slots, shape];
      slots.push({ literal: shape.text });
    }
  }
  return slots;
}

export const baseName = (word: string) => word.slice(word.lastIndexOf('/') + 1).normalize('NFKC');

/** A literal word the rule's word names; the command word by any path to it, as deny names match. */
const same = (literal: string, word: string, first: boolean) =>
  literal === word || (first && baseName(literal) === word);

export const literalUnit = (unit: ShellUnit, values: readonly string[]): ShellUnit => ({
  ...unit,
  argv: values.map(literalWord),
  redirects: [],
});

/** Prefix and exact rules against slots with a pattern or an unknown word in them. */
function doubtfulMatch(rule: CompiledBashRule, slots: readonly Slot[]): string | undefined {
  const words = rule.words;
  if (!words || (rule.form !== 'prefix' && rule.form !== 'exact')) return undefined;
  for (const [i, word] of words.entries()) {
    const slot = slots[i];
    if (!slot) return undefined;
    if ('unknown' in slot) return `\`${slot.unknown}\` is only known when it runs and may be \`${word}\``;
    if ('pattern' in slot) {
      const fits = slot.pattern.test(word) || (i === 0 && slot.name.test(word));
      return fits ? `\`${slot.text}\` is a pattern that may match \`${word}\`` : undefined;
    }
    if (!same(slot.literal, word, i === 0)) return undefined;
  }
  return undefined;
}

export type SpelledMatch = { reason: string; certain: boolean };

/**
 * Why the unit runs (or may run) what `rule` names though its words as written do not match it,
 * or undefined when it cannot.
 */
export function spelledMatch(rule: CompiledBashRule, unit: ShellUnit): SpelledMatch | undefined {
  if (unit.kind !== 'command' || rule.form === 'any') return undefined;
  // A deny names what must not run, redirects or not.
  const plain: CompiledBashRule = rule.form === 'exact' ? { ...rule, redirects: [] } : rule;
  const slots = slotsOf(unit);
  const literals = slots.flatMap((slot) => ('literal' in slot ? [slot.literal] : []));
  if (literals.length < slots.length) {
    const reason = doubtfulMatch(plain, slots);
    return reason ? { reason, certain: false } : undefined;
  }
  const expanded = literals.join(' ');
  const written = unit.argv.map((w) => w.value).join(' ');
  if (
    expanded !== written &&
    (matchWords(plain, literals, literalUnit(unit, literals)) || denyName(plain, literals, unit))
  )
    return { reason: `its words expand to \`${expanded}\``, certain: true };
  // `git -C . push`: the rule names the subcommand right after `git`.
  let words = literals;
  if (literals[0] !== undefined && baseName(literals[0]) === 'git') {
    const sub = gitSubcommandIndex(literals.slice(1)) + 1;
    if (sub > 1 && sub < literals.length) {
      words = ['git', ...literals.slice(sub)];
      if (matchWords(plain, words, literalUnit(unit, words)))
        return {
          reason: `git's own options (\`${literals.slice(1, sub).join(' ')}\`) come before the subcommand \`${literals[sub]}\``,
          certain: true,
        };
      const forcing = literals[sub] === 'push' ? forcingPushConfig(literals.slice(1, sub)) : undefined;
      if (forcing) {
        const forced = optionsMatch(plain, ['git', 'push', '--force', ...literals.slice(sub + 1)]);
        if (forced)
          return { reason: `\`${forcing}\` makes the push force-update the remote's refs`, certain: true };
      }
    }
  }
  const options = optionsMatch(plain, words);
  return options ? { reason: options, certain: true } : undefined;
}

/**
 * A `-c` setting among git's own options that forces every push: a push refspec led by `+` or a
 * mirror remote (calibrated: `git -c remote.origin.push=+main:main push origin` and `git -c
 * remote.origin.mirror=true push origin` each replaced an amended commit on a scratch remote).
 */
function forcingPushConfig(options: readonly string[]): string | undefined {
  for (const [i, option] of options.entries()) {
    const setting = option === '-c' ? options[i + 1] : option.startsWith('-c') ? option.slice(2) : undefined;
    if (setting && /^remote\..+\.(push=\+|mirror(=(true|yes|on|1))?$)/i.test(setting)) return `-c ${setting}`;
  }
  return undefined;
}

/**
 * Long options that are the same as a short one, for the commands deny rules most often name
 * with options (calibrated: `rm --recursive --force DIR`, `rm -r -f DIR`, `rm -fR DIR` each
 * removed DIR; `git push -f` force-pushed a rewritten commit to a scratch remote). A long
 * option is looked up by its name before any `=VALUE`. For git push, `--force-with-lease[=…]`
 * and `--mirror` force-update the remote's refs as `-f` does (calibrated: each replaced an amended
 * commit on a scratch remote, where a plain `git push` and `--force-if-includes` alone were
 * refused), and so does a refspec led by `+` (optionForm).
 */
const SAME_OPTION: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  rm: { '--recursive': '-r', '-R': '-r', '--force': '-f' },
  'git push': { '--force': '-f', '--force-with-lease': '-f', '--mirror': '-f' },
};

/** `git push origin +main`: a refspec led by `+` force-updates that ref. */
const forcedRefspec = (command: string, word: string) =>
  command === 'git push' && word.length > 1 && word.startsWith('+');

/** A command line's words other than options, and its options one by one (`-rf` is `-r -f`). */
function optionForm(words: readonly string[], command: string): { plain: string[]; options: Set<string> } {
  const plain: string[] = [];
  const options = new Set<string>();
  let ended = false;
  for (const word of words) {
    if (!ended && word === '--') ended = true;
    else if (forcedRefspec(command, word)) {
      options.add('-f');
      plain.push(word.slice(1));
    } else if (ended || !word.startsWith('-') || word === '-') plain.push(word);
    else if (/^-[a-zA-Z]{2,}$/.test(word)) for (const letter of word.slice(1)) options.add(`-${letter}`);
    else options.add(word);
  }
  const same = SAME_OPTION[command] ?? {};
  const named = (option: string) => same[option] ?? same[option.replace(/=.*$/, '')] ?? option;
  return { plain, options: new Set([...options].map(named)) };
}

/**
 * A prefix or exact rule that names options (`Bash(rm -rf:*)`, `Bash(git push --force:*)`) holds
 * against the same options spelt otherwise: split (`-r -f`), reordered (`-fr`), long (`--force`),
 * or after an operand (`git push origin --force`).
 */
function optionsMatch(rule: CompiledBashRule, words: readonly string[]): string | undefined {
  const ruleWords = rule.words;
  if (!ruleWords || (rule.form !== 'prefix' && rule.form !== 'exact') || words.length === 0) return undefined;
  if (!ruleWords.slice(1).some((w) => w.startsWith('-'))) return undefined;
  const base = [baseName(words[0] as string), ...words.slice(1)];
  const name = base[0] === 'git' && base[1] ? `git ${base[1]}` : (base[0] as string);
  // `rm --r --f`, `git push --force-w`: prefixes of long options, as the tools read them.
  const head = name.startsWith('git ') ? 2 : 1;
  const command = [...base.slice(0, head), ...withLongOptionsWrittenOut(name, base.slice(head))];
  const wanted = optionForm(ruleWords, name);
  const seen = optionForm(command, name);
  const samePlain =
    rule.form === 'exact'
      ? wanted.plain.length === seen.plain.length && wanted.plain.every((w, i) => seen.plain[i] === w)
      : wanted.plain.every((w, i) => seen.plain[i] === w);
  const hasOptions =
    [...wanted.options].every((o) => seen.options.has(o)) &&
    (rule.form === 'prefix' || wanted.options.size === seen.options.size);
  if (!samePlain || !hasOptions) return undefined;
  return `its options (${[...wanted.options].join(' ')}) are the rule's, spelt another way`;
}

/** The expanded words with the command word by its last path component (`/bin/{rm,x}` → `rm x`). */
function denyName(rule: CompiledBashRule, literals: readonly string[], unit: ShellUnit): boolean {
  const renamed = [baseName(literals[0] ?? ''), ...literals.slice(1)];
  return matchWords(rule, renamed, literalUnit(unit, renamed));
}

/** What a Bash deny rule says of one unit: denied (the refusal line), in doubt (why), or nothing. */
export async function bashDenyVerdict(
  rule: PermissionRule,
  unit: ShellUnit,
): Promise<{ denied: string } | { doubt: string } | undefined> {
  const compiled = await compileBashRule(rule.ruleContent);
  const named = `Denied by rule ${describeRule(rule)}: \`${unit.text}\``;
  if (denyRuleMatchesUnit(compiled, unit)) return { denied: `${named} may not run.` };
  const spelled = spelledMatch(compiled, unit);
  return spelled && spelledVerdict(rule, unit, spelled);
}

/** A deny rule's word on a unit that runs (or may run) what it names by another spelling. */
export function spelledVerdict(
  rule: PermissionRule,
  unit: ShellUnit,
  spelled: SpelledMatch,
): { denied: string } | { doubt: string } {
  if (spelled.certain)
    return {
      denied: `Denied by rule ${describeRule(rule)}: \`${unit.text}\` runs what it denies (${spelled.reason}).`,
    };
  return { doubt: `\`${unit.text}\` may run what ${describeRule(rule)} denies: ${spelled.reason}` };
}

/**
 * Code no rule can be checked against — an unparsable line, a script file, a shell reading its
 * input, an environment that changes what runs, and what `unreadCommands` names (unread-commands.ts)
 * — while a Bash deny or ask rule exists: that rule,
 * and why for each unit. Without such a rule there is nothing to keep, and nothing is said.
 */
export function hiddenCodeDoubts(
  units: readonly ShellUnit[],
  parseError: boolean,
  rules: readonly PermissionRule[],
  unreadCommands: (unit: ShellUnit) => string | undefined = () => undefined,
): { rule: PermissionRule; reasons: string[] } | undefined {
  const rule =
    rules.find((r) => r.toolName === 'Bash' && r.behavior === 'deny' && r.ruleContent !== undefined) ??
    rules.find((r) => r.toolName === 'Bash' && r.behavior === 'ask' && r.ruleContent !== undefined);
  if (!rule) return undefined;
  const against = `so it cannot be checked against ${describeRule(rule)}`;
  const reasons = parseError ? [`the command could not be parsed reliably, ${against}`] : [];
  for (const unit of allUnits(units)) {
    const hidden = unit.hiddenCode ?? unit.dangerousEnv ?? unit.evaluation ?? unreadCommands(unit);
    // An assignment alone (`BASH_CMDS[ls]=…`) has no command text: its reason names it.
    if (hidden) reasons.push(`${unit.text ? `\`${unit.text}\`: ` : ''}${hidden}, ${against}`);
  }
  return reasons.length > 0 ? { rule, reasons } : undefined;
}

/**
 * Reads and writes only known when the line runs (`cat "$f"`, `echo x > $f`, a path behind a
 * link the line itself makes) while a Read or Edit deny rule exists: any of them may be the
 * denied file, so the call asks in every mode, naming the rule.
 */
export function unknownPathDoubts(
  units: readonly ShellUnit[],
  readDenies: readonly PermissionRule[],
  editDenies: readonly PermissionRule[],
): { rule: PermissionRule; reason: string }[] {
  const doubts: { rule: PermissionRule; reason: string }[] = [];
  const [read, edit] = [readDenies[0], editDenies[0]];
  for (const unit of allUnits(units)) {
    for (const [paths, rule, what] of [
      [unit.reads, read, ''],
      [unit.writes, edit, 'written '],
    ] as const) {
      if (!rule) continue;
      for (const touched of paths) {
        if (spelledPath(touched) !== undefined) continue;
        const why = touched.unknownBecause ? ` (${touched.unknownBecause})` : '';
        doubts.push({
          rule,
          reason: `${touched.text} is only known when the command runs${why} and may be a ${what}file ${describeRule(rule)} denies`,
        });
      }
    }
  }
  return doubts;
}
