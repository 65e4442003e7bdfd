/**
 * `!command`: the user runs a shell command from the prompt. It goes through the Bash tool's own
 * execution (the same shell and environment, its working-directory tracking inside the project,
 * its timeout and its process-group kill on interrupt), without a permission check: the user
 * typed it. The output is shown and also joins the conversation, so the model knows what the
 * user saw, in the `<bash-input>`/`<bash-stdout>`/`<bash-stderr>` blocks Claude Code uses.
 */
import { type BashOutput, bashTool } from '../tools/builtin/bash';
import type { ToolUseContext } from '../tools/context';
import { ToolError } from '../tools/tool';

export type BangResult = {
  command: string;
  /** stdout and stderr as they interleaved (trailing newlines removed). */
  output: string;
  /** Yoke's notes: a timeout, an interrupt, a `cd` out of the project that was not followed. */
  notes: string;
  /** null when the command did not exit by itself (timeout, interrupt, signal, failed start). */
  exitCode: number | null;
  interrupted: boolean;
  timedOut: boolean;
  /** The working directory after a `cd` inside the project; the host makes it the session's. */
  cwd?: string;
  /** Where the whole output was saved when it was too long to show. */
  fullOutputPath?: string;
  /** The user turn for the conversation. */
  conversationText: string;
};

export async function runBangCommand(line: string, context: ToolUseContext): Promise<BangResult> {
  const command = line.replace(/^!/, '').trim();
  if (command === '') {
    return finish(command, { output: '', notes: 'Type a command after the !.', exitCode: null });
  }
  let data: BashOutput;
  let isError = false;
  let cwd: string | undefined;
  try {
    const result = await bashTool.call({ command }, context, () => {});
    data = result.data;
    isError = result.isError === true;
    const next = result.contextModifier?.(context).cwd;
    if (next !== undefined && next !== context.cwd) cwd = next;
  } catch (error) {
    const message = error instanceof ToolError ? error.message : (error as Error).message;
    return finish(command, { output: '', notes: message, exitCode: null });
  }
  const timedOut = data.timedOutAfterMs !== undefined;
  return finish(command, {
    output: data.stdout,
    notes: data.stderr,
    exitCode: exitCodeOf(data, isError),
    interrupted: data.interrupted,
    timedOut,
    ...(cwd !== undefined ? { cwd } : {}),
    ...(data.persistedOutputPath !== undefined ? { fullOutputPath: data.persistedOutputPath } : {}),
  });
}

/** The Bash tool reports a non-zero exit as `Exit code N` and a signal as `Killed by signal S`. */
function exitCodeOf(data: BashOutput, isError: boolean): number | null {
  if (data.interrupted || data.timedOutAfterMs !== undefined) return null;
  if (!isError) return 0;
  const match = /^Exit code (\d+)$/.exec(data.returnCodeInterpretation ?? '');
  return match ? Number(match[1]) : null;
}

type Outcome = Omit<BangResult, 'command' | 'conversationText' | 'interrupted' | 'timedOut'> &
  Partial<Pick<BangResult, 'interrupted' | 'timedOut'>>;

function finish(command: string, outcome: Outcome): BangResult {
  const errorPart = [
    outcome.notes,
    outcome.exitCode !== null && outcome.exitCode !== 0 ? `Exit code ${outcome.exitCode}` : '',
  ]
    .filter((part) => part !== '')
    .join('\n');
  return {
    command,
    interrupted: false,
    timedOut: false,
    ...outcome,
    conversationText:
      `<bash-input>${command}</bash-input>\n` +
      `<bash-stdout>${outcome.output}</bash-stdout><bash-stderr>${errorPart}</bash-stderr>`,
  };
}
