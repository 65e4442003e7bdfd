/**
 * Runs one planned hook under its timeout and returns its verdict. Command hooks are killed with
 * their process group when the time is up; an SDK callback is abandoned (and its signal aborted)
 * so a host that never answers cannot hang the session either.
 */
import { runCommand } from './command-process';
import { type HookVerdict, interpretCommandRun, interpretJson } from './interpret';
import type { PlannedHook } from './plan';
import type { HookCallbackInvoker } from './types';

export type ExecuteContext = {
  event: string;
  /** `PreToolUse:Bash`, `Stop`, `SessionStart:startup`: how messages name the event. */
  label: string;
  input: Record<string, unknown>;
  cwd: string;
  env: Record<string, string | undefined>;
  signal: AbortSignal;
  toolUseId?: string;
  invoke?: HookCallbackInvoker;
};

/** A hook's verdict and what it printed (for the stream-json hook frames). */
export type HookExecution = {
  verdict: HookVerdict;
  stdout: string;
  stderr: string;
  exitCode?: number;
  /** The user interrupted the run: the hook's answer was not waited for. */
  cancelled: boolean;
};

export async function executeHook(hook: PlannedHook, ctx: ExecuteContext): Promise<HookExecution> {
  const timeoutMs = hook.timeoutSeconds * 1000;
  if (hook.kind === 'command') {
    const run = await runCommand({
      command: hook.command,
      ...(hook.args ? { args: hook.args } : {}),
      input: JSON.stringify(ctx.input),
      cwd: ctx.cwd,
      env: hook.pluginRoot ? { ...ctx.env, CLAUDE_PLUGIN_ROOT: hook.pluginRoot } : ctx.env,
      timeoutMs,
      signal: ctx.signal,
    });
    return {
      verdict: interpretCommandRun(ctx.event, ctx.label, hook.name, run, hook.timeoutSeconds, hook.onFailure),
      stdout: run.stdout,
      stderr: run.stderr,
      ...(run.exitCode === null ? {} : { exitCode: run.exitCode }),
      cancelled: run.aborted,
    };
  }
  let output: unknown;
  const verdict = await executeCallback(hook, ctx, timeoutMs, (value) => {
    output = value;
  });
  return {
    verdict,
    stdout: output === undefined ? '' : JSON.stringify(output),
    stderr: '',
    cancelled: ctx.signal.aborted,
  };
}

async function executeCallback(
  hook: Extract<PlannedHook, { kind: 'callback' }>,
  ctx: ExecuteContext,
  timeoutMs: number,
  onOutput: (value: unknown) => void,
): Promise<HookVerdict> {
  const who = `${ctx.label} hook "${hook.name}"`;
  if (!ctx.invoke) return { hookName: hook.name, error: `${who} has no SDK host to call; skipped` };
  const timeout = new AbortController();
  const signal = AbortSignal.any([ctx.signal, timeout.signal]);
  let timer: NodeJS.Timeout | undefined;
  let onAbort = () => {};
  const expired = new Promise<'timeout' | 'aborted'>((resolve) => {
    timer = setTimeout(() => {
      timeout.abort(new Error(`hook timed out after ${hook.timeoutSeconds}s`));
      resolve('timeout');
    }, timeoutMs);
    onAbort = () => resolve('aborted');
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const request = { callbackId: hook.callbackId, input: ctx.input, signal };
    const call = ctx.invoke(ctx.toolUseId === undefined ? request : { ...request, toolUseId: ctx.toolUseId });
    const outcome = await Promise.race([call.then((output) => ({ output })), expired]);
    if (outcome === 'aborted') return { hookName: hook.name };
    if (outcome === 'timeout') {
      return {
        hookName: hook.name,
        error: `${who} timed out after ${hook.timeoutSeconds}s; continuing without its verdict`,
      };
    }
    onOutput(outcome.output);
    return interpretJson(ctx.event, ctx.label, hook.name, outcome.output);
  } catch (error) {
    if (ctx.signal.aborted) return { hookName: hook.name };
    return { hookName: hook.name, error: `${who} failed: ${(error as Error).message ?? String(error)}` };
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onAbort);
  }
}
