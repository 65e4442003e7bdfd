/**
 * Runs the built CLI (dist/yoke.js) as a user would, against the in-process mock model server.
 */

import { spawn } from 'node:child_process';
import { access, mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MockServer } from '../../src/testing/mock-server';

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
  const running = startYoke(args, options);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    running.child.kill('SIGKILL');
  }, options.timeoutMs ?? 30_000);
  if (options.input !== undefined) running.child.stdin.end(options.input);
  else running.child.stdin.end();
  return running.exited.then(({ code }) => {
    clearTimeout(timer);
    if (timedOut) {
      throw new Error(
        `yoke ${args.join(' ')} timed out\nstdout: ${running.stdout()}\nstderr: ${running.stderr()}`,
      );
    }
    return { code, stdout: running.stdout(), stderr: running.stderr() };
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
    ANTHROPIC_MODEL: undefined,
    OPENAI_API_KEY: undefined,
    OPENAI_BASE_URL: undefined,
    YOKE_HOME: home,
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
  };
}

/**
 * The whole environment of a CLI the Agent SDK spawns: only PATH and HOME from this process, so
 * no key or base URL of the machine leaks in, plus the mock server's settings.
 */
export function sdkEnv(url: string, home: string): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: home };
  for (const [key, value] of Object.entries(mockEnv(url, home))) if (value !== undefined) env[key] = value;
  return env;
}

/** A content block of a recorded request, as the e2e tests read tool results. */
export type RequestBlock = { type: string; is_error?: boolean; content?: unknown };

/** The first block of the last message of the server's `index`-th request: the tool result it carried. */
export function lastToolResultBlock(server: MockServer, index: number): RequestBlock {
  const body = server.requests[index]?.body as { messages: Array<{ content: string | RequestBlock[] }> };
  const last = body.messages[body.messages.length - 1]?.content as RequestBlock[];
  return last[0] as RequestBlock;
}

/** Whether a file exists: how a test shows that a command did (or did not) write its marker. */
export function fileExists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

export type RunningYoke = {
  child: import('node:child_process').ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  /** Resolves when the process has exited and its output streams closed. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/** Starts the built CLI and leaves it running: for tests that signal it or feed stdin over time. */
export function startYoke(
  args: string[],
  options: { cwd?: string; env?: Record<string, string | undefined>; bin?: string } = {},
): RunningYoke {
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
  // A child that exits before reading its stdin must not fail the test with EPIPE.
  child.stdin.on('error', () => {});
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}
