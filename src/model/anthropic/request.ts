/**
 * ModelRequest → Messages API parameters. Never mutates the caller's objects: blocks that gain a
 * cache_control are copied, everything else is passed by reference.
 */
import type {
  MessageParam as ApiMessageParam,
  ToolChoice as ApiToolChoice,
  CacheControlEphemeral,
  ContentBlockParam,
  MessageCountTokensParams,
  MessageCreateParamsStreaming,
  TextBlockParam,
  ThinkingConfigParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import { wireEffort } from '../effort';
import type {
  ContentBlock,
  MessageParam,
  ModelRequest,
  SystemPart,
  ThinkingConfig,
  ToolChoice,
  ToolSchema,
} from '../types';

/** The API rejects a request with more cache_control breakpoints than this. */
export const MAX_CACHE_BREAKPOINTS = 4;

/**
 * The SDK's typings no longer list `temperature`; the body is sent as JSON as-is, so it still
 * reaches the API when a caller sets it.
 */
export type MessagesRequestBody = Omit<MessageCreateParamsStreaming, 'stream'> & { temperature?: number };

/** Hands out breakpoints in prefix order and refuses once the API limit is reached. */
class BreakpointBudget {
  private remaining = MAX_CACHE_BREAKPOINTS;

  take(): CacheControlEphemeral | undefined {
    if (this.remaining <= 0) return undefined;
    this.remaining--;
    return { type: 'ephemeral' };
  }
}

export function toMessagesParams(request: ModelRequest): MessagesRequestBody {
  const budget = new BreakpointBudget();
  const params: MessagesRequestBody = {
    model: request.model,
    max_tokens: request.maxTokens,
    messages: [],
  };
  const system = toSystemBlocks(request.system, budget);
  if (system.length > 0) params.system = system;
  if (request.tools && request.tools.length > 0) {
    params.tools = toTools(request.tools, request.builtinToolCount, budget);
  }
  params.messages = toApiMessages(request.messages, budget);
  const thinking = toThinking(request.thinking);
  if (thinking) params.thinking = thinking;
  if (request.toolChoice) params.tool_choice = toToolChoice(request.toolChoice);
  const effort = request.effort && wireEffort('anthropic', request.model, request.effort).value;
  if (effort) params.output_config = { effort };
  if (request.temperature !== undefined) params.temperature = request.temperature;
  if (request.stopSequences && request.stopSequences.length > 0) {
    params.stop_sequences = [...request.stopSequences];
  }
  return params;
}

/** The count_tokens endpoint takes the same prompt but no sampling parameters. */
export function toCountTokensParams(request: ModelRequest): MessageCountTokensParams {
  const { model, messages, system, tools, thinking, tool_choice } = toMessagesParams(request);
  const params: MessageCountTokensParams = { model, messages };
  if (system !== undefined) params.system = system;
  if (tools !== undefined) params.tools = tools;
  if (thinking !== undefined) params.thinking = thinking;
  if (tool_choice !== undefined) params.tool_choice = tool_choice;
  return params;
}

function toSystemBlocks(parts: SystemPart[], budget: BreakpointBudget): TextBlockParam[] {
  // The API rejects empty system text blocks, so they are dropped before choosing the breakpoint.
  const kept = parts.filter((part) => part.text.length > 0);
  let breakpoint = kept.findLastIndex((part) => part.cacheBreakpoint === true);
  if (breakpoint < 0) breakpoint = kept.length - 1;
  return kept.map((part, i) => {
    const block: TextBlockParam = { type: 'text', text: part.text };
    if (i === breakpoint) {
      const cacheControl = budget.take();
      if (cacheControl) block.cache_control = cacheControl;
    }
    return block;
  });
}

function toTools(
  tools: ToolSchema[],
  builtinToolCount: number | undefined,
  budget: BreakpointBudget,
): Tool[] {
  // After the built-ins, so that MCP servers coming and going keep the cached prefix valid.
  const breakpoint = Math.min(builtinToolCount ?? tools.length, tools.length) - 1;
  return tools.map((tool, i) => {
    const apiTool: Tool = {
      name: tool.name,
      description: tool.description,
      input_schema: tool.input_schema as Tool.InputSchema,
    };
    // Its schema enters the prompt only where a tool_reference names it, never the cached prefix.
    if (tool.deferLoading) apiTool.defer_loading = true;
    if (i === breakpoint) {
      const cacheControl = budget.take();
      if (cacheControl) apiTool.cache_control = cacheControl;
    }
    return apiTool;
  });
}

function toApiMessages(messages: MessageParam[], budget: BreakpointBudget): ApiMessageParam[] {
  const result: ApiMessageParam[] = messages.map((message) => ({
    role: message.role,
    content: typeof message.content === 'string' ? message.content : stripCacheControl(message.content),
  }));
  const last = result.at(-1);
  if (last) last.content = withTrailingBreakpoint(last.content, budget);
  return result;
}

/**
 * Content read back from a transcript may still carry an old cache_control; left in place it
 * would move the cache prefix and could push the request past the breakpoint limit.
 */
function stripCacheControl(blocks: ContentBlock[]): ContentBlockParam[] {
  if (!blocks.some(hasStrayCacheControl)) return blocks;
  return blocks.map((block) => {
    const copy = withoutCacheControl(block);
    if (copy.type === 'tool_result' && Array.isArray(copy.content)) {
      copy.content = copy.content.map(withoutCacheControl);
    }
    return copy;
  });
}

function hasStrayCacheControl(block: ContentBlock): boolean {
  if ('cache_control' in block) return true;
  return block.type === 'tool_result' && Array.isArray(block.content)
    ? block.content.some((inner) => 'cache_control' in inner)
    : false;
}

function withoutCacheControl<T extends object>(block: T): T {
  const { cache_control: _dropped, ...rest } = block as T & { cache_control?: unknown };
  return rest as T;
}

function withTrailingBreakpoint(
  content: string | ContentBlockParam[],
  budget: BreakpointBudget,
): string | ContentBlockParam[] {
  if (typeof content === 'string') {
    if (content.length === 0) return content;
    const cacheControl = budget.take();
    return cacheControl ? [{ type: 'text', text: content, cache_control: cacheControl }] : content;
  }
  const index = content.findLastIndex(canCarryCacheControl);
  if (index < 0) return content;
  const cacheControl = budget.take();
  if (!cacheControl) return content;
  const copy = [...content];
  copy[index] = { ...content[index], cache_control: cacheControl } as ContentBlockParam;
  return copy;
}

/** Thinking blocks cannot be cache breakpoints and the API rejects cache_control on empty text. */
function canCarryCacheControl(block: ContentBlockParam): boolean {
  if (block.type === 'thinking' || block.type === 'redacted_thinking') return false;
  if (block.type === 'text') return block.text.length > 0;
  return true;
}

function toThinking(thinking: ThinkingConfig | undefined): ThinkingConfigParam | undefined {
  switch (thinking?.type) {
    case 'enabled':
      return { type: 'enabled', budget_tokens: thinking.budgetTokens };
    case 'adaptive':
      return { type: 'adaptive' };
    default:
      // Off is the API's default, so nothing is sent.
      return undefined;
  }
}

function toToolChoice(choice: ToolChoice): ApiToolChoice {
  return choice.type === 'tool' ? { type: 'tool', name: choice.name } : { type: choice.type };
}
