/**
 * `isReadOnlyCommand`: true only when every command a line would run just searches, reads or
 * lists, nothing writes to a file, and nothing hides what runs. Any doubt answers false — the
 * cost of a false "no" is a permission prompt; the cost of a false "yes" is an unasked write.
 */
import { builtinAssignedNames, builtinReason } from './builtin-evaluation';
import { isDangerousEnvVar, isSafeEnvAssignment } from './env-vars';
import { parseCommand } from './parse';
import { BASH_WRAPPER_COMMANDS, isReadOnlyInvocation } from './read-only-commands';
import { isFileWrite } from './redirects';
import type { ParsedCommand, ShellRedirect, ShellSegment, ShellWord } from './types';
import { argsWithInput, commandBaseName, type InputWords, nestedCommands } from './wrappers';

/** How deep `bash -c "bash -c '…'"` and wrapper chains are followed before giving up. */
const MAX_NESTING = 4;

async function isReadOnlyArgv(
  written: readonly ShellWord[],
  redirects: readonly ShellRedirect[],
  depth: number,
  input?: InputWords,
): Promise<boolean> {
  const name = commandBaseName(written[0]);
  if (!name) return false;
  // `xargs CMD` gives CMD more words from its input: judge CMD with them.
  const argv = argsWithInput(written, input);
  // `printf -v "$x"`, `[ -v "$x" ]`: a builtin that evaluates an argument, or assigns a variable
  // an exported one (`PAGER`) would hand to the programs after it.
  if (builtinReason(argv)) return false;
  if (builtinAssignedNames(argv).some(({ name: set, computed }) => computed || isDangerousEnvVar(set)))
    return false;
  if (!BASH_WRAPPER_COMMANDS.has(name)) return isReadOnlyInvocation(name, argv.slice(1));
  if (depth >= MAX_NESTING) return false;
  for (const nested of nestedCommands(argv, redirects)) {
    if (nested.kind === 'script') {
      if (nested.script === undefined || !(await isReadOnlyAt(nested.script, depth + 1))) return false;
      continue;
    }
    if (nested.own && (nested.own.notReadOnly || nested.own.writes.length > 0)) return false;
    if (!nested.env.every(({ name: variable, value }) => isSafeEnvAssignment(variable, value))) return false;
    if (nested.argv.length > 0 && !(await isReadOnlyArgv(nested.argv, [], depth + 1, nested.input)))
      return false;
  }
  // A shell with neither `-c` nor stdin script would have produced a nested entry; bare `env`,
  // `command -v x` and friends run nothing further.
  return true;
}

function isReadOnlyDeclaration(segment: ShellSegment): boolean {
  const keyword = segment.argv[0]?.value;
  if (keyword !== 'export' && keyword !== 'declare' && keyword !== 'local' && keyword !== 'typeset')
    return false;
  if (builtinReason(segment.argv)) return false;
  return segment.argv.slice(1).every((word) => {
    if (word.dynamic) return false;
    const eq = word.value.indexOf('=');
    if (eq < 0) return true; // `export NAME` or an option: no new value
    return isSafeEnvAssignment(word.value.slice(0, eq), { ...word, value: word.value.slice(eq + 1) });
  });
}

async function isReadOnlySegment(segment: ShellSegment, depth: number): Promise<boolean> {
  if (segment.evaluates) return false;
  if (segment.redirects.some(isFileWrite)) return false;
  if (!segment.assignments.every(({ name, value }) => isSafeEnvAssignment(name, value))) return false;
  switch (segment.kind) {
    case 'test':
    case 'assignment':
    case 'redirection':
      return true;
    case 'compound':
      // `for PAGER in …` assigns the loop variable; exported, programs in the body would see it.
      return segment.loopVariable === undefined || !isDangerousEnvVar(segment.loopVariable);
    case 'declaration':
      return isReadOnlyDeclaration(segment);
    case 'command':
      return isReadOnlyArgv(segment.argv, segment.redirects, depth);
  }
}

/** The verdict for an already parsed command line. */
export async function isReadOnlyParsed(parsed: ParsedCommand, depth = 0): Promise<boolean> {
  if (parsed.parseError || parsed.hasCommandSubstitution || parsed.hasProcessSubstitution) return false;
  if (parsed.segments.length === 0) return false;
  for (const segment of parsed.segments) {
    if (!(await isReadOnlySegment(segment, depth))) return false;
  }
  return true;
}

async function isReadOnlyAt(source: string, depth: number): Promise<boolean> {
  return isReadOnlyParsed(await parseCommand(source), depth);
}

/**
 * True only when every segment of `source` is a search/read/list command (or a neutral one like
 * `echo`), no redirect writes a file (`/dev/null` and fd duplication are fine), there is no
 * command or process substitution, no behaviour-changing env prefix, and the line parses cleanly.
 */
export function isReadOnlyCommand(source: string): Promise<boolean> {
  return isReadOnlyAt(source, 0);
}
