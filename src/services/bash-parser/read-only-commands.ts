/**
 * The commands treated as read-only (seed 000 §3.5.1) and, next to them, how each one's arguments
 * are read: an option table (`tables/`) or a grammar of its own (sed, find, git, jq, xxd, printf,
 * strings). `commandEffects` is the one source both the Bash tool's read-only verdict and the
 * permission analysis use, so the two cannot disagree.
 *
 * `ack` is not on the list: it loads a `.ackrc` from the project, which can point it at files
 * outside the project (`--files-from`) without the command line showing it. `locate` is, but it
 * reads an index of the whole file system, so it counts as reading `/`.
 */
import { type CommandEffects, tableEffects } from './command-effects';
import { findEffects } from './find';
import { gitEffects } from './git';
import { compileTable, type OptionTable, type TableSource } from './option-table';
import { sedEffects } from './sed';
import { jqEffects, printfEffects, stringsEffects, xxdEffects } from './special-commands';
import { fileTables } from './tables/files';
import { searchTables } from './tables/search';
import { systemTables } from './tables/system';
import { textTables } from './tables/text';
import type { ShellWord } from './types';

export const BASH_SEARCH_COMMANDS: ReadonlySet<string> = new Set([
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'find',
  'fd',
  'fdfind',
  'locate',
]);

export const BASH_READ_COMMANDS: ReadonlySet<string> = new Set([
  'cat',
  'head',
  'tail',
  'wc',
  'jq',
  'sort',
  'uniq',
  'cut',
  'tr',
  'diff',
  'cmp',
  'comm',
  'nl',
  'od',
  'xxd',
  'hexdump',
  'strings',
  'column',
  'fold',
  'fmt',
  'paste',
  'rev',
  'tac',
  'expand',
  'unexpand',
  'base64',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'sha224sum',
  'sha384sum',
  'sha512sum',
  'shasum',
  'b2sum',
  'cksum',
  'sed',
  'file',
  'stat',
  'readlink',
  'realpath',
  'basename',
  'dirname',
  'git',
]);

export const BASH_LIST_COMMANDS: ReadonlySet<string> = new Set([
  'ls',
  'tree',
  'du',
  'df',
  'pwd',
  'which',
  'whereis',
  'type',
  'id',
  'whoami',
  'uname',
  'hostname',
  'date',
  'printenv',
  'nproc',
  'uptime',
  'groups',
  'locale',
  'tty',
  'arch',
  'cd',
]);

/** Commands that neither read nor write anything of note; they never spoil a read-only verdict. */
export const BASH_SEMANTIC_NEUTRAL_COMMANDS: ReadonlySet<string> = new Set([
  'echo',
  'printf',
  'true',
  'false',
  ':',
  'test',
  '[',
  'sleep',
  'seq',
]);

/**
 * Commands that run another command: read-only exactly when what they run is. Their option
 * grammar lives in `wrappers.ts`. (`nohup` is absent: it may create nohup.out.)
 */
export const BASH_WRAPPER_COMMANDS: ReadonlySet<string> = new Set([
  'env',
  'nice',
  'time',
  'timeout',
  'stdbuf',
  'builtin',
  'exec',
  'command',
  'xargs',
  'eval',
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
]);

export type ReadOnlyCategory = 'search' | 'read' | 'list' | 'neutral';

export function readOnlyCategory(name: string): ReadOnlyCategory | undefined {
  if (BASH_SEARCH_COMMANDS.has(name)) return 'search';
  if (BASH_READ_COMMANDS.has(name)) return 'read';
  if (BASH_LIST_COMMANDS.has(name)) return 'list';
  if (BASH_SEMANTIC_NEUTRAL_COMMANDS.has(name)) return 'neutral';
  return undefined;
}

/** Commands whose arguments follow a grammar of their own rather than an option table. */
export const GRAMMAR_COMMANDS: Readonly<Record<string, (args: readonly ShellWord[]) => CommandEffects>> = {
  sed: sedEffects,
  find: findEffects,
  git: gitEffects,
  jq: jqEffects,
  xxd: xxdEffects,
  printf: printfEffects,
  strings: stringsEffects,
};

/**
 * The option tables of the listed commands, as written (for the table tests and the manual
 * check). Built on the first check of a command line rather than at load: a session that never
 * checks one (most `-p` runs) does not pay for building them at start.
 */
export function optionTableSources(): Readonly<Record<string, TableSource>> {
  return { ...textTables(), ...systemTables(), ...searchTables(), ...fileTables() };
}

let optionTables: ReadonlyMap<string, OptionTable> | undefined;
const compiledOptionTables = (): ReadonlyMap<string, OptionTable> => {
  optionTables ??= new Map(
    Object.entries(optionTableSources()).map(([name, source]) => [name, compileTable(source)]),
  );
  return optionTables;
};

/**
 * What a listed (non-wrapper) command does with these arguments: the paths it reads and writes
 * and, when it is not read-only, why. Undefined for a command that is not on the lists.
 */
export function commandEffects(name: string, args: readonly ShellWord[]): CommandEffects | undefined {
  if (!readOnlyCategory(name)) return undefined;
  const grammar = GRAMMAR_COMMANDS[name];
  if (grammar) return grammar(args);
  const table = compiledOptionTables().get(name);
  if (table) return tableEffects(name, table, args);
  return { notReadOnly: `${name} has no option table`, reads: [], writes: [] };
}

/** True when a listed (non-wrapper) command with these arguments only searches, reads or lists. */
export function isReadOnlyInvocation(name: string, args: readonly ShellWord[]): boolean {
  const effects = commandEffects(name, args);
  return effects !== undefined && !effects.notReadOnly && effects.writes.length === 0;
}
