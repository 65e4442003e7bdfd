/**
 * A background agent's output file: its messages as plain text lines, appended as they come, so
 * the parent (TaskOutput, or Read on the file) and the user can follow it while it runs. The full
 * structured conversation is the agent's sidechain transcript; this file is for reading.
 */
import type { Message } from '../../session/messages';

const RESULT_PREVIEW = 400;
const INPUT_PREVIEW = 200;

function clip(text: string, limit: number): string {
  const flat = text.trim();
  return flat.length > limit ? `${flat.slice(0, limit - 1)}…` : flat;
}

function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block: { type?: string; text?: unknown }) =>
      block.type === 'text' && typeof block.text === 'string'
        ? block.text
        : block.type
          ? `[${block.type}]`
          : '',
    )
    .join('\n');
}

/** The lines one message adds to the output file ('' when it adds none). */
export function outputLines(message: Message): string {
  if (message.type === 'system') return message.content ? `[${message.subtype}] ${message.content}\n` : '';
  if (message.type === 'assistant') {
    const parts: string[] = [];
    if (message.apiError) parts.push(`[error] ${message.apiError}`);
    for (const block of message.message.content) {
      if (block.type === 'text' && block.text.trim()) parts.push(block.text.trim());
      else if (block.type === 'tool_use')
        parts.push(`→ ${block.name} ${clip(JSON.stringify(block.input), INPUT_PREVIEW)}`);
    }
    return parts.length > 0 ? `${parts.join('\n')}\n` : '';
  }
  const { content } = message.message;
  if (typeof content === 'string') return message.isMeta ? '' : `[message] ${content.trim()}\n`;
  const parts: string[] = [];
  for (const block of content) {
    if (block.type === 'tool_result') {
      const text = clip(blockText(block.content), RESULT_PREVIEW);
      parts.push(`${block.is_error ? '← error: ' : '← '}${text || '(no output)'}`);
    } else if (block.type === 'text' && !message.isMeta && block.text.trim()) {
      parts.push(`[message] ${block.text.trim()}`);
    }
  }
  return parts.length > 0 ? `${parts.join('\n')}\n` : '';
}

/** The file's first lines: which agent, and its task. */
export function outputHeader(task: {
  id: string;
  description: string;
  agentType: string;
  prompt: string;
}): string {
  return `Background agent ${task.id} (${task.agentType}): ${task.description}\n[task] ${task.prompt.trim()}\n`;
}
