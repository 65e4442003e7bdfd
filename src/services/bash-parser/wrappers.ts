/**
 * Commands that run other commands. A permission check or the read-only classifier must look
 * through them: `env X=1 rm f`, `timeout 5 rm f`, `xargs rm`, `find -exec rm`, `sh -c 'rm f'`,
 * `eval "rm f"` and `bash <<EOF` all run `rm`.
 */
import type { ShellRedirect, ShellWord } from './types';
import { literalWord } from './words';

export type NestedCommand =
  /** Runs `argv` directly (after the wrapper's own options). `env` carries `env X=1 …` assignments. */
  | { kind: 'argv'; via: string; argv: ShellWord[]; env: Array<{ name: string; value: ShellWord }> }
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

/** Per wrapper: options that take a separate argument, and options that take none. */
type OptionSpec = { withArg: ReadonlySet<string>; flags: ReadonlySet<string> };

const spec = (withArg: string[], flags: string[]): OptionSpec => ({
  withArg: new Set(withArg),
  flags: new Set(flags),
});

const PREFIX_WRAPPERS: Record<string, OptionSpec> = {
  nice: spec(['-n', '--adjustment'], []),
  nohup: spec([], []),
  time: spec([], ['-p']),
  timeout: spec(
    ['-s', '--signal', '-k', '--kill-after'],
    ['--foreground', '--preserve-status', '-v', '--verbose'],
  ),
  stdbuf: spec(['-i', '-o', '-e', '--input', '--output', '--error'], []),
  builtin: spec([], []),
  exec: spec(['-a'], ['-c', '-l']),
  command: spec([], ['-p']),
  xargs: spec(
    ['-I', '-n', '-P', '-L', '-s', '-d', '-E', '-a', '--max-args', '--max-procs', '--max-lines'],
    ['-0', '-r', '-t', '-p', '-x', '--null', '--no-run-if-empty', '--verbose', '--interactive', '--exit'],
  ),
  env: spec(['-u', '--unset', '-C', '--chdir'], ['-i', '-', '-0', '--null', '--ignore-environment']),
};

/** Index of the first word after the wrapper's options, or -1 when an option is not understood. */
function skipOptions(args: readonly ShellWord[], options: OptionSpec, wrapper: string): number {
  let i = 0;
  while (i < args.length) {
    const word = args[i] as ShellWord;
    const value = word.value;
    if (value === '--') return i + 1;
    if (options.flags.has(value)) {
      i += 1;
      continue;
    }
    if (!value.startsWith('-') || value === '-') break;
    if (options.withArg.has(value)) {
      i += 2;
      continue;
    }
    const eq = value.indexOf('=');
    if (eq > 0 && options.withArg.has(value.slice(0, eq))) {
      i += 1;
      continue;
    }
    // Glued short options: `-n5`, `-oL`, `-I{}`; `nice -5` is an old spelling of `-n 5`.
    const short = value.slice(0, 2);
    if (value.length > 2 && !value.startsWith('--') && options.withArg.has(short)) {
      i += 1;
      continue;
    }
    if (wrapper === 'nice' && /^-\d+$/.test(value)) {
      i += 1;
      continue;
    }
    if (wrapper === 'xargs' && /^-[iel]/.test(value)) {
      i += 1;
      continue;
    }
    return -1;
  }
  return i;
}

function shellScript(
  interpreter: string,
  args: readonly ShellWord[],
  redirects: readonly ShellRedirect[],
): NestedCommand {
  for (let i = 0; i < args.length; i++) {
    const value = (args[i] as ShellWord).value;
    if (value === '--') break;
    if (/^[-+]o$/.test(value)) {
      i++;
      continue;
    }
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(value)) {
      const script = args[i + 1];
      return {
        kind: 'script',
        via: interpreter,
        script: script && !script.dynamic ? script.value : undefined,
      };
    }
    if (!value.startsWith('-') && !value.startsWith('+')) {
      // `bash file.sh`: the code is in a file we do not read here.
      return { kind: 'script', via: interpreter, script: undefined };
    }
  }
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

function findExecs(args: readonly ShellWord[]): NestedCommand[] {
  const nested: NestedCommand[] = [];
  for (let i = 0; i < args.length; i++) {
    if (!FIND_EXEC_ACTIONS.has((args[i] as ShellWord).value)) continue;
    const via = (args[i] as ShellWord).value;
    const argv: ShellWord[] = [];
    for (i++; i < args.length; i++) {
      const value = (args[i] as ShellWord).value;
      if (value === ';' || value === '+') break;
      argv.push(args[i] as ShellWord);
    }
    nested.push({ kind: 'argv', via: `find ${via}`, argv, env: [] });
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
  if (name === 'find') return findExecs(args);
  const options = PREFIX_WRAPPERS[name];
  if (!options) return [];
  // `env -S 'cmd args'` splits a string into a command line: treat it as shell source.
  if (name === 'env' && args.some((w) => w.value === '-S' || w.value.startsWith('--split-string'))) {
    return [{ kind: 'script', via: 'env -S', script: undefined }];
  }
  // `command -v x` and `command -V x` only look a name up.
  if (name === 'command' && args.some((w) => w.value === '-v' || w.value === '-V')) return [];
  let start = skipOptions(args, options, name);
  if (start < 0) return [{ kind: 'script', via: name, script: undefined }];
  const env: Array<{ name: string; value: ShellWord }> = [];
  if (name === 'env') {
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
  if (rest.length === 0) {
    // Bare `xargs` runs `echo`; bare `env` prints the environment; the others run nothing.
    return name === 'xargs' ? [{ kind: 'argv', via: name, argv: [literalWord('echo')], env }] : [];
  }
  return [{ kind: 'argv', via: name, argv: rest, env }];
}
