/**
 * The REPL's `@path` mentions: expanded by interactive/mentions.ts (the Read tool's reading, deny
 * rules, size limits and folder listings) in the running engine's tool context, so a mentioned
 * file counts as read and relative paths follow a `!cd`. The meta messages become content blocks
 * after the prompt, in the same user turn. The expansion (and what it brings: the Read tool's
 * reading, the MCP bundle's resource mentions) loads with the first prompt, not before the REPL's
 * first frame.
 */
import type { UserContentBlock } from '../../model/types';
import type { ReadySession } from './prompt-router';
import type { PromptAttachments } from './repl-session';

export function mentionAttacher(
  ready: () => ReadySession | undefined,
): (prompt: string, signal: AbortSignal) => Promise<PromptAttachments> {
  return async (prompt, signal) => {
    const current = ready();
    if (!current) return { blocks: [], attached: [], problems: [] };
    const { expandMentions } = await import('../../interactive/mentions');
    const expansion = await expandMentions(prompt, current.engine.userToolContext(signal));
    const blocks = expansion.messages.flatMap((message): UserContentBlock[] => {
      const content = message.message.content;
      return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
    });
    return { blocks, attached: expansion.attached, problems: expansion.problems };
  };
}
