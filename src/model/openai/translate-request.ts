/**
 * ModelRequest → Chat Completions streaming parameters. Pure: no client, no I/O.
 */
import type {
  ChatCompletionCreateParamsStreaming,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import { wireEffort } from '../effort';
import type { ModelRequest, ToolChoice, ToolSchema } from '../types';
import { toChatMessages } from './translate-messages';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export type ChatTarget = {
  /** The server the request goes to; undefined means OpenAI itself. */
  baseURL?: string;
};

/**
 * OpenAI's own API deprecated `max_tokens` (reasoning models reject it) in favour of
 * `max_completion_tokens`, which most local servers (older vLLM, llama.cpp, LM Studio) ignore.
 */
export function isOpenAIPlatform(baseURL: string | undefined): boolean {
  if (baseURL === undefined) return true;
  try {
    return new URL(baseURL).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}

export function toChatCompletionParams(
  request: ModelRequest,
  target: ChatTarget = {},
): ChatCompletionCreateParamsStreaming {
  const params: ChatCompletionCreateParamsStreaming = {
    model: request.model,
    messages: toChatMessages(request.system, request.messages),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (isOpenAIPlatform(target.baseURL)) params.max_completion_tokens = request.maxTokens;
  else params.max_tokens = request.maxTokens;
  const tools = request.tools ?? [];
  // Servers reject tool_choice without tools, so both are sent or neither.
  if (tools.length > 0) {
    params.tools = tools.map(toChatTool);
    if (request.toolChoice) params.tool_choice = toChatToolChoice(request.toolChoice);
  }
  if (request.stopSequences && request.stopSequences.length > 0) params.stop = request.stopSequences;
  if (request.temperature !== undefined) params.temperature = request.temperature;
  const effort = request.effort && wireEffort('openai', request.model, request.effort).value;
  if (effort) params.reasoning_effort = effort;
  return params;
}

function toChatTool(tool: ToolSchema): ChatCompletionTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.input_schema },
  };
}

function toChatToolChoice(choice: ToolChoice): ChatCompletionToolChoiceOption {
  switch (choice.type) {
    case 'auto':
      return 'auto';
    case 'any':
      return 'required';
    case 'none':
      return 'none';
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
  }
}
