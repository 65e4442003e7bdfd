/**
 * Turns what one hook produced — a command's exit code and output, or an SDK callback's return
 * value — into a verdict, following compat-surface §2.5–2.6. Every failure becomes a readable
 * message naming the hook; none is a silent pass.
 *
 * A hook that answered with something that cannot be read — a reply over the output cap, JSON
 * that does not parse or does not fit the hook output schema — may have been saying "deny". On
 * the events whose verdict can stop something (a tool call, a permission, a prompt) such a reply
 * blocks, with a message naming the hook, instead of letting the action through. A hook that
 * gave no answer at all (timeout, crash, exit code 1) stays a non-blocking error, as in Claude
 * Code; `onFailure: "block"` makes those block too.
 */
import * as z from '../lib/zod';
import { type CommandRun, MAX_HOOK_OUTPUT } from './command-process';
import type { HookJSONOutput } from './types';

export type HookVerdict = {
  /** The command line, or `callback <id>` for SDK hooks. */
  hookName: string;
  /** Parsed JSON output (exit 0 or an SDK return value). */
  json?: HookJSONOutput;
  /** Exit 0 output that is not JSON. */
  plainStdout?: string;
  /** Exit 2 (or `onFailure: block`): the feedback text. */
  blockingError?: string;
  /** A non-blocking failure, one line for the user. */
  error?: string;
  /** Detail only worth showing with debug output. */
  debug?: string;
};

const hookOutputSchema = z.looseObject({
  continue: z.optional(z.boolean()),
  stopReason: z.optional(z.string()),
  suppressOutput: z.optional(z.boolean()),
  systemMessage: z.optional(z.string()),
  decision: z.optional(z.enum(['approve', 'block'])),
  reason: z.optional(z.string()),
  hookSpecificOutput: z.optional(z.looseObject({ hookEventName: z.string() })),
  async: z.optional(z.boolean()),
  asyncTimeout: z.optional(z.number()),
});

/** Events where `onFailure: block` has no effect (compat-surface §2.6). */
const NO_BLOCK_ON_FAILURE = new Set(['Stop', 'SubagentStop', 'TaskCompleted', 'TeammateIdle']);

/** Events whose verdict can stop an action, so an unreadable reply stops it (fail closed). */
const FAIL_CLOSED_EVENTS: ReadonlySet<string> = new Set([
  'PreToolUse',
  'PermissionRequest',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'PreSkillShellCommand',
]);

/** A reply the hook gave but Yoke cannot read: blocking where a verdict could block. */
function unreadable(event: string, hookName: string, text: string): HookVerdict {
  if (FAIL_CLOSED_EVENTS.has(event)) {
    return { hookName, blockingError: `${text}; blocked until the hook replies with readable output` };
  }
  return { hookName, error: `${text}; output ignored` };
}

export function interpretCommandRun(
  event: string,
  label: string,
  hookName: string,
  run: CommandRun,
  timeoutSeconds: number,
  onFailure: 'continue' | 'block' = 'continue',
): HookVerdict {
  const verdict = commandVerdict(event, label, hookName, run, timeoutSeconds);
  if (verdict.error && onFailure === 'block' && !NO_BLOCK_ON_FAILURE.has(event)) {
    return { hookName, blockingError: verdict.error };
  }
  return verdict;
}

function commandVerdict(
  event: string,
  label: string,
  hookName: string,
  run: CommandRun,
  timeoutSeconds: number,
): HookVerdict {
  const who = `${label} hook "${hookName}"`;
  // The user interrupted: the hook's partial output means nothing and needs no report.
  if (run.aborted) return { hookName };
  if (run.spawnError !== undefined) return { hookName, error: `${who} could not start: ${run.spawnError}` };
  if (run.timedOut) {
    return {
      hookName,
      error: `${who} timed out after ${timeoutSeconds}s and was stopped; continuing without its verdict`,
    };
  }
  if (run.exitCode === 2) {
    const stderr = run.stderr.trim();
    return { hookName, blockingError: stderr || `the hook exited with code 2 without a message` };
  }
  if (run.exitCode !== 0) {
    const line = firstLine(run.stderr) || firstLine(run.stdout);
    const how = run.exitCode === null ? 'was killed' : `failed with exit code ${run.exitCode}`;
    return { hookName, error: `${who} ${how}${line ? `: ${line}` : ''}${shellHint(run.exitCode)}` };
  }
  if (run.stdoutTruncated) {
    return unreadable(
      event,
      hookName,
      `${who} printed more than ${MAX_HOOK_OUTPUT / 1024 / 1024} MiB on stdout, too much to read its verdict`,
    );
  }
  const stdout = run.stdout.trim();
  if (stdout === '') return { hookName };
  if (!stdout.startsWith('{')) return { hookName, plainStdout: stdout, debug: `${who} printed: ${stdout}` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch (error) {
    return unreadable(event, hookName, `${who} printed invalid JSON (${(error as Error).message})`);
  }
  return interpretJson(event, label, hookName, parsed);
}

/** An SDK callback's return value, or a command's parsed stdout. */
export function interpretJson(event: string, label: string, hookName: string, value: unknown): HookVerdict {
  const who = `${label} hook "${hookName}"`;
  const parsed = hookOutputSchema.safeParse(value ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return unreadable(event, hookName, `${who} returned an invalid hook output (${where}${issue?.message})`);
  }
  const json = parsed.data as HookJSONOutput;
  // A background (async) answer carries no decision for this call.
  if (json.async === true) return { hookName };
  const specific = json.hookSpecificOutput;
  if (specific && specific.hookEventName !== event) {
    const { hookSpecificOutput: _ignored, ...rest } = json;
    return {
      hookName,
      json: rest,
      error: `${who} returned hookSpecificOutput for ${specific.hookEventName}, not ${event}; that part is ignored`,
    };
  }
  return { hookName, json };
}

/**
 * The shell's own codes for a command it could not run: a script copied without its executable
 * bit (126) or a path that does not lead to it (127) — the usual first-hook slips, which the
 * shell's line alone ("Permission denied", "not found") does not say how to fix.
 */
function shellHint(exitCode: number | null): string {
  if (exitCode === 126) return ' (the shell could not execute it: is the script executable? chmod +x it)';
  if (exitCode === 127)
    return ' (the shell did not find it: a relative path starts in the session\'s folder; "$CLAUDE_PROJECT_DIR"/… names the project\'s files from anywhere)';
  return '';
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line !== '') ?? ''
  );
}
