/**
 * Commands that run other commands. A permission check or the read-only classifier must look
 * through them: `env X=1 rm f`, `timeout 5 rm f`, `xargs rm`, `find -exec rm`, `sh -c 'rm f'`,
 * `eval "rm f"` and `bash <<EOF` all run `rm`.
 */
import { applyOptions, type CommandEffects, noEffects, refuse } from './command-effects';
import { isUnknownWord, parseArgs } from './option-parse';
import { compileTable, type OptionTable } from './option-table';
import { wrapperTableSources } from './tables/wrappers';
import type { ShellRedirect, ShellWord } from './types';
import { literalWord } from './words';

export type NestedCommand =
  /**
   * Runs `argv` directly (after the wrapper's own options). `env` carries `env X=1 …` assignments;
   * `own` is what the wrapper's options do themselves (`time -o FILE` writes, `xargs -a FILE`
   * reads); `chdir` is the folder `env -C DIR` runs it in; `input` says `xargs` adds words.
   */
  | {
      kind: 'argv';
      via: string;
      argv: ShellWord[];
      env: Array<{ name: string; value: ShellWord }>;
      own?: CommandEffects;
      chdir?: ShellWord;
      input?: InputWords;
    }
  /**
   * Runs shell source. `script` is undefined when it cannot be known statically (a dynamic
   * argument, a sourced file, a pipe into `sh`): a checker must then fail closed.
   */
  | { kind: 'script'; via: string; script: string | undefined };

/** Directories whose binaries are the standard tools, so `/usr/bin/ls` counts as `ls`. */
export const SYSTEM_BIN_DIRS: ReadonlySet<string> = new Set([
  '/bin',
  '/usr/bin',
  '/usr/local/bin',
  '/sbin',
  '/usr/sbin',
  '/usr/local/sbin',
  '/opt/homebrew/bin',
]);

/** The command's name for rule and table lookups; undefined when it is dynamic or a local path. */
export function commandBaseName(word: ShellWord | undefined): string | undefined {
  if (!word || word.dynamic || word.glob || word.tilde || word.value === '') return undefined;
  const slash = word.value.lastIndexOf('/');
  if (slash < 0) return word.value;
  return SYSTEM_BIN_DIRS.has(word.value.slice(0, slash)) ? word.value.slice(slash + 1) : undefined;
}

export const SHELL_INTERPRETERS: ReadonlySet<string> = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'ash',
  'mksh',
]);

/** Option tables of the wrappers (coreutils 9.1 / findutils 4.9 / GNU time 1.9 `--help`, bash `help`). */
let wrapperTables: Readonly<Record<string, OptionTable>> | undefined;
/** Built on first use, as the listed commands' tables are (read-only-commands.ts). */
const compiledWrapperTables = (): Readonly<Record<string, OptionTable>> => {
  wrapperTables ??= Object.fromEntries(
    Object.entries(wrapperTableSources()).map(([name, source]) => [name, compileTable(source)]),
  );
  return wrapperTables;
};

/** True for the wrappers with an option table: what they run is a unit of its own. */
export const hasWrapperTable = (name: string): boolean => Object.hasOwn(compiledWrapperTables(), name);

/** Words the program is given from input (`xargs`): appended, or put in place of a replace string. */
export type InputWords = { replace?: string };

/** Stands for the words `xargs` reads from its input: any number of unknown words. */
export const INPUT_WORDS: ShellWord = {
  text: '(words from input)',
  value: '',
  dynamic: true,
  glob: true,
  tilde: false,
};

/** The arguments as the program will receive them: input words appended or substituted. */
export function argsWithInput(argv: readonly ShellWord[], input: InputWords | undefined): ShellWord[] {
  if (!input) return [...argv];
  const { replace } = input;
  if (replace === undefined) return [...argv, INPUT_WORDS];
  return argv.map((word, i) =>
    i > 0 && replace !== '' && word.value.includes(replace) ? { ...word, dynamic: true } : word,
  );
}

/**
 * What a wrapper's own options do: where its command starts, what they read or write, the folder
 * they switch to, the input words, and (`env -S`) the option that makes a command line itself.
 */
