/**
 * How queued items reach the model at a turn boundary (see message-queue.ts). Notices become one
 * meta message that says they are automated, so the model never takes them for the user's words.
 * A prompt the user sent mid-turn joins the conversation as the user's own message, after the
 * UserPromptSubmit hooks have seen it, exactly as a prompt that starts a turn: a hook may block it
 * (the user is told why) or add context.
 */
import type { HookRunner } from '../../hooks/types';
import {
  createSystemMessage,
  createUserMessage,
  type Message,
  messageText,
  type UserMessage,
} from '../../session/messages';
import type { QueuedMessage, QueuedNotice, QueuedPrompt } from '../message-queue';

export const NOTICES_INTRO = 'Automated notices (from Yoke, not from the user):';

export function noticesMessage(notices: readonly QueuedNotice[]): UserMessage {
  return createUserMessage(`${NOTICES_INTRO}\n${notices.map((n) => `- ${n.text}`).join('\n')}`, {
    isMeta: true,
  });
}

async function promptMessages(
  prompt: QueuedPrompt,
  hooks: HookRunner,
  signal: AbortSignal,
): Promise<Message[]> {
  const message = createUserMessage(
    prompt.content,
    prompt.clientUuid ? { clientUuid: prompt.clientUuid } : {},
  );
  const outcome = await hooks.userPromptSubmit({ prompt: messageText(message) }, signal);
  if (outcome.blocked) {
    return [
      createSystemMessage(
        'warning',
        `A UserPromptSubmit hook blocked the message you sent during the turn: ${outcome.blocked.reason}`,
        { level: 'warning' },
      ),
    ];
  }
  const context = (outcome.additionalContext ?? []).map((text) => createUserMessage(text, { isMeta: true }));
  return [message, ...context];
}

/** The messages for everything drained from the queue, notices first, prompts in arrival order. */
export async function queuedMessages(
  items: readonly QueuedMessage[],
  hooks: HookRunner,
  signal: AbortSignal,
): Promise<Message[]> {
  const notices = items.filter((item): item is QueuedNotice => item.kind === 'notice');
  const out: Message[] = notices.length > 0 ? [noticesMessage(notices)] : [];
  for (const item of items)
    if (item.kind === 'prompt') out.push(...(await promptMessages(item, hooks, signal)));
  return out;
}
