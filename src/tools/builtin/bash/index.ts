/**
 * The Bash tool (seed 000 §3.5.1): runs a command in a real shell, in its own process group,
 * with a persistent working directory inside the project, middle-truncated output, timeouts,
 * interrupts, and background shells.
 */
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from '../../../lib/zod';
import { neutralGitEnv } from '../../../permissions/git-neutral-env';
import type { SandboxManager } from '../../../sandbox/manager';
import { bashParserProblem } from '../../../services/bash-parser/loader';
import type { ToolUseContext } from '../../context';
import { buildTool, ToolError, type ToolResult } from '../../tool';
import { resolveNextCwd } from './cwd';
import { shellLabel, shellStatusText } from './describe-shell';
import prompt from './prompt.md';
import { runCommand } from './run-command';

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;

const inputSchema = z.lazy(() =>
  z.strictObject({
    command: z.string().check(z.describe('The command to run')),
    timeout: z
      .optional(z.number().check(z.positive(), z.maximum(MAX_TIMEOUT_MS)))
      .check(z.describe(`Timeout in milliseconds (default ${DEFAULT_TIMEOUT_MS}, max ${MAX_TIMEOUT_MS})`)),
    description: z.optional(z.string()).check(z.describe('A few plain words saying what the command does')),
    run_in_background: z
      .optional(z.boolean())
      .check(z.describe('Start the command in the background and return at once with a shell id')),
    dangerouslyDisableSandbox: z
      .optional(z.boolean())
      .check(
        z.describe(
          'Run this one command outside the sandbox; the user is always asked. Only after the sandbox blocked something the task needs.',
        ),
      ),
  }),
);

export type BashInput = z.infer<typeof inputSchema>;

/** The `tool_use_result` shape (compat-surface §1.1 `BashOutput`). */
export type BashOutput = {
  /** stdout and stderr merged in arrival order (stderr is joined inside the shell). */
  stdout: string;
  /** Yoke's own notes: timeout, interrupt, a `cd` that was not followed. */
  stderr: string;
  interrupted: boolean;
  returnCodeInterpretation?: string;
  persistedOutputPath?: string;
  persistedOutputSize?: number;
  timedOutAfterMs?: number;
  backgroundTaskId?: string;
  noOutputExpected?: boolean;
};

const EMPTY_OUTPUT = '(Bash completed with no output)';

function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds >= 60 ? `${Math.floor(seconds / 60)}m ${seconds % 60}s` : `${seconds}s`;
}

function commandHead(command: string): string {
  const firstLine = command.trim().split('\n')[0] ?? '';
  return firstLine.length > 80 ? `${firstLine.slice(0, 77)}...` : firstLine;
}

/** A cwd that was deleted since the last call would make the spawn fail with a confusing ENOENT. */
async function startingCwd(context: ToolUseContext): Promise<{ cwd: string; note?: string }> {
  try {
    if ((await stat(context.cwd)).isDirectory()) return { cwd: context.cwd };
  } catch {
    // fall through to the project root
  }
  return {
    cwd: context.projectRoot,
    note: `The working directory ${context.cwd} no longer exists; the command ran in ${context.projectRoot}.`,
  };
}

type ShellEnv = ToolUseContext['env'];

function runInBackground(
  input: BashInput,
  context: ToolUseContext,
  cwd: string,
  env: ShellEnv,
  sandbox: SandboxManager | undefined,
): ToolResult<BashOutput> {
  const shell = context.services.shells.start({
    ...(sandbox ? { sandbox } : {}),
    sessionDir: context.sessionDir,
    command: input.command,
    cwd,
    env,
    ...(input.description ? { description: input.description } : {}),
    ...(input.timeout !== undefined ? { timeoutMs: input.timeout } : {}),
    ...(context.toolUseId ? { toolUseId: context.toolUseId } : {}),
    onExit: (ended) =>
      context.notify({
        level: ended.status === 'completed' ? 'info' : 'warning',
        message: `Background shell ${ended.id} (${ended.description ?? commandHead(ended.command)}) ${ended.status}${
          ended.exitCode !== null ? ` with exit code ${ended.exitCode}` : ''
        }.`,
        forModel:
          `Background shell ${shellLabel(ended)} ${shellStatusText(ended)}. Its output is in ` +
          `${ended.outputPath}; TaskOutput with task_id "${ended.id}" shows what it printed.`,
      }),
  });
  return {
    data: {
      stdout: `Command running in background with ID: ${shell.id}. Output is being written to: ${shell.outputPath}`,
      stderr: '',
      interrupted: false,
      backgroundTaskId: shell.id,
    },
  };
}