type WrapperOptions = {
  start: number;
  own: CommandEffects;
  chdir?: ShellWord;
  input?: InputWords;
  runs?: { via: string; value?: ShellWord };
};

/** The wrapper's own options, read against its table. */
function wrapperOptions(name: string, args: readonly ShellWord[]): WrapperOptions | undefined {
  const table = compiledWrapperTables()[name] as OptionTable;
  const parsed = parseArgs(table, args);
  if (parsed.problem || parsed.anyOption.some((w) => !parsed.operands.some((o) => o.word === w)))
    return undefined;
  const own = noEffects();
  const runs = parsed.options.find((o) => o.spec.effect === 'run');
  const chdirOption = parsed.options.find((o) => o.spec.effect === 'chdir');
  applyOptions(name, table, { ...parsed, options: parsed.options.filter((o) => o !== chdirOption) }, own);
  const out: WrapperOptions = { start: parsed.firstOperand, own };
  if (runs) out.runs = { via: `${name} ${runs.spelling}`, ...(runs.value ? { value: runs.value } : {}) };
  if (chdirOption?.value) {
    if (isUnknownWord(chdirOption.value))
      refuse(
        own,
        `${name} ${chdirOption.spelling} ${chdirOption.value.text}: the folder is only known when it runs`,
      );
    out.chdir = chdirOption.value;
  }
  if (name === 'xargs') {
    const replace = parsed.options.filter((o) => o.name === '-I' || o.name === '--replace').pop();
    out.input = replace ? { replace: replace.value?.value ?? '{}' } : {};
  }
  return out;
}

