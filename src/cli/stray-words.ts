/**
 * Words the shell split off a flag's value, or a prompt left unquoted, reach commander as extra
 * prompts and end in "too many arguments. Expected 1 argument but got 2." — which says nothing of
 * the fix. After the pre-pass every flag is one token (`--name=value`), so every other word is a
 * prompt, and more than one is a quoting mistake: said here with the quoting that fixes it. (A
 * list flag's further words are already in its list when they are rules: list-words.ts.)
 */

import { continuesRuleList } from './list-words';

/** Flags whose value is a list; the name the user most likely typed, for the message. */
const LIST_FLAGS: Readonly<Record<string, string>> = {
  '--allowed-tools': '--allowedTools',
  '--disallowed-tools': '--disallowedTools',
  '--tools': '--tools',
};

const count = (text: string, char: string) => text.split(char).length - 1;
const opens = (text: string) => count(text, '(') - count(text, ')');

/** A rule the shell cut at a space: the line that shows it joined and quoted. */
function cutRuleProblem(flagsPart: readonly string[], index: number): string | undefined {
  const previous = flagsPart[index - 1] ?? '';
  const eq = previous.indexOf('=');
  if (!previous.startsWith('--') || eq === -1) return undefined;
  const flag = previous.slice(0, eq);
  const value = previous.slice(eq + 1);
  if (opens(value) <= 0) return undefined;
  const shown = LIST_FLAGS[flag] ?? flag;
  // A rule with a space inside its parentheses, unquoted: join the words until they close.
  const parts = [value];
  for (let i = index; i < flagsPart.length && opens(parts.join(' ')) > 0; i++) {
    const word = flagsPart[i] as string;
    if (word.startsWith('-')) break;
    parts.push(word);
  }
  // A word that looked like a flag (`--force)`) was taken as one: the rest cannot be shown.
  const joined = opens(parts.join(' ')) > 0 ? `${parts.join(' ')} …)` : parts.join(' ');
  return (
    `${shown} ${JSON.stringify(value)} is cut off at a space: the shell split the rule into words. ` +
    `Quote it as one argument: ${shown} "${joined}".`
  );
}

/** The problem with `args` (the pre-pass's output), or undefined when at most one prompt is there. */
export function strayWordsProblem(args: readonly string[]): string | undefined {
  const end = args.indexOf('--');
  const flagsPart = end === -1 ? args : args.slice(0, end);
  const words = flagsPart.flatMap((token, index) => (token.startsWith('-') ? [] : [index]));
  // Checked even with one word: the cut-off half of a rule must not become the prompt.
  for (const index of words) {
    const cut = cutRuleProblem(flagsPart, index);
    if (cut !== undefined) return cut;
  }
  const prompts = words.length + (end === -1 ? 0 : args.length - end - 1);
  if (prompts <= 1) return undefined;

  for (const index of words) {
    const previous = flagsPart[index - 1] ?? '';
    const eq = previous.indexOf('=');
    const flag = previous.slice(0, Math.max(eq, 0));
    const shown = LIST_FLAGS[flag];
    if (!previous.startsWith('--') || eq === -1 || shown === undefined) continue;
    // The word after a list is not in it: `--allowedTools=Read Edit` (the = form takes one
    // argument, as in Claude Code) or a word that is no rule (list-words.ts).
    const value = previous.slice(eq + 1);
    const word = flagsPart[index] as string;
    const why = continuesRuleList(word)
      ? `${shown}=… takes one argument`
      : `"${word}" names no tool Yoke knows`;
    return (
      `"${word}" after ${shown} "${value}" was read as a prompt (${why}), so ${prompts} prompts came. ` +
      `If it is a rule, end the list with --: ${shown} "${value}" "${word}" -- "<prompt>", or join ` +
      `them with commas: ${shown} "${value},${word}".`
    );
  }
  const shown = [
    ...words.map((index) => flagsPart[index] as string),
    ...(end === -1 ? [] : args.slice(end + 1)),
  ];
  return (
    `the prompt must be one argument, but ${prompts} came (${shown.map((w) => JSON.stringify(w)).join(', ')}). ` +
    `Quote it: yoke -p "${shown.join(' ')}".`
  );
}
