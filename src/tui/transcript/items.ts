/**
 * What the REPL shows, one entry per line group: the user's prompts, the model's text and
 * thinking, tool calls with their outcome, shell runs and notices. Items are plain data; the
 * views in tui/views/ render them, and the transcript store decides which are finished (and go
 * to the terminal's scrollback once) and which are still live.
 */

export type ToolOutcome =
  /** The call has not started: it waits behind an earlier call, or for its hooks and checks. */
  | { status: 'waiting' }
  /** The call waits for the user's answer to its permission question: it has not started. */
  | { status: 'awaiting-permission' }
  /** The tool runs: the engine said it started, at `startedAt`. */
  | { status: 'running'; startedAt: number }
  | { status: 'done'; text: string; data?: unknown }
  | { status: 'error'; text: string }
  | { status: 'denied'; text: string };

export type TranscriptItem =
  /** `past`: a prompt of a resumed conversation (not typed in this run, so no terminal echoed it). */
  | { kind: 'user'; id: string; text: string; past?: boolean }
  /** Settled markdown of an answer; a streamed answer becomes several of these, block by block. */
  | { kind: 'assistant'; id: string; text: string; continued: boolean }
  | { kind: 'thinking'; id: string; text: string }
  | {
      kind: 'tool';
      id: string;
      name: string;
      input: Record<string, unknown>;
      outcome: ToolOutcome;
      endedAt?: number;
      /** Latest line a long tool printed, while it runs. */
      progress?: string;
    }
  | { kind: 'shell'; id: string; command: string; output: string; exitCode: number | null }
  | { kind: 'notice'; id: string; level: 'info' | 'warning' | 'error'; text: string }
  /** What a slash command answered: shown to the user, never sent to the model. */
  | { kind: 'command-output'; id: string; text: string }
  /** The one-line end of a turn that did not simply complete: interrupted, failed, over budget. */
  | { kind: 'turn-end'; id: string; text: string; isError: boolean };

export type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;

/** The block being streamed right now (text or thinking), before its assistant frame arrives. */
export type Draft = {
  kind: 'text' | 'thinking' | 'tool_input';
  /** What is not in the scrollback yet (a text block's settled blocks went there already). */
  text: string;
  toolName?: string;
  /** A text block whose first blocks are in the scrollback: `text` continues the last of them. */
  continued?: boolean;
};

/** Whether an item can no longer change, so it may go to the scrollback. */
export function isFinished(item: TranscriptItem): boolean {
  return item.kind !== 'tool' || !isPending(item.outcome);
}

/** A tool call without its result yet: waiting, waiting to be allowed, or running. */
export function isPending(
  outcome: ToolOutcome,
): outcome is Extract<ToolOutcome, { status: 'waiting' | 'awaiting-permission' | 'running' }> {
  return (
    outcome.status === 'waiting' || outcome.status === 'awaiting-permission' || outcome.status === 'running'
  );
}