function shellScript(
  interpreter: string,
  args: readonly ShellWord[],
  redirects: readonly ShellRedirect[],
): NestedCommand {
  // Options may follow `-c` (`bash -c -e 'cmd'`, `bash -c -- 'cmd'`, `bash -c -o errexit 'cmd'`):
  // the code string is the first operand after all of them, as bash reads it.
  let readsCode = false;
  let i = 0;
  for (; i < args.length; i++) {
    const value = (args[i] as ShellWord).value;
    if (value === '--' || value === '-') {
      i++;
      break;
    }
    if (/^[-+]o$/.test(value)) {
      i++;
      continue;
    }
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(value)) readsCode = true;
    else if (!value.startsWith('-') && !value.startsWith('+')) break;
  }
  const operand = args[i];
  if (readsCode)
    return {
      kind: 'script',
      via: interpreter,
      script: operand && !operand.dynamic ? operand.value : undefined,
    };
  // `bash file.sh`: the code is in a file we do not read here.
  if (operand) return { kind: 'script', via: interpreter, script: undefined };
  // No -c and no file: the shell reads its script from stdin.
  for (const redirect of redirects) {
    if (redirect.kind === 'heredoc' && redirect.heredoc) {
      const { body, quoted } = redirect.heredoc;
      const staticBody = quoted || !/[$`\\]/.test(body);
      return { kind: 'script', via: interpreter, script: staticBody ? body : undefined };
    }
    if (redirect.kind === 'herestring' && redirect.target) {
      const target = redirect.target;
      return { kind: 'script', via: interpreter, script: target.dynamic ? undefined : target.value };
    }
  }
  return { kind: 'script', via: interpreter, script: undefined };
}

const FIND_EXEC_ACTIONS: ReadonlySet<string> = new Set(['-exec', '-execdir', '-ok', '-okdir']);
const FD_EXEC_OPTIONS: ReadonlySet<string> = new Set(['-x', '--exec', '-X', '--exec-batch']);

/** fd's placeholders for the path it found (`{}`, `{/}`, `{//}`, `{.}`, `{/.}`). */
const FD_PLACEHOLDER = /\{(\/{0,2}|\.|\/\.)\}/;

/**
 * `find … -exec CMD… ;` and `fd … -x CMD…`: the command runs on what they find. A word holding
 * the placeholder stands for a found file (permissions/found-files.ts reads it as the search's
 * folders); fd appends the path when no word holds one, shown here as `{}`.
 */
function findExecs(tool: string, args: readonly ShellWord[]): NestedCommand[] {
  const actions = tool === 'find' ? FIND_EXEC_ACTIONS : FD_EXEC_OPTIONS;
  const nested: NestedCommand[] = [];
  for (let i = 0; i < args.length; i++) {
    if (!actions.has((args[i] as ShellWord).value)) continue;
    const via = (args[i] as ShellWord).value;
    const argv: ShellWord[] = [];
    for (i++; i < args.length; i++) {
      const value = (args[i] as ShellWord).value;
      if (value === ';' || value === '+') break;
      argv.push(args[i] as ShellWord);
    }
    const placed = argv.slice(1).some((word) => FD_PLACEHOLDER.test(word.value));
    if (tool !== 'find' && argv.length > 0 && !placed) argv.push(literalWord('{}'));
    nested.push({ kind: 'argv', via: `${tool} ${via}`, argv, env: [] });
  }
  return nested;
}

const ASSIGNMENT_WORD = /^([A-Za-z_][A-Za-z0-9_]*)=/s;

/**
 * The commands `argv` runs through a wrapper, one level deep (apply again to the result to
 * look further). Empty for an ordinary command. `redirects` supply a shell's stdin script.
 */
export function nestedCommands(
  argv: readonly ShellWord[],
  redirects: readonly ShellRedirect[] = [],
): NestedCommand[] {
  const name = commandBaseName(argv[0]);
  if (!name) return [];
  const args = argv.slice(1);
  if (name === 'eval') {
    const script = args.some((w) => w.dynamic) ? undefined : args.map((w) => w.value).join(' ');
    return [{ kind: 'script', via: 'eval', script }];
  }
  if (name === 'source' || name === '.') return [{ kind: 'script', via: name, script: undefined }];
  if (SHELL_INTERPRETERS.has(name)) return [shellScript(name, args, redirects)];
  if (name === 'find' || name === 'fd' || name === 'fdfind') return findExecs(name, args);
  if (!compiledWrapperTables()[name]) return [];
  const options = wrapperOptions(name, args);
  if (!options) return [{ kind: 'script', via: name, script: undefined }];
  // An option of the wrapper's own that runs something (`env -S 'cmd args'`, glued `-S'…'`,
  // clustered `-iS…`, abbreviated `--sp=…`) makes a command line no argument shows.
  // The string is looked at as shell source for deny rules; `env` splits it much as a shell would.
  if (options.runs) {
    const { via, value } = options.runs;
    const words = [value, ...args.slice(options.start)];
    const script = words.every((w) => w && !isUnknownWord(w))
      ? words.map((w) => (w as ShellWord).value).join(' ')
      : undefined;
    return [{ kind: 'script', via, script }];
  }
  // `command -v x` and `command -V x` only look a name up — when the option is `command`'s own:
  // in `command printf -v NAME …` the `-v` is printf's, and printf runs.
  const lookup = args.slice(0, options.start).some((w) => /^-[pvV]*[vV][pvV]*$/.test(w.value));
  if (name === 'command' && lookup) return [];
  let start = options.start;
  const env: Array<{ name: string; value: ShellWord }> = [];
  if (name === 'env') {
    // A lone `-` is an old spelling of `-i`.
    if (args[start]?.value === '-' && !isUnknownWord(args[start] as ShellWord)) start++;
    for (; start < args.length; start++) {
      const word = args[start] as ShellWord;
      const match = ASSIGNMENT_WORD.exec(word.value);
      if (!match) break;
      const value = word.value.slice(match[0].length);
      env.push({ name: match[1] as string, value: { ...word, value, text: value } });
    }
  }
  // `timeout` takes its duration before the command.
  if (name === 'timeout') start++;
  const rest = args.slice(start);
  const extra = {
    own: options.own,
    ...(options.chdir ? { chdir: options.chdir } : {}),
    ...(options.input ? { input: options.input } : {}),
  };
  if (rest.length === 0) {
    // Bare `xargs` runs `echo`; bare `env` prints the environment; the others run nothing.
    return name === 'xargs' ? [{ kind: 'argv', via: name, argv: [literalWord('echo')], env, ...extra }] : [];
  }
  return [{ kind: 'argv', via: name, argv: rest, env, ...extra }];
}
