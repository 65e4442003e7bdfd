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
  type UserMessage,
} from '../../session/messages';
import type { QueuedMessage, QueuedNotice, QueuedPrompt } from '../message-queue';
import { submitPrompt } from '../prompt-submission';

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
  const submitted = await submitPrompt(prompt, hooks, signal);
  if (submitted.blocked) {
    return [
      createSystemMessage(
        'warning',
        `A UserPromptSubmit hook blocked the message you sent during the turn: ${submitted.blocked.reason}`,
        { level: 'warning' },
      ),
    ];
  }
  return [submitted.message, ...submitted.context];
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
