/**
 * Shell analysis on a real parse (tree-sitter-bash). `parseCommand` lists every simple command a
 * line runs; `isReadOnlyCommand` classifies it; the tables and wrapper helpers are exported so
 * permission rules can demand that every segment — and every command nested in `eval`, `sh -c`,
 * `xargs` or `find -exec` — is allowed, and check redirect targets as writes.
 */

export {
  builtinAssignedNames,
  builtinCodeStrings,
  builtinReason,
  hasWrittenName,
} from './builtin-evaluation';
export type { CommandEffects, PathUse } from './command-effects';
export { dangerousEnvReason, isDangerousEnvVar, isSafeEnvAssignment, SAFE_ENV_VARS } from './env-vars';
export {
  GIT_READ_ONLY_SUBCOMMANDS,
  gitEffects,
  gitSubcommandIndex,
  gitSubcommandRuns,
  isReadOnlyGit,
} from './git';
export { bashParserProblem, loadBashParser } from './loader';
export { parseCommand } from './parse';
export { commandOptionRuns, PROGRAM_OPTIONS, programRunReason } from './program-options';
export { isReadOnlyCommand, isReadOnlyParsed } from './read-only';
export {
  BASH_LIST_COMMANDS,
  BASH_READ_COMMANDS,
  BASH_SEARCH_COMMANDS,
  BASH_SEMANTIC_NEUTRAL_COMMANDS,
  BASH_WRAPPER_COMMANDS,
  commandEffects,
  isReadOnlyInvocation,
  type ReadOnlyCategory,
  readOnlyCategory,
} from './read-only-commands';
export { HARMLESS_WRITE_TARGETS, isFileWrite } from './redirects';
export {
  analyzeSed,
  isPureSubstitution,
  type SedInvocation,
  type SedScriptEffects,
  sedPrintsOnly,
  sedScriptEffects,
} from './sed';
export type {
  ParsedCommand,
  RedirectKind,
  SegmentContext,
  SegmentKind,
  ShellRedirect,
  ShellSegment,
  ShellWord,
} from './types';
export { literalWord } from './words';
export {
  argsWithInput,
  commandBaseName,
  hasWrapperTable,
  type InputWords,
  type NestedCommand,
  nestedCommands,
  SHELL_INTERPRETERS,
  SYSTEM_BIN_DIRS,
} from './wrappers';
