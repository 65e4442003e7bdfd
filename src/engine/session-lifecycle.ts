/**
 * The two ends of a session around its turns: SessionStart hooks before the first turn (their
 * output is context for the model), and the teardown after the last one.
 */
import { rm } from 'node:fs/promises';
import type { HookRunner } from '../hooks/types';
import type { TranscriptSink } from '../session/transcript-writer';
import type { ToolNotification } from '../tools/context';
import type { SessionServices } from '../tools/session-services';

/** Runs the SessionStart hooks; returns the context they gave the model, one text per hook. */
export async function startSession(
  hooks: HookRunner,
  input: { source: 'startup' | 'resume'; model: string },
  signal: AbortSignal,
  notify?: (notification: ToolNotification) => void,
): Promise<string[]> {
  const start = await hooks.sessionStart(input, signal);
  // `systemMessage` is a warning for the user (compat-surface §2.5), as from any other hook.
  for (const message of start.systemMessages ?? []) notify?.({ level: 'warning', message });
  return start.additionalContext ?? [];
}

/**
 * Ends a session: its services are disposed (background shells die with their process groups),
 * SessionEnd hooks run (when the session ever started), the transcript closes, and a session
 * folder the engine made for a session that is not kept is removed.
 */
export async function endSession(options: {
  services: Pick<SessionServices, 'dispose'>;
  hooks: HookRunner;
  started: boolean;
  reason: string;
  transcript?: TranscriptSink;
  ownedDir?: string;
}): Promise<void> {
  await options.services.dispose();
  if (options.started)
    await options.hooks.notify('SessionEnd', { reason: options.reason }, new AbortController().signal);
  options.transcript?.close?.();
  if (options.ownedDir !== undefined) await rm(options.ownedDir, { recursive: true, force: true });
}
