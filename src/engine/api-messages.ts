/**
 * Projects the conversation as Yoke stores it onto the messages an API request carries. The loop
 * stores one AssistantMessage per content block (as the SDK frames do) and one UserMessage per
 * tool result, while the API wants strictly one message per speaker turn; this file is the one
 * place that folds them back together.
 */

import { estimateMessagesTokens } from '../model/tokens';
import type {
  AssistantContentBlock,
  AssistantMessageParam,
  MessageParam,
  UserContentBlock,
  UserMessageParam,
} from '../model/types';
import { type AssistantMessage, type Message, stripThinking, type UserMessage } from '../session/messages';

type Pending =
  | { role: 'assistant'; id: string; content: AssistantContentBlock[]; start: number }
  | { role: 'user'; results: UserContentBlock[]; rest: UserContentBlock[]; start: number };

function userBlocks(message: UserMessage): UserContentBlock[] {
  const content = message.message.content;
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return content;
}

function finish(pending: Pending): MessageParam | undefined {
  if (pending.role === 'assistant') {
    if (pending.content.length === 0) return undefined;
    const param: AssistantMessageParam = { role: 'assistant', content: pending.content };
    return param;
  }
  // The API requires tool_result blocks to open the user turn that answers a tool_use.
  const content = pending.results.length === 0 ? pending.rest : [...pending.results, ...pending.rest];
  if (content.length === 0) return undefined;
  const param: UserMessageParam = { role: 'user', content };
  return param;
}

/**
 * The model-bound view of a conversation: system messages and synthetic API-error messages are
 * dropped, consecutive assistant messages of one response (same `message.id`) become one message,
 * consecutive user messages become one (tool results first), and no message is ever empty.
 */
export function toApiMessages(messages: readonly Message[]): MessageParam[] {
  return new ApiProjection().project(messages);
}

/**
 * `toApiMessages` for a conversation that grows turn by turn: it remembers the projection of the
 * last call and re-projects only from the first message that changed (by identity; messages are
 * never mutated in place, a change is a new object), starting again at the speaker turn that
 * message may extend. The result is always equal to `toApiMessages(messages)`. It also keeps the
 * running token estimate of the projected messages (`estimateMessagesTokens` of the result), so
 * neither the projection nor the estimate walks the unchanged history again.
 */
export class ApiProjection {
  /** The messages of the last call, by identity. */
  private readonly inputs: Message[] = [];
  private readonly out: MessageParam[] = [];
  /** Index in `inputs` of the message that opened each output message's speaker turn. */
  private readonly starts: number[] = [];
  /** `sums[j]`: estimated tokens of `out[0..j)`, filled in when `tokens` is asked for. */
  private readonly sums: number[] = [0];

  /** `estimateMessagesTokens` of the last projection. */
  get tokens(): number {
    for (let j = this.sums.length - 1; j < this.out.length; j++) {
      this.sums.push((this.sums[j] as number) + estimateMessagesTokens([this.out[j] as MessageParam]));
    }
    return this.sums[this.out.length] as number;
  }

  project(messages: readonly Message[]): MessageParam[] {
    const limit = Math.min(messages.length, this.inputs.length);
    let same = 0;
    while (same < limit && messages[same] === this.inputs[same]) same++;
    // Output messages opened before the first change are final, except the last: it may continue.
    let keep = this.starts.length;
    while (keep > 0 && (this.starts[keep - 1] as number) >= same) keep--;
    let from = 0;
    if (keep > 0) {
      keep--;
      from = this.starts[keep] as number;
    }
    this.out.length = keep;
    this.starts.length = keep;
    if (this.sums.length > keep + 1) this.sums.length = keep + 1;
    this.inputs.length = from;
    for (let i = from; i < messages.length; i++) this.inputs.push(messages[i] as Message);
    this.projectFrom(messages, from);
    return this.out.slice();
  }

  private projectFrom(messages: readonly Message[], from: number): void {
    let pending: Pending | undefined;
    const flush = () => {
      if (!pending) return;
      const param = finish(pending);
      if (param) {
        this.out.push(param);
        this.starts.push(pending.start);
      }
      pending = undefined;
    };

    for (let i = from; i < messages.length; i++) {
      const message = messages[i] as Message;
      if (message.type === 'system') continue;
      if (message.type === 'assistant') {
        // An API error report is Yoke's note to the user, not something the model said.
        if (message.apiError !== undefined) continue;
        const blocks = assistantBlocks(message);
        // An empty message must not split the turns around it.
        if (blocks.length === 0) continue;
        if (pending?.role === 'assistant' && pending.id === message.message.id) {
          pending.content.push(...blocks);
          continue;
        }
        flush();
        pending = { role: 'assistant', id: message.message.id, content: [...blocks], start: i };
        continue;
      }
      const blocks = userBlocks(message);
      if (blocks.length === 0) continue;
      if (pending?.role !== 'user') {
        flush();
        pending = { role: 'user', results: [], rest: [], start: i };
      }
      for (const block of blocks) {
        if (block.type === 'tool_result') pending.results.push(block);
        else pending.rest.push(block);
      }
    }
    flush();
  }
}

function assistantBlocks(message: AssistantMessage): AssistantContentBlock[] {
  const content = message.message.content as AssistantContentBlock[] | string;
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return content;
}

/** Re-exported for the engine's callers; the rule lives with the messages it edits. */
export { stripThinking };
