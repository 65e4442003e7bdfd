/**
 * A full compaction: PreCompact hook, the summary call, then the new history — a compact_boundary
 * system message, the summary as a user message and the re-attached essentials. When the summary
 * call fails the history is returned untouched with a warning: compaction may cost context, never
 * the conversation.
 */
import type { HookRunner } from '../../hooks/types';
import { defaultMaxTokensFor } from '../../model/models';
import type { SideCallClient } from '../../model/side-call';
import {
  createSystemMessage,
  createUserMessage,
  type Message,
  type SystemMessage,
} from '../../session/messages';
import { messagesTokens } from './context-messages';
import { buildEssentials, type EssentialsSource } from './essentials';
import { summarizeConversation } from './summarize';

export type CompactTrigger = 'auto' | 'manual';

export type CompactDeps = EssentialsSource & {
  /** The session's side calls: the summary is one, and its cost counts in the session's. */
  sideCalls: SideCallClient;
  model: () => string;
  hooks: HookRunner;
  /** max_tokens of the summary call; the model's default output limit when absent. */
  summaryMaxTokens?: number;
};

export type CompactOutcome =
  | { ok: true; messages: Message[]; preTokens: number; postTokens: number }
  | { ok: false; error: string; warning: SystemMessage };

export const SUMMARY_INTRO =
  'This session continues from an earlier conversation that was compacted to save context. Summary of it:';
const CONTINUE_NOTE =
  'Continue the current work from where it stopped; do not ask the user to repeat anything and do not mention the summary.';

export async function compactMessages(
  messages: readonly Message[],
  request: {
    trigger: CompactTrigger;
    instructions?: string;
    signal: AbortSignal;
    /** The context estimate before compacting, when the caller has one. */
    preTokens?: number;
    /** Tokens outside the messages (tool definitions), added to both figures. */
    overheadTokens?: number;
  },
  deps: CompactDeps,
): Promise<CompactOutcome> {
  const { trigger, instructions, signal } = request;
  const overhead = request.overheadTokens ?? 0;
  const preTokens = request.preTokens ?? messagesTokens(messages) + overhead;
  await deps.hooks.notify('PreCompact', { trigger, custom_instructions: instructions ?? null }, signal);
  const model = deps.model();
  let summary: string;
  try {
    summary = await summarizeConversation({
      sideCalls: deps.sideCalls,
      model,
      messages,
      instructions,
      maxTokens: deps.summaryMaxTokens ?? defaultMaxTokensFor(model),
      signal,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const warning = createSystemMessage(
      'warning',
      `Compacting the conversation failed (${reason}); continuing with the full history.`,
      { level: 'warning', data: { compactFailed: { trigger, reason } } },
    );
    return { ok: false, error: reason, warning };
  }

  const tail = trigger === 'auto' ? `\n\n${CONTINUE_NOTE}` : '';
  const summaryMessage = createUserMessage(`${SUMMARY_INTRO}\n\n${summary}${tail}`, { isMeta: true });
  const essentials = await buildEssentials(deps);
  const postTokens = messagesTokens([summaryMessage, ...essentials]) + overhead;
  const boundary = createSystemMessage('compact_boundary', 'Conversation compacted', {
    data: { trigger, preTokens, postTokens },
  });
  return { ok: true, messages: [boundary, summaryMessage, ...essentials], preTokens, postTokens };
}
