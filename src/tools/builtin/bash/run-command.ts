/**
 * Runs one foreground command to completion, timeout or interrupt, collecting its interleaved
 * output and the directory the shell ended in.
 */

import { randomUUID } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { SandboxedSpawn, SandboxManager } from '../../../sandbox/manager';
import { LatestLine } from './latest-line';
import { type CollectedOutput, OutputCollector } from './output';
import { spawnShell, terminateGroup } from './shell';

/**
 * After the shell exits, how long to keep reading: a job it left running (`server &`) holds the
 * pipe open, and waiting for that would block the call until the job ends.
 */
const DRAIN_AFTER_EXIT_MS = 150;

export type RunCommandParams = {
  command: string;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  timeoutMs: number;
  signal: AbortSignal;
  outputBudget: number;
  /** Where the complete output goes if it exceeds the budget. */
  spillPath: string;
  killGraceMs?: number;
  /** Runs the shell inside this session's sandbox (src/sandbox/). */
  sandbox?: SandboxManager;
  /** The latest line the command printed, now and then while it runs (latest-line.ts). */
  onOutputLine?: (line: string) => void;
};

export type RunCommandResult = {
  output: CollectedOutput;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  interrupted: boolean;
  /** The shell's physical working directory at exit; undefined when it did not exit normally. */
  finalCwd?: string;
  /** What the sandbox stopped, one readable line each (empty outside the sandbox). */
  violations: string[];
};

export async function runCommand(params: RunCommandParams): Promise<RunCommandResult> {
  const { sandbox } = params;
  // Inside the sandbox the session's temp folder is writable, so the file needs no mount of its own.
  const cwdName = `yoke-cwd-${randomUUID()}`;
  const cwdFile = sandbox ? sandbox.scratchPath(cwdName) : join(tmpdir(), cwdName);
  const collector = new OutputCollector(params.outputBudget, params.spillPath);
  let sandboxed: SandboxedSpawn | undefined;
  const child = spawnShell({
    command: params.command,
    cwd: params.cwd,
    env: params.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    cwdFile,
    ...(sandbox
      ? {
          wrap: (shell: string, shellArgs: readonly string[]) => {
            sandboxed = sandbox.wrap({ shell, shellArgs, cwd: params.cwd, writableFiles: [cwdFile] });
            return sandboxed;
          },
        }
      : {}),
  });

  // One decoder per stream so a multi-byte character split across chunks stays whole.
  const latest = params.onOutputLine ? new LatestLine(params.onOutputLine) : undefined;
  for (const stream of [child.stdout, child.stderr]) {
    const decoder = new StringDecoder('utf8');
    stream?.on('data', (chunk: Buffer) => {
      const text = decoder.write(chunk);
      collector.append(text);
      latest?.push(text);
    });
    stream?.on('end', () => collector.append(decoder.end()));
  }

  let timedOut = false;
  let interrupted = false;
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= terminateGroup(child, params.killGraceMs);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, params.timeoutMs);
  const onAbort = () => {
    interrupted = true;
    stop();
  };
  if (params.signal.aborted) onAbort();
  else params.signal.addEventListener('abort', onAbort, { once: true });

  try {
    const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
      (resolve, reject) => {
        child.once('error', reject);
        child.once('exit', (exitCode, exitSignal) => resolve({ code: exitCode, signal: exitSignal }));
      },
    );
    await drain(child);
    latest?.stop();
    if (stopping) await stopping;
    const output = await collector.finish();
    const result: RunCommandResult = {
      output,
      exitCode: code,
      signal,
      timedOut,
      interrupted: interrupted && !timedOut,
      violations: sandboxed?.finish(output.text) ?? [],
    };
    if (!timedOut && !interrupted) {
      const finalCwd = await readFinalCwd(cwdFile);
      if (finalCwd) result.finalCwd = finalCwd;
    }
    return result;
  } finally {
    sandboxed?.finish('');
    clearTimeout(timer);
    params.signal.removeEventListener('abort', onAbort);
    await rm(cwdFile, { force: true });
  }
}

function drain(child: ReturnType<typeof spawnShell>): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve();
    };
    const timer = setTimeout(done, DRAIN_AFTER_EXIT_MS);
    if (child.stdout?.closed !== false && child.stderr?.closed !== false) done();
    else child.once('close', done);
  });
}

async function readFinalCwd(path: string): Promise<string | undefined> {
  try {
    const text = (await readFile(path, 'utf8')).replace(/\n$/, '');
    return text === '' ? undefined : text;
  } catch {
    return undefined;
  }
}
