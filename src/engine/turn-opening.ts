/**
 * How a turn opens, before the first model call (seed 001): the user's input is processed (a slash
 * command expands, or is answered without the model), the UserPromptSubmit hooks see the prompt
 * and may block it, and the context that goes with the prompt is gathered as messages, in the
 * order the model reads them.
 */
import type { HookRunner } from '../hooks/types';
import type { UserContentBlock } from '../model/types';
import { createUserMessage, type Message } from '../session/messages';
import type { ToolUseContext } from '../tools/context';
import type { ToolProgress } from '../tools/tool';
import type { SkillListingSource } from './context/attachments';
import type { LivePoolMessages } from './live-pool-messages';
import { submitPrompt } from './prompt-submission';
import type { InputProcessor, ProcessedInput } from './user-input';

/** The user's prompt that opens a turn. */
export type TurnOpening = { content: string | UserContentBlock[]; clientUuid: string | undefined };

type QueryInput = Extract<ProcessedInput, { kind: 'query' }>;

export type OpenedTurn =
  /** A command answered without the model. */
  | Extract<ProcessedInput, { kind: 'answered' }>
  /** A UserPromptSubmit hook blocked the prompt. */
  | { kind: 'blocked'; reason: string }
  /** The model's turn; without `input` it starts from the queued notices alone. */
  | { kind: 'query'; input?: QueryInput; prompt?: { message: Message; context: Message[] } };

export async function openTurn(
  opening: TurnOpening | undefined,
  turn: {
    processInput: InputProcessor | undefined;
    context: () => ToolUseContext;
    hooks: HookRunner;
    signal: AbortSignal;
    /** Where the input step's worker reports (a forked command). */
    onProgress?: (progress: ToolProgress) => void;
  },
): Promise<OpenedTurn> {
  // A turn opened by queued notices alone (submitQueuedNotices) has no input.
  if (!opening) return { kind: 'query' };
  const { signal } = turn;
  const input: ProcessedInput = turn.processInput
    ? await turn.processInput(opening.content, {
        context: turn.context(),
        signal,
        ...(turn.onProgress ? { onProgress: turn.onProgress } : {}),
      })
    : { kind: 'query', content: opening.content };
  if (input.kind === 'answered') return input;
  const submitted = await submitPrompt(
    { content: input.content, clientUuid: opening.clientUuid },
    turn.hooks,
    signal,
  );
  if (submitted.blocked) return { kind: 'blocked', reason: submitted.blocked.reason };
  return { kind: 'query', input, prompt: submitted };
}

/** What the model reads around the prompt besides the prompt itself. */
export type OpeningSources = {
  /** SessionStart hook context not yet recorded. */
  sessionContext: readonly string[];
  liveMessages: LivePoolMessages | undefined;
  skillListing: SkillListingSource | undefined;
};

/**
 * The messages that open a query turn: session-start context, MCP notices and the skill listing
 * when they changed, the prompt, its attachments and hook context, and the live pool's context
 * for the prompt.
 */
export async function openingMessages(
  turn: Extract<OpenedTurn, { kind: 'query' }>,
  opening: TurnOpening | undefined,
  sources: OpeningSources,
  signal: AbortSignal,
): Promise<Message[]> {
  const meta = (content: string | UserContentBlock[]) => createUserMessage(content, { isMeta: true });
  const messages: Message[] = sources.sessionContext.map(meta);
  messages.push(...(sources.liveMessages?.changedNotices() ?? []).map(meta));
  // The skills the model may run, when that changed (all of them at the first turn): context, not a frame.
  const skills = sources.skillListing?.update([]);
  if (skills !== undefined) messages.push(meta(skills));
  if (turn.prompt) messages.push(turn.prompt.message);
  messages.push(...(turn.input?.attachments ?? []).map(meta));
  if (turn.prompt) messages.push(...turn.prompt.context);
  const promptContext = opening ? await sources.liveMessages?.promptContext(opening.content, signal) : [];
  messages.push(...(promptContext ?? []).map(meta));
  return messages;
}
