/**
 * What a `Bash(...)` specifier matches, one shell unit at a time:
 *   `Bash(npm test)`        exact: the same words (quoting may differ), the same file redirects
 *   `Bash(npm run:*)`       prefix, on whole words: `npm run`, `npm run build`, never `npm runner`
 *   `Bash(npm *)`           the same as `npm:*` (a trailing ` *` also matches the bare command)
 *   `Bash(git * main)`      wildcard: `*` is any text, spaces included; `np*` works inside a word
 *   `Bash` / `Bash(*)`      any command
 * Allow matching compares the command word as written, so `/bin/rm` never matches `rm:*`; deny
 * matching also tries the last path component, so a deny on `rm` catches `/bin/rm` and `./rm`.
 */
import { isFileWrite, parseCommand, type ShellRedirect } from '../services/bash-parser';
import type { ShellUnit } from './shell-unit';

export type BashRuleForm = 'any' | 'exact' | 'prefix' | 'wildcard';

export type CompiledBashRule = {
  form: BashRuleForm;
  /** The specifier as written (for exact whole-line comparison). */
  content: string;
  /** Exact and prefix rules: the words. Undefined for an exact rule naming a compound line. */
  words?: string[];
  /** Exact rules: the file-writing redirects, as `operator target`. */
  redirects?: string[];
  regex?: RegExp;
};

// Process-wide on purpose: a rule's compiled form depends on its text alone (no cwd, no session),
// so every session may share it; the keys are rule strings, few per process.
const cache = new Map<string, Promise<CompiledBashRule>>();

const redirectKey = (r: ShellRedirect) => `${r.operator.replace(/^\d+/, '')} ${r.target?.value ?? ''}`;

async function words(text: string): Promise<{ words?: string[]; redirects?: string[] }> {
  const parsed = await parseCommand(text);
  const [segment, ...more] = parsed.segments;
  if (parsed.parseError || !segment || more.length > 0 || segment.assignments.length > 0) return {};
  return {
    words: segment.argv.map((w) => w.value),
    redirects: segment.redirects.filter(isFileWrite).map(redirectKey).sort(),
  };
}

function wildcardRegex(content: string): RegExp {
  const body = content
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 's');
}

async function compile(content: string | undefined): Promise<CompiledBashRule> {
  if (content === undefined) return { form: 'any', content: '' };
  if (content.endsWith(':*')) {
    const head = content.slice(0, -2).trim();
    const parsed = await words(head);
    return parsed.words
      ? { form: 'prefix', content, words: parsed.words }
      : { form: 'wildcard', content, regex: wildcardRegex(`${head}*`) };
  }
  const star = content.indexOf('*');
  if (star >= 0) {
    const head = content.slice(0, -2);
    if (content.endsWith(' *') && !head.includes('*')) {
      const parsed = await words(head);
      if (parsed.words) return { form: 'prefix', content, words: parsed.words };
    }
    return { form: 'wildcard', content, regex: wildcardRegex(content) };
  }
  return { form: 'exact', content, ...(await words(content)) };
}

export function compileBashRule(content: string | undefined): Promise<CompiledBashRule> {
  const key = content ?? '\0any';
  let compiled = cache.get(key);
  if (!compiled) {
    compiled = compile(content);
    cache.set(key, compiled);
  }
  return compiled;
}

/** Exact and whole-command rules name what the user saw; the others cover commands never shown. */
export const isBroad = (rule: CompiledBashRule) => rule.form !== 'exact';

export function matchWords(rule: CompiledBashRule, values: readonly string[], unit: ShellUnit): boolean {
  switch (rule.form) {
    case 'any':
      return true;
    case 'prefix': {
      const head = rule.words as string[];
      if (values.length < head.length) return false;
      // A prefix word must be literal in the command: `git $SUB` is not `git status`.
      return head.every((word, i) => values[i] === word && !unit.argv[i]?.dynamic && !unit.argv[i]?.glob);
    }
    case 'wildcard':
      return (rule.regex as RegExp).test(values.join(' '));
    case 'exact': {
      if (!rule.words || rule.words.length !== values.length) return false;
      if (!rule.words.every((word, i) => word === values[i])) return false;
      const own = unit.redirects.filter(isFileWrite).map(redirectKey).sort();
      return (
        own.length === (rule.redirects?.length ?? 0) && own.every((key, i) => key === rule.redirects?.[i])
      );
    }
  }
}

/**
 * Whether an allow (or ask) rule covers this unit's command as written. `ignoreRedirects` lets an
 * exact rule name the command while its redirects are checked as file writes on their own.
 */
export function allowRuleMatchesUnit(
  rule: CompiledBashRule,
  unit: ShellUnit,
  ignoreRedirects = false,
): boolean {
  if (unit.kind !== 'command' || unit.nonAsciiName) return false;
  const target = ignoreRedirects && rule.form === 'exact' ? { ...rule, redirects: [] } : rule;
  const subject = ignoreRedirects ? { ...unit, redirects: [] } : unit;
  return matchWords(
    target,
    unit.argv.map((w) => w.value),
    subject,
  );
}

/** Whether a deny rule catches this unit, under any spelling of its command name. */
export function denyRuleMatchesUnit(rule: CompiledBashRule, unit: ShellUnit): boolean {
  if (unit.kind !== 'command' || unit.argv.length === 0) return false;
  const values = unit.argv.map((w) => w.value);
  if (matchWords(rule, values, unit)) return true;
  if (rule.form === 'exact' && values.length === rule.words?.length) {
    // A deny names what must not run, redirects or not.
    if (rule.words.every((word, i) => word === values[i])) return true;
  }
  if (unit.denyName === undefined || unit.denyName === values[0]) return false;
  const renamed = [unit.denyName, ...values.slice(1)];
  const plain = {
    ...unit,
    argv: unit.argv.map((w, i) => (i === 0 ? { ...w, value: unit.denyName as string } : w)),
    redirects: [],
  };
  return matchWords(rule.form === 'exact' ? { ...rule, redirects: [] } : rule, renamed, plain);
}