async function runInForeground(
  input: BashInput,
  context: ToolUseContext,
  start: { cwd: string; note?: string },
  env: ShellEnv,
  sandbox: SandboxManager | undefined,
  onOutputLine: (line: string) => void,
): Promise<ToolResult<BashOutput>> {
  const timeoutMs = input.timeout ?? DEFAULT_TIMEOUT_MS;
  let run: Awaited<ReturnType<typeof runCommand>>;
  try {
    run = await runCommand({
      command: input.command,
      cwd: start.cwd,
      env,
      timeoutMs,
      signal: context.abortSignal,
      outputBudget: context.services.settings.bashOutputMaxChars,
      spillPath: join(context.sessionDir, 'bash-output', `${Date.now()}-${randomUUID().slice(0, 8)}.txt`),
      ...(sandbox ? { sandbox } : {}),
      onOutputLine,
    });
  } catch (error) {
    throw new ToolError(`Could not start the shell: ${(error as Error).message}`);
  }

  const notes: string[] = start.note ? [start.note] : [];
  notes.push(...run.violations);
  const data: BashOutput = {
    stdout: run.output.text.replace(/\n+$/, ''),
    stderr: '',
    interrupted: run.interrupted,
  };
  if (run.output.fullOutputPath) {
    data.persistedOutputPath = run.output.fullOutputPath;
    data.persistedOutputSize = run.output.totalChars;
  }
  if (run.timedOut) {
    data.timedOutAfterMs = timeoutMs;
    notes.push(
      `Command timed out after ${formatDuration(timeoutMs)}; it and every process it started were killed.`,
    );
  } else if (run.interrupted) {
    notes.push('Command was interrupted by the user; it and every process it started were killed.');
  } else if (run.exitCode !== 0) {
    data.returnCodeInterpretation =
      run.exitCode === null ? `Killed by signal ${run.signal ?? 'unknown'}` : `Exit code ${run.exitCode}`;
  }

  let contextModifier: ToolResult<BashOutput>['contextModifier'];
  if (run.finalCwd) {
    const outcome = await resolveNextCwd(context, run.finalCwd);
    if (outcome.kind === 'moved') contextModifier = (ctx) => ({ ...ctx, cwd: outcome.cwd });
    else if (outcome.kind === 'outside') {
      notes.push(
        `Shell cwd was reset to ${context.cwd}: ${outcome.attempted} is outside the project, so later commands start in ${context.cwd}.`,
      );
    }
  }
  data.stderr = notes.join('\n');

  const result: ToolResult<BashOutput> = { data };
  if (run.timedOut || run.interrupted || run.exitCode !== 0) result.isError = true;
  if (contextModifier) result.contextModifier = contextModifier;
  return result;
}

/**
 * The sandbox this call runs in, or undefined when it runs outside — the same decision the
 * permission check made (SandboxManager.decide), so a call allowed as sandboxed runs sandboxed.
 */
async function sandboxFor(input: BashInput, context: ToolUseContext): Promise<SandboxManager | undefined> {
  const sandbox = context.services.sandbox;
  if (!sandbox) return undefined;
  await sandbox.start();
  return sandbox.decide(input).sandboxed ? sandbox : undefined;
}

/** A parser that failed to load must not make the tool unusable: it only loses the read-only fast path. */
function readOnlyOrFalse(command: string): Promise<boolean> {
  return import('../../../services/bash-parser')
    .then(({ isReadOnlyCommand }) => isReadOnlyCommand(command))
    .catch(() => false);
}

function mapResultToContent(output: BashOutput): string {
  const parts = [output.stdout, output.stderr].filter((part) => part !== '');
  if (output.returnCodeInterpretation) parts.push(output.returnCodeInterpretation);
  return parts.length > 0 ? parts.join('\n') : EMPTY_OUTPUT;
}

export const bashTool = buildTool<BashInput, BashOutput>({
  name: 'Bash',
  inputSchema,
  tier: 'exec',
  access: 'shell',
  // Read-only commands (`ls`, `git log`, `rg`) are how a plan gets made.
  keptInPlanMode: true,
  // Later commands of the same response usually depend on the one that failed.
  failureCancelsSiblings: true,
  prompt,
  // The output is already cut to its budget with the full text saved; never persist it twice.
  maxResultSizeChars: 200_000,
  description: (input) => input.description ?? commandHead(input.command),
  validateInput: async (input) =>
    input.command.trim() === '' ? { ok: false, message: 'The command is empty.' } : { ok: true },
  isConcurrencySafe: (input) => readOnlyOrFalse(input.command),
  isReadOnly: (input) => readOnlyOrFalse(input.command),
  interruptBehavior: () => 'cancel',
  // Without the parser no command can be proven safe or matched against rules: every call would fail.
  availability: () => {
    const problem = bashParserProblem();
    return problem ? { status: 'unavailable', reason: problem } : { status: 'available' };
  },
  toAutoClassifierInput: (input) => input.command,
  mapResultToContent,
  async call(input, context, onProgress) {
    const start = await startingCwd(context);
    // A command proven read-only runs with git's repository hooks, monitor and pager switched
    // off: a planted .git/config stays inert even if the permission check missed a key.
    const env = (await readOnlyOrFalse(input.command)) ? neutralGitEnv(context.env) : context.env;
    const sandbox = await sandboxFor(input, context);
    if (sandbox && input.dangerouslyDisableSandbox) {
      const note =
        'dangerouslyDisableSandbox was not honoured: the settings forbid commands outside the sandbox (sandbox.allowUnsandboxedCommands: false), so it ran inside.';
      start.note = start.note ? `${start.note}\n${note}` : note;
    }
    if (input.run_in_background) return runInBackground(input, context, start.cwd, env, sandbox);
    const startedAt = Date.now();
    // A long command's latest line, for the interactive UI (the engine turns it into tool_progress).
    const onOutputLine = (line: string) =>
      onProgress?.({
        toolUseId: '',
        data: {
          type: 'output_line',
          toolName: 'Bash',
          line,
          elapsedSeconds: (Date.now() - startedAt) / 1000,
        },
      });
    return runInForeground(input, context, start, env, sandbox, onOutputLine);
  },
});
