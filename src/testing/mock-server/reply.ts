/**
 * Turns a scripted reply into concrete content (ids, signatures, stop reason filled in) and
 * provides the splitting both the mock server and the fake provider use, so that streamed text
 * and tool input arrive in several pieces the way real APIs send them.
 */
import type { AssistantContentBlock, StopReason, Usage } from '../../model/types';
import type { ScriptedReply, ScriptedReplyInput } from './scenario';

export type ResolvedReply = {
  content: AssistantContentBlock[];
  stopReason: StopReason;
  usage: Usage;
};

/** Issues deterministic ids so tests can assert on them; one per server or fake provider. */
export class IdSource {
  private counters = new Map<string, number>();

  next(prefix: string): string {
    const n = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, n);
    return `${prefix}${String(n).padStart(4, '0')}`;
  }
}

/** A rough token estimate (4 characters per token), good enough for budgets in tests. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * Fills in what a script may leave out. `idPrefix` names the origin (`toolu_mock_`, `toolu_fake_`).
 * `inputText` is what the input-token estimate is based on.
 */
export function resolveReply(
  reply: ScriptedReply | ScriptedReplyInput,
  ids: IdSource,
  idPrefix: string,
  inputText: string,
): ResolvedReply {
  const content = reply.content.map((block): AssistantContentBlock => {
    if (block.type === 'thinking') {
      return { type: 'thinking', thinking: block.thinking, signature: block.signature ?? ids.next('sig_') };
    }
    if (block.type === 'tool_use') {
      return { type: 'tool_use', id: block.id ?? ids.next(idPrefix), name: block.name, input: block.input };
    }
    return { ...block };
  });
  const hasToolUse = content.some((block) => block.type === 'tool_use');
  const outputText = content
    .map((b) =>
      b.type === 'text'
        ? b.text
        : b.type === 'thinking'
          ? b.thinking
          : b.type === 'tool_use'
            ? JSON.stringify(b.input)
            : '',
    )
    .join('');
  return {
    content,
    stopReason: reply.stopReason ?? (hasToolUse ? 'tool_use' : 'end_turn'),
    usage: {
      inputTokens: estimateTokens(inputText),
      outputTokens: estimateTokens(outputText),
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
      ...reply.usage,
    },
  };
}

/**
 * Splits text into chunks of a few words; the chunks concatenate back to the original exactly
 * (whitespace stays attached to the word before it).
 */
export function splitText(text: string, wordsPerChunk = 3): string[] {
  const words = text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerChunk)
    chunks.push(words.slice(i, i + wordsPerChunk).join(''));
  return chunks;
}

/**
 * Splits serialized JSON into up to `parts` fragments at arbitrary points, as the APIs do: a
 * client must concatenate before parsing. Splits by code point so no surrogate pair is broken.
 */
export function splitJson(json: string, parts = 4): string[] {
  const chars = Array.from(json);
  const size = Math.max(1, Math.ceil(chars.length / parts));
  const fragments: string[] = [];
  for (let i = 0; i < chars.length; i += size) fragments.push(chars.slice(i, i + size).join(''));
  return fragments;
}
