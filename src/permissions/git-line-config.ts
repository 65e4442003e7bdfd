/**
 * The settings of git's configuration that change what a git command line runs, as git itself
 * reads them for that line: the aliases (`alias.pf = push --force` makes `git pf` a force push)
 * and what a push does to a remote it is not told about on the line (`remote.<name>.mirror`, a
 * `remote.<name>.push` refspec led by `+`). The line's own `-C`, `-c`, `--git-dir`, `--work-tree`
 * and `--bare` are passed on, so the answer covers the repository and settings the command would
 * use, includes and the user's own files among them.
 *
 * For a push that names no remote, the branch checked out (`git symbolic-ref HEAD`) and the
 * settings git picks the remote by (`branch.<b>.pushRemote`, `remote.pushDefault`,
 * `branch.<b>.remote`) are read too.
 *
 * `git config --get-regexp` and `git symbolic-ref` read files and run nothing: no hook, no
 * fsmonitor (neither touches the index), no pager (standard output is a pipe, and `--no-pager`),
 * no alias (the subcommand is git's own) — proven against a repository planting each of them
 * (git-line-config.test.ts). A planted `include.path` naming a FIFO ends at the timeout.
 */
import { type GitResult, runGit } from './git-neutral-env';

export type GitSetting = { key: string; value: string | undefined; origin: string };
/** The branch checked out (undefined: a detached HEAD), or why it could not be read. */
export type GitHead = { branch: string | undefined } | { unknown: string };
export type GitLineSettings = { settings: GitSetting[]; head: () => Promise<GitHead> } | { unknown: string };

const KEYS =
  '^(alias\\..*|remote\\..*\\.(push|mirror)|remote\\.pushdefault|push\\.default|branch\\..*\\.(pushremote|remote))$';
const MAX_OUTPUT = 4 * 1024 * 1024;

/** git's own options that choose the repository or add settings, with the word each takes. */
const PASSED_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree']);
const PASSED_JOINED = /^(-C.|-c.|--git-dir=|--work-tree=)/;

/** The options before git's subcommand that decide which configuration it reads. */
export function configChoosingOptions(globals: readonly string[]): string[] {
  const passed: string[] = [];
  for (let i = 0; i < globals.length; i++) {
    const option = globals[i] as string;
    if (PASSED_WITH_VALUE.has(option) && i + 1 < globals.length) passed.push(option, globals[++i] as string);
    else if (PASSED_JOINED.test(option) || option === '--bare') passed.push(option);
  }
  return passed;
}

/** One `key\nvalue` field of `git config -z` (a key alone, with no `\n`, is set without a value). */
export function keyAndValue(pair: string): { key: string; value: string | undefined } {
  const newline = pair.indexOf('\n');
  return newline < 0
    ? { key: pair, value: undefined }
    : { key: pair.slice(0, newline), value: pair.slice(newline + 1) };
}

/** `git config -z --show-origin --get-regexp`: `origin\0key\nvalue\0` per entry. */
function parseSettings(output: string): GitSetting[] {
  const fields = output.split('\0');
  const settings: GitSetting[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2)
    settings.push({
      origin: (fields[i] as string).replace(/^file:/, ''),
      ...keyAndValue(fields[i + 1] as string),
    });
  return settings;
}

/** Reads the settings for one git line; one per session, on GitConfigSafety. */
export class GitLineConfig {
  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly timeoutMs: number,
  ) {}

  /** The settings git run from `directory` with `options` (from configChoosingOptions) would see. */
  async read(directory: string, options: readonly string[]): Promise<GitLineSettings> {
    const result: GitResult = await runGit(
      [...options, 'config', '-z', '--show-origin', '--get-regexp', KEYS],
      {
        cwd: directory,
        env: this.env,
        timeoutMs: this.timeoutMs,
        maxBuffer: MAX_OUTPUT,
      },
    );
    let head: Promise<GitHead> | undefined;
    const readHead = () => {
      head ??= this.head(directory, options);
      return head;
    };
    // Exit code 1: no such setting.
    if (result.code === 1 && result.stdout === '') return { settings: [], head: readHead };
    if (result.code !== 0)
      return {
        unknown: `git could not read the configuration it would use (${result.stderr.trim().split('\n')[0]})`,
      };
    return { settings: parseSettings(result.stdout), head: readHead };
  }

  /** The branch git run from `directory` with `options` has checked out. */
  private async head(directory: string, options: readonly string[]): Promise<GitHead> {
    const result = await runGit(['--no-pager', ...options, 'symbolic-ref', '-q', 'HEAD'], {
      cwd: directory,
      env: this.env,
      timeoutMs: this.timeoutMs,
      maxBuffer: MAX_OUTPUT,
    });
    const ref = result.stdout.trim();
    if (result.code === 0 && ref.startsWith('refs/heads/'))
      return { branch: ref.slice('refs/heads/'.length) };
    // Exit code 1 with -q: HEAD is detached.
    if (result.code === 1 && ref === '') return { branch: undefined };
    return { unknown: `git could not read the branch checked out (${result.stderr.trim().split('\n')[0]})` };
  }
}
