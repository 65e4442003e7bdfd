/**
 * Progress summaries (seed 003 §3.7): while a background agent runs, a cheap side call with no
 * tools reads the tail of what it did and answers with a 3–5 word phrase ("Fixing null check in
 * validate.ts"), which TaskOutput and the tasks panel show. It goes through the session's side-call
 * client, so its cost counts like every other request of the session.
 */
import type { SideCallClient } from '../../model/side-call';

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
