/**
 * Shell analysis on a real parse (tree-sitter-bash). `parseCommand` lists every simple command a
 * line runs; `isReadOnlyCommand` classifies it; the tables and wrapper helpers are exported so
 * permission rules can demand that every segment — and every command nested in `eval`, `sh -c`,
 * `xargs` or `find -exec` — is allowed, and check redirect targets as writes.
 */

export { GIT_READ_ONLY_SUBCOMMANDS, isReadOnlyGit } from './git';
export { bashParserProblem, loadBashParser } from './loader';
export { parseCommand } from './parse';
export { isReadOnlyCommand, isReadOnlyParsed } from './read-only';
export {
  BASH_LIST_COMMANDS,
  BASH_READ_COMMANDS,
  BASH_SEARCH_COMMANDS,
  BASH_SEMANTIC_NEUTRAL_COMMANDS,
  BASH_WRAPPER_COMMANDS,
  isReadOnlyInvocation,
  isSafeEnvAssignment,
  READ_ONLY_ARG_CHECKS,
  type ReadOnlyCategory,
  readOnlyCategory,
  SAFE_ENV_VARS,
} from './read-only-commands';
export { HARMLESS_WRITE_TARGETS, isFileWrite } from './redirects';
export { isReadOnlySed, isSafeSedScript } from './sed';
export type {
  ParsedCommand,
  RedirectKind,
  SegmentContext,
  SegmentKind,
  ShellRedirect,
  ShellSegment,
  ShellWord,
} from './types';
export {
  commandBaseName,
  type NestedCommand,
  nestedCommands,
  SHELL_INTERPRETERS,
  SYSTEM_BIN_DIRS,
} from './wrappers';
