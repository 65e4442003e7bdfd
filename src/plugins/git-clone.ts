/**
 * Fetches a plugin or marketplace repository with the system git: `git clone --depth 1`, argv
 * only (never a shell string), no terminal prompt, and only the transports that move data.
 * `ext::` (runs any command as the "transport"), `fd::` and other `<helper>::` addresses are
 * refused by name before git starts, and `GIT_ALLOW_PROTOCOL` limits git itself to
 * file/git/http/https/ssh whatever the user's git configuration allows — two independent locks,
 * each calibrated in git-clone.test.ts with an `ext::` URL that does run a command when allowed.
 */
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runGit } from '../permissions/git-neutral-env';

type Env = Readonly<Record<string, string | undefined>>;

/** The transports a clone may use; `GIT_ALLOW_PROTOCOL` makes every other one "never". */
export const ALLOWED_GIT_PROTOCOLS = 'file:git:http:https:ssh';

const URL_SCHEMES = /^(https?|ssh|git|file):\/\//i;
/** `user@host:path`, git's scp-like ssh form (no `/` before the colon, so not a local path). */
const SCP_LIKE = /^[A-Za-z0-9._~-]+@[A-Za-z0-9.-]+:[^:]/;
/** `<helper>::<address>`: a remote helper picked by the URL, e.g. `ext::sh -c …`. */
const HELPER_PREFIX = /^[A-Za-z0-9][A-Za-z0-9+.-]*::/;

/** A URL git would fetch over the network or `file://` (not a bare path, not `name@marketplace`). */
export const looksLikeGitUrl = (text: string): boolean =>
  URL_SCHEMES.test(text) || SCP_LIKE.test(text) || HELPER_PREFIX.test(text);

/** Why `url` may not be cloned, or undefined when it may. */
export function gitUrlProblem(url: string): string | undefined {
  if (url === '') return 'the git URL is empty';
  if (/[\u0000-\u001f\u007f]/.test(url)) return 'the git URL contains control characters';
  if (url.startsWith('-')) return `"${url}" starts with "-" and would be read by git as an option`;
  if (HELPER_PREFIX.test(url)) {
    const helper = url.slice(0, url.indexOf('::'));
    return `"${helper}::" URLs run a git remote helper (ext:: runs any command); only https, http, ssh, git and file sources are fetched`;
  }
  if (URL_SCHEMES.test(url) || SCP_LIKE.test(url) || url.startsWith('/')) return undefined;
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(url)) {
    return `"${url}" uses a transport Yoke does not fetch; use an https, ssh, git or file URL`;
  }
  return `"${url}" is not a git URL (https://…, ssh://…, git@host:path, file://… or an absolute path)`;
}

export class GitCloneError extends Error {}

export type CloneRequest = {
  url: string;
  /** Where the checkout ends up; it must not exist yet. */
  dest: string;
  ref?: string;
  sha?: string;
  env: Env;
};

/** The environment every plugin git command runs with. */
export function cloneEnv(env: Env): NodeJS.ProcessEnv {
  return {
    ...env,
    GIT_ALLOW_PROTOCOL: ALLOWED_GIT_PROTOCOLS,
    GIT_TERMINAL_PROMPT: '0',
    // A clone must not wait for an ssh passphrase or host-key question nobody sees (a user's own ssh command is kept).
    ...('GIT_SSH_COMMAND' in env ? {} : { GIT_SSH_COMMAND: 'ssh -o BatchMode=yes' }),
  } as NodeJS.ProcessEnv;
}

const CLONE_TIMEOUT_MS = 5 * 60_000;

/**
 * Clones into a temporary folder beside `dest`, then renames it into place: a failed or cut-off
 * clone leaves nothing at `dest`. Returns the commit checked out.
 */
export async function cloneRepository(request: CloneRequest): Promise<{ commit: string }> {
  const problem = gitUrlProblem(request.url);
  if (problem) throw new GitCloneError(problem);
  if (request.ref?.startsWith('-')) throw new GitCloneError(`ref "${request.ref}" starts with "-"`);
  const staging = await mkdtemp(join(dirname(request.dest), '.clone-'));
  const checkout = join(staging, 'repo');
  try {
    await git(
      [
        'clone',
        '--depth',
        '1',
        '--quiet',
        ...(request.ref ? ['--branch', request.ref] : []),
        '--',
        request.url,
        checkout,
      ],
      dirname(request.dest),
      request,
    );
    if (request.sha) {
      await git(['fetch', '--depth', '1', '--quiet', 'origin', request.sha], checkout, request);
      await git(['checkout', '--quiet', '--detach', request.sha], checkout, request);
    }
    const commit = (await git(['rev-parse', 'HEAD'], checkout, request)).trim();
    await rename(checkout, request.dest);
    return { commit };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Runs one git step; a failure is a `GitCloneError` with git's own last line. */
export async function git(
  args: readonly string[],
  cwd: string,
  request: Pick<CloneRequest, 'url' | 'env'>,
): Promise<string> {
  const result = await runGit(args, {
    cwd,
    env: cloneEnv(request.env),
    timeoutMs: CLONE_TIMEOUT_MS,
    maxBuffer: 1024 * 1024,
  });
  if (result.code === 0) return result.stdout;
  const said = result.stderr.trim().split('\n').filter(Boolean).pop() ?? `exit code ${result.code}`;
  throw new GitCloneError(`git ${args[0]} of ${request.url} failed: ${said}`);
}
