/**
 * Finds and runs ripgrep for the search tools (Glob, Grep). ripgrep is fast, parallel and already
 * knows .gitignore/.ignore, which is what a model searching a project expects.
 */
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { ToolError } from '../../tool';
import { loadOptionalModule } from './optional-module';

type Env = Readonly<Record<string, string | undefined>>;

const INSTALL_HINT =
  'ripgrep (rg) is not installed or not on PATH. Install it (e.g. `apt install ripgrep`, ' +
  '`brew install ripgrep`, or `npm install @vscode/ripgrep`) and try again.';

let bundledPath: Promise<string | undefined> | undefined;

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `@vscode/ripgrep`'s binary when that package is installed and its download succeeded. */
function bundledRipgrep(): Promise<string | undefined> {
  bundledPath ??= loadOptionalModule<{ rgPath?: string }>('@vscode/ripgrep').then(async (mod) =>
    mod?.rgPath && (await isExecutable(mod.rgPath)) ? mod.rgPath : undefined,
  );
  return bundledPath;
}

async function ripgrepOnPath(env: Env): Promise<string | undefined> {
  const names = process.platform === 'win32' ? ['rg.exe', 'rg'] : ['rg'];
  for (const dir of (env.PATH ?? process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = join(dir, name);
      if (await isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** The rg binary to run: the bundled one first (a known version), else `rg` on PATH. */
export async function resolveRipgrep(env: Env): Promise<string> {
  const path = (await bundledRipgrep()) ?? (await ripgrepOnPath(env));
  if (!path) throw new ToolError(INSTALL_HINT);
  return path;
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
  const rg = await resolveRipgrep(options.env);
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
