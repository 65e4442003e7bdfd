/**
 * Finds and runs ripgrep for the search tools (Glob, Grep). ripgrep is fast, parallel and already
 * knows .gitignore/.ignore, which is what a model searching a project expects.
 *
 * The binary comes from npm: `@vscode/ripgrep` depends on one optional package per platform
 * (`@vscode/ripgrep-linux-x64`, …) that holds a prebuilt `rg`, so `npm install` alone provides it
 * with no download and no install script. `rg` on PATH is the fallback (an install made with
 * `--omit=optional`, a platform without a prebuilt binary, or `USE_BUILTIN_RIPGREP=0`).
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { findInstalledFile } from '../../../lib/installed-files';
import { type ToolAvailability, ToolError } from '../../tool';

type Env = Readonly<Record<string, string | undefined>>;

const BINARY_NAME = process.platform === 'win32' ? 'rg.exe' : 'rg';

const INSTALL_HINT =
  'Reinstall Yoke with its optional dependencies (`npm install` without `--omit=optional`) or ' +
  'install ripgrep (e.g. `apt install ripgrep`, `brew install ripgrep`).';

export type RipgrepLookup =
  | { found: true; path: string; source: 'bundled' | 'path' }
  | { found: false; reason: string };

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

type BundledLookup = { path: string } | { problem: string };

/**
 * `@vscode/ripgrep`'s binary: its platform package beside it (as npm hoists it) or inside it.
 * `from` is where the lookup starts: this module, which in the built CLI is dist/app.js of
 * whatever layout npm installed.
 */
export function bundledRipgrep(
  from: string = import.meta.url,
  platform: string = process.platform,
  arch: string = process.arch,
): BundledLookup {
  const platformPackage = `@vscode/ripgrep-${platform}-${arch}`;
  const binary = `${platformPackage}/bin/${platform === 'win32' ? 'rg.exe' : 'rg'}`;
  const path = findInstalledFile(from, [binary, `@vscode/ripgrep/node_modules/${binary}`]);
  if (path) return isExecutable(path) ? { path } : { problem: `${path} is not executable` };
  if (!findInstalledFile(from, ['@vscode/ripgrep/package.json'])) {
    return { problem: 'the @vscode/ripgrep package is not installed' };
  }
  return {
    problem: `${platformPackage}, the package that holds its binary for this platform, is not installed`,
  };
}

// Process-wide on purpose: where the installation's own ripgrep is, a fact of this install.
let bundledCache: BundledLookup | undefined;

function ripgrepOnPath(env: Env): string | undefined {
  const names = process.platform === 'win32' ? [BINARY_NAME, 'rg'] : [BINARY_NAME];
  for (const dir of (env.PATH ?? process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/**
 * The rg binary to run: the bundled one first (a known version), else `rg` on PATH.
 * `USE_BUILTIN_RIPGREP=0` (Claude Code's switch) skips the bundled one.
 */
export function locateRipgrep(env: Env): RipgrepLookup {
  const useBundled = env.USE_BUILTIN_RIPGREP?.trim() !== '0';
  let bundledProblem = 'the bundled ripgrep is switched off (USE_BUILTIN_RIPGREP=0)';
  if (useBundled) {
    // An install does not change under a running process, so one lookup serves the session.
    bundledCache ??= bundledRipgrep();
    if ('path' in bundledCache) return { found: true, path: bundledCache.path, source: 'bundled' };
    bundledProblem = bundledCache.problem;
  }
  const onPath = ripgrepOnPath(env);
  if (onPath) return { found: true, path: onPath, source: 'path' };
  return {
    found: false,
    reason: `ripgrep was not found: ${bundledProblem}, and no \`rg\` is on PATH. ${INSTALL_HINT}`,
  };
}

/** Grep and Glob are not offered without ripgrep: every call would fail. */
export function ripgrepAvailability(env: Env): ToolAvailability {
  const lookup = locateRipgrep(env);
  return lookup.found ? { status: 'available' } : { status: 'unavailable', reason: lookup.reason };
}

export function resolveRipgrep(env: Env): string {
  const lookup = locateRipgrep(env);
  if (!lookup.found) throw new ToolError(lookup.reason);
  return lookup.path;
}

export type RipgrepOptions = {
  cwd: string;
  signal: AbortSignal;
  env: Env;
  /**
   * Stop reading (and kill rg) once this many lines arrived; the caller gets `stoppedEarly`.
   * Keeps memory bounded when a pattern matches half of a huge repository.
   */
  maxLines?: number;
};

export type RipgrepResult = {
  lines: string[];
  stderr: string;
  /** 0 = matches, 1 = no matches, 2 = error (bad regex, unreadable path). null when killed. */
  exitCode: number | null;
  stoppedEarly: boolean;
};

const MAX_STDERR_CHARS = 4000;

/** Runs rg with an argv (never through a shell) and collects stdout as lines. */
export async function runRipgrep(args: readonly string[], options: RipgrepOptions): Promise<RipgrepResult> {
  const rg = resolveRipgrep(options.env);
  if (options.signal.aborted) throw new ToolError('The search was interrupted.');
  return new Promise((resolvePromise, reject) => {
    // child_process loads on the first search, not when the tools register at start.
    const child = process.getBuiltinModule('node:child_process').spawn(rg, args, {
      cwd: options.cwd,
      env: options.env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const lines: string[] = [];
    let partial = '';
    let stderr = '';
    let stoppedEarly = false;
    let aborted = false;

    const onAbort = () => {
      aborted = true;
      child.kill('SIGKILL');
    };
    options.signal.addEventListener('abort', onAbort, { once: true });

    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (stoppedEarly) return;
      const parts = (partial + chunk).split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line.endsWith('\r') ? line.slice(0, -1) : line);
        if (options.maxLines !== undefined && lines.length >= options.maxLines) {
          stoppedEarly = true;
          child.kill('SIGKILL');
          return;
        }
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < MAX_STDERR_CHARS) stderr += chunk;
    });
    child.on('error', (error) => {
      options.signal.removeEventListener('abort', onAbort);
      reject(new ToolError(`Could not run ripgrep (${rg}): ${error.message}. ${INSTALL_HINT}`));
    });
    child.on('close', (code) => {
      options.signal.removeEventListener('abort', onAbort);
      if (aborted) {
        reject(new ToolError('The search was interrupted.'));
        return;
      }
      if (!stoppedEarly && partial) lines.push(partial);
      resolvePromise({ lines, stderr: stderr.trim(), exitCode: code, stoppedEarly });
    });
  });
}

/**
 * The files below `root` a search reads, as paths relative to it: what Glob lists, .gitignore and
 * .ignore honoured, hidden files in, `.git` out. A listing error with no output is thrown as one
 * readable line; `stoppedEarly` says it hit `maxLines`.
 */
export async function listSearchFiles(
  root: string,
  options: Omit<RipgrepOptions, 'cwd'>,
): Promise<{ files: string[]; stoppedEarly: boolean }> {
  // No `--glob` filter: rg lets a --glob whitelist override .gitignore; callers match the paths.
  const result = await runRipgrep(['--files', '--hidden', '--glob', '!.git', '--color', 'never', '.'], {
    ...options,
    cwd: root,
  });
  if (result.exitCode === 2 && result.lines.length === 0) {
    throw new ToolError(
      `Listing files in ${root} failed: ${result.stderr || 'ripgrep exited with an error'}`,
    );
  }
  const files = result.lines
    .filter((line) => line !== '')
    .map((line) => (line.startsWith('./') ? line.slice(2) : line));
  return { files, stoppedEarly: result.stoppedEarly };
}
