/**
 * Progress summaries (seed 003 §3.7): while a background agent runs, a cheap side call with no
 * tools reads the tail of what it did and answers with a 3–5 word phrase ("Fixing null check in
 * validate.ts"), which TaskOutput and the tasks panel show. It goes through the session's side-call
 * client, so its cost counts like every other request of the session.
 */
import { NoSideCallModelError, type SideCallClient } from '../../model/side-call';
import type { AgentClock } from '../types';

/** How much of the agent's recent output the summary call reads. */
export const RECENT_ACTIVITY_CHARS = 4_000;

const SYSTEM = [
  'You label the progress of a coding agent that works in the background.',
  'Read its task and its most recent activity, then reply with one present-participle phrase of',
  '3 to 5 words that says what it is doing right now, such as "Running the auth tests".',
  'Reply with the phrase only: no quotes, no full stop, nothing else.',
].join(' ');

/** The phrase from the model's answer: its first line, without quotes, list marks or a full stop. */
export function cleanSummary(text: string): string | undefined {
  const line = text.trim().split('\n')[0] ?? '';
  const phrase = line
    .replace(/^[-*•\d.)\s]+/, '')
    .replace(/^["'“”‘’`]+|["'“”‘’`]+$/g, '')
    .replace(/[.!]+$/, '')
    .trim();
  if (!phrase) return undefined;
  return phrase.length > 60 ? `${phrase.slice(0, 59)}…` : phrase;
}

export async function summarizeProgress(
  sideCalls: SideCallClient,
  activity: { task: string; recent: string },
  signal: AbortSignal,
): Promise<string | undefined> {
  const answer = await sideCalls.complete(
    {
      purpose: 'progress_summary',
      system: [{ text: SYSTEM }],
      messages: [
        {
          role: 'user',
          content: `Task:\n${activity.task.slice(0, 2_000)}\n\nRecent activity:\n${activity.recent}`,
        },
      ],
      maxTokens: 32,
    },
    signal,
  );
  return cleanSummary(answer.text);
}

/** Calls `fn` every `ms` on the clock until the returned function is called. */
function every(clock: AgentClock, ms: number, fn: () => void): () => void {
  let cancel = () => {};
  const arm = () => {
    cancel = clock.setTimer(() => {
      arm();
      fn();
    }, ms);
  };
  arm();
  return () => cancel();
}

export type ProgressWatchOptions = {
  sideCalls: SideCallClient;
  clock: AgentClock;
  intervalMs: number;
  /** The agent's task, which the summary call reads with the activity. */
  task: string;
  /** The run's signal: a summary in flight is dropped when the run ends. */
  signal: AbortSignal;
  onSummary(phrase: string): void;
};

/**
 * The progress summaries of one run of a background agent: every `intervalMs`, if the agent did
 * something since the last summary and none is being made, one side call.
 */
export class ProgressWatch {
  /** The tail of the run's output. */
  private recent = '';
  /** Output arrived since the last summary. */
  private fresh = false;
  private busy = false;
  private readonly cancel: () => void;

  constructor(private readonly options: ProgressWatchOptions) {
    this.cancel = every(options.clock, options.intervalMs, () => void this.summarize());
  }

  /** Output lines the agent just produced. */
  saw(text: string): void {
    this.recent = (this.recent + text).slice(-RECENT_ACTIVITY_CHARS);
    this.fresh = true;
  }

  stop(): void {
    this.cancel();
  }

  private async summarize(): Promise<void> {
    const { signal } = this.options;
    if (signal.aborted || this.busy || !this.fresh) return;
    this.busy = true;
    this.fresh = false;
    try {
      const phrase = await summarizeProgress(
        this.options.sideCalls,
        { task: this.options.task, recent: this.recent },
        signal,
      );
      if (phrase && !signal.aborted) this.options.onSummary(phrase);
    } catch (error) {
      // A summary is a nicety: a failed one leaves the previous in place, and the agent's own
      // output file still shows what it does; the next tick tries again. No side-call model (a
      // tool test) is not a failure.
      if (!(error instanceof NoSideCallModelError) && !signal.aborted) this.fresh = true;
    } finally {
      this.busy = false;
    }
  }
}
