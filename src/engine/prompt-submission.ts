/**
 * A prompt the user sent entering the conversation: the UserPromptSubmit hooks see it first and
 * may block it (with a reason for the user) or add context for the model. The same step for a
 * prompt that starts a turn (QueryEngine) and for one sent while a turn ran (queued-messages.ts),
 * so a hook cannot tell them apart.
 */
import type { HookRunner } from '../hooks/types';
import type { UserContentBlock } from '../model/types';
import { createUserMessage, messageText, type UserMessage } from '../session/messages';

export type SubmittedPrompt =
  | { blocked: { reason: string } }
  | {
      blocked?: undefined;
      /** The user's message, to join the conversation. */
      message: UserMessage;
      /** What the hooks added, as meta messages to follow it. */
      context: UserMessage[];
    };

export async function submitPrompt(
  prompt: { content: string | UserContentBlock[]; clientUuid?: string },
  hooks: HookRunner,
  signal: AbortSignal,
): Promise<SubmittedPrompt> {
  const message = createUserMessage(
    prompt.content,
    prompt.clientUuid ? { clientUuid: prompt.clientUuid } : {},
  );
  const outcome = await hooks.userPromptSubmit({ prompt: messageText(message) }, signal);
  if (outcome.blocked) return { blocked: outcome.blocked };
  const context = (outcome.additionalContext ?? []).map((text) => createUserMessage(text, { isMeta: true }));
  return { message, context };
}
