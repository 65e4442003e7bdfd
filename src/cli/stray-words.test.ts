import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './parse-args';

/** The one line a command line stops with, or undefined when it parses. */
function problem(argv: string[]): string | undefined {
  try {
    parseCliArgs(argv);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('words the shell split off, instead of "too many arguments"', () => {
  it('a rule with a space, unquoted, is shown joined and quoted', () => {
    // What `yoke -p go --allowedTools Bash\(npm test\)` hands over: the shell split at the space.
    expect(problem(['-p', 'go', '--allowedTools', 'Bash(npm', 'test)'])).toBe(
      '--allowedTools "Bash(npm" is cut off at a space: the shell split the rule into words. Quote it as ' +
        'one argument: --allowedTools "Bash(npm test)".',
    );
    expect(problem(['--disallowed-tools=Bash(git', 'push', '--force)', '-p', 'go'])).toBe(
      '--disallowedTools "Bash(git" is cut off at a space: the shell split the rule into words. Quote it as ' +
        'one argument: --disallowedTools "Bash(git push …)".',
    );
  });

  it('a word after a list that is not in it, with a second prompt, is shown with commas and --', () => {
    // The = form takes one argument, as in Claude Code: "Edit" is then a second prompt.
    expect(problem(['-p', 'go', '--allowedTools=Read', 'Edit'])).toBe(
      '"Edit" after --allowedTools "Read" was read as a prompt (--allowedTools=… takes one argument), so 2 ' +
        'prompts came. If it is a rule, end the list with --: --allowedTools "Read" "Edit" -- "<prompt>", or ' +
        'join them with commas: --allowedTools "Read,Edit".',
    );
    // A word that is no rule ends the list: it is a prompt, and so is the next.
    expect(problem(['-p', '--disallowedTools', 'Bash', 'Foo', 'do it'])).toBe(
      '"Foo" after --disallowedTools "Bash" was read as a prompt ("Foo" names no tool Yoke knows), so 2 ' +
        'prompts came. If it is a rule, end the list with --: --disallowedTools "Bash" "Foo" -- "<prompt>", ' +
        'or join them with commas: --disallowedTools "Bash,Foo".',
    );
    // The fix it names works.
    expect(problem(['-p', '--disallowedTools', 'Bash', 'Foo', '--', 'do it'])).toBeUndefined();
  });

  it('a rule cut at a space is named even when no other prompt came', () => {
    expect(problem(['-p', '--allowedTools', 'Read', 'Bash(npm', 'test)'])).toBe(
      '--allowedTools "Bash(npm" is cut off at a space: the shell split the rule into words. Quote it as ' +
        'one argument: --allowedTools "Bash(npm test)".',
    );
  });

  it('an unquoted prompt is shown quoted', () => {
    expect(problem(['-p', 'fix', 'the', 'tests'])).toBe(
      'the prompt must be one argument, but 3 came ("fix", "the", "tests"). Quote it: yoke -p "fix the tests".',
    );
    expect(problem(['-p', 'one', '--', 'two'])).toMatch(/^the prompt must be one argument, but 2 came/);
  });

  it('lets the right forms through', () => {
    expect(problem(['-p', 'go', '--allowedTools', 'Bash(npm test),Edit'])).toBeUndefined();
    expect(problem(['-p', 'go', '--allowedTools=Bash(npm test:*)'])).toBeUndefined();
    expect(problem(['-p', '--', '--looks like a flag'])).toBeUndefined();
    expect(problem(['-p'])).toBeUndefined();
  });

  it('a mode in the wrong case or one letter off is named', () => {
    expect(problem(['-p', 'go', '--permission-mode', 'acceptedits'])).toMatch(
      /^--permission-mode must be one of .* \(got "acceptedits"; did you mean acceptEdits\?\)\.$/,
    );
  });
});
