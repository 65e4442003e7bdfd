/**
 * The environment that keeps a repository's own configuration from running anything in a git
 * command the shell analysis proved read-only — a second line behind git-config-safety, so even a
 * key the check missed, or a config file changed between the check and the run, stays inert.
 * Settings passed as `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n` override every
 * configuration file (an `include.path` too) and reach the `git status` git runs inside each
 * submodule. Calibrated key by key in git-config-safety.calibration.test.ts.
 *
 * What it cannot cover — drivers, filters and textconv commands are configured under names only
 * the repository knows, and an empty `diff.external` breaks `git diff` — is the check's job.
 */

type Env = Readonly<Record<string, string | undefined>>;

/**
 * - `core.fsmonitor=false`: the monitor hook `git status`, `diff` and `ls-files` start.
 * - `core.hooksPath=/dev/null`: no hook (post-index-change runs when status refreshes the index).
 * - `safe.bareRepository=explicit`: an embedded bare repository is refused unless named with
 *   `--git-dir` (git 2.38+), so its configuration is never read from inside it.
 * - `core.pager=cat`: with `GIT_PAGER` below, no pager (`pager.<cmd>` included) is ever started.
 */
export const NEUTRAL_GIT_CONFIG: ReadonlyArray<readonly [string, string]> = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['safe.bareRepository', 'explicit'],
  ['core.pager', 'cat'],
];

/** `env` plus `settings` as command-line configuration, after any the environment already has. */
export function withGitConfig(
  env: Env,
  settings: ReadonlyArray<readonly [string, string]>,
): Record<string, string | undefined> {
  const existing = Number(env.GIT_CONFIG_COUNT ?? '0');
  const start = Number.isInteger(existing) && existing >= 0 ? existing : 0;
  const out: Record<string, string | undefined> = {
    ...env,
    GIT_CONFIG_COUNT: String(start + settings.length),
  };
  settings.forEach(([key, value], i) => {
    out[`GIT_CONFIG_KEY_${start + i}`] = key;
    out[`GIT_CONFIG_VALUE_${start + i}`] = value;
  });
  return out;
}

/**
 * The environment for a command proven read-only: the neutral settings, no optional locks (so
 * `git status` does not rewrite the index, the write that runs post-index-change), and `cat` as
 * the pager (`GIT_PAGER` also beats a `pager.<cmd>` setting).
 */
export function neutralGitEnv(env: Env): Record<string, string | undefined> {
  return { ...withGitConfig(env, NEUTRAL_GIT_CONFIG), GIT_OPTIONAL_LOCKS: '0', GIT_PAGER: 'cat' };
}

export type GitResult = { code: number; stdout: string; stderr: string };

/** Runs git with no input; a failure to start or a timeout is exit code -1 with the reason in stderr. */
export function runGit(
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; maxBuffer: number },
): Promise<GitResult> {
  return new Promise((done) => {
    // child_process loads on the first call, not when the session starts.
    process
      .getBuiltinModule('node:child_process')
      .execFile(
        'git',
        [...args],
        {
          cwd: options.cwd,
          env: options.env,
          timeout: options.timeoutMs,
          maxBuffer: options.maxBuffer,
          encoding: 'utf8',
        },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
          done({ code, stdout, stderr: error && code === -1 ? `${stderr}${error.message}` : stderr });
        },
      )
      .stdin?.end();
  });
}
