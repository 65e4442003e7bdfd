/**
 * Yoke's canonical (Anthropic-shaped) conversation → Chat Completions messages.
 *
 * Tool-call ids pass through unchanged in both directions so that a transcript written while
 * talking to one provider can be resumed against the other.
 */
import type {
  ChatCompletionContentPart,
  ChatCompletionContentPartText,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type {
  AssistantMessageParam,
  DocumentBlock,
  ImageBlock,
  MessageParam,
  SystemPart,
  TextBlock,
  ToolResultBlock,
  UserMessageParam,
} from '../types';

type UserPart = ChatCompletionContentPart;

export function toChatMessages(system: SystemPart[], messages: MessageParam[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  const systemText = system
    .map((p) => p.text)
    .filter((t) => t.length > 0)
    .join('\n\n');
  if (systemText) out.push({ role: 'system', content: systemText });
  for (const message of messages) {
    if (message.role === 'user') out.push(...userMessages(message));
    else {
      const assistant = assistantMessage(message);
      if (assistant) out.push(assistant);
    }
  }
  return out;
}

/**
 * One Anthropic user message can hold tool results, text and images in any order. Chat
 * Completions needs tool results as separate `tool` messages directly after the assistant
 * message, and tool messages cannot carry images, so media from a run of tool results is
 * carried by one user message right after that run.
 */
function userMessages(message: UserMessageParam): ChatCompletionMessageParam[] {
  if (typeof message.content === 'string') return [{ role: 'user', content: message.content }];
  const out: ChatCompletionMessageParam[] = [];
  let pending: UserPart[] = [];
  let toolMedia: UserPart[] = [];
  const flushUser = () => {
    if (pending.length > 0) out.push(userMessage(pending));
    pending = [];
  };
  const flushToolMedia = () => {
    if (toolMedia.length > 0) out.push(userMessage(toolMedia));
    toolMedia = [];
  };
  for (const block of message.content) {
    if (block.type === 'tool_result') {
      flushUser();
      const { text, media } = toolResult(block);
      out.push({ role: 'tool', tool_call_id: block.tool_use_id, content: text });
      toolMedia.push(...media);
    } else {
      flushToolMedia();
      pending.push(userPart(block));
    }
  }
  flushToolMedia();
  flushUser();
  return out;
}

function userMessage(parts: UserPart[]): ChatCompletionMessageParam {
  // A plain string is what every local server understands; parts only when media is present.
  if (parts.every((p) => p.type === 'text')) {
    return {
      role: 'user',
      content: parts.map((p) => (p as ChatCompletionContentPartText).text).join('\n\n'),
    };
  }
  return { role: 'user', content: parts };
}

function userPart(block: TextBlock | ImageBlock | DocumentBlock): UserPart {
  if (block.type === 'text') return { type: 'text', text: block.text };
  if (block.type === 'image') return imagePart(block);
  return documentPart(block);
}

function imagePart(block: ImageBlock): UserPart {
  const { source } = block;
  const url = source.type === 'url' ? source.url : `data:${source.media_type};base64,${source.data}`;
  return { type: 'image_url', image_url: { url } };
}

function documentPart(block: DocumentBlock): UserPart {
  const { source } = block;
  if (source.type === 'text') return { type: 'text', text: documentText(block.title, source.data) };
  return {
    type: 'file',
    file: {
      file_data: `data:${source.media_type};base64,${source.data}`,
      filename: block.title ?? 'document.pdf',
    },
  };
}

function toolResult(block: ToolResultBlock): { text: string; media: UserPart[] } {
  const prefix = block.is_error ? 'Error: ' : '';
  if (typeof block.content === 'string') return { text: prefix + block.content, media: [] };
  const texts: string[] = [];
  const media: UserPart[] = [];
  for (const part of block.content) {
    if (part.type === 'text') texts.push(part.text);
    else if (part.type === 'tool_reference') {
      // Chat Completions has no references: the loaded tool's schema is in the request's tools.
      texts.push(`Loaded ${part.tool_name}: its schema is now in your tool list.`);
    } else if (part.type === 'document' && part.source.type === 'text') {
      texts.push(documentText(part.title, part.source.data));
    } else media.push(userPart(part));
  }
  if (media.length > 0) {
    // Tell the model where the media went, and label it so it is tied to this call.
    const noun = media.length === 1 ? 'attachment' : 'attachments';
    texts.push(`(${media.length} ${noun} in the next user message)`);
    media.unshift({ type: 'text', text: `Attachments from tool call ${block.tool_use_id}:` });
  }
  return { text: prefix + texts.join('\n\n'), media };
}

function documentText(title: string | undefined, data: string): string {
  return title ? `${title}\n\n${data}` : data;
}

function assistantMessage(message: AssistantMessageParam): ChatCompletionMessageParam | undefined {
  if (typeof message.content === 'string') return { role: 'assistant', content: message.content };
  const texts: string[] = [];
  const toolCalls: ChatCompletionMessageFunctionToolCall[] = [];
  for (const block of message.content) {
    if (block.type === 'text') texts.push(block.text);
    else if (block.type === 'tool_use') {
      toolCalls.push({
        id: block.id,
        type: 'function',
        function: { name: block.name, arguments: JSON.stringify(block.input) },
      });
    }
    // thinking / redacted_thinking: signed for one Anthropic model, meaningless to any other.
  }
  const text = texts.join('\n\n');
  if (!text && toolCalls.length === 0) return undefined;
  return {
    role: 'assistant',
    content: text || null,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
}
