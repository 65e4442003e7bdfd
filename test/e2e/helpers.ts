/**
 * Runs the built CLI (dist/yoke.js) as a user would, against the in-process mock model server.
 */
import { spawn } from 'node:child_process';
import { access, mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const YOKE_BIN = join(import.meta.dirname, '../../dist/yoke.js');

export type RunResult = { code: number | null; stdout: string; stderr: string };

export function runYoke(
  args: string[],
  options: {
    cwd?: string;
    env?: Record<string, string | undefined>;
    input?: string;
    timeoutMs?: number;
    /** Another build of the entry (a copy of dist/yoke.js); the shared one by default. */
    bin?: string;
  } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string | undefined> = { ...process.env, ...options.env };
    for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
    const child = spawn(process.execPath, [options.bin ?? YOKE_BIN, ...args], {
      cwd: options.cwd,
      env: env as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`yoke ${args.join(' ')} timed out\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
  });
}

/** A fresh project folder (real path, so macOS-style /tmp symlinks don't confuse path checks). */
export async function tempProject(prefix = 'yoke-e2e-'): Promise<string> {
  return realpath(await mkdtemp(join(tmpdir(), prefix)));
}

/** Environment that points the Anthropic provider at the mock server and isolates Yoke's home. */
export function mockEnv(url: string, home: string): Record<string, string | undefined> {
  return {
    ANTHROPIC_API_KEY: 'sk-ant-e2e',
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_AUTH_TOKEN: undefined,
    OPENAI_API_KEY: undefined,
    OPENAI_BASE_URL: undefined,
    YOKE_HOME: home,
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
  };
}

/** Whether a file exists: how a test shows that a command did (or did not) write its marker. */
export function fileExists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
