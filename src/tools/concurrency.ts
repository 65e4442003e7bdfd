/**
 * Which tool calls of one model response may run side by side (seed 000 §3.3.3): consecutive
 * concurrency-safe calls run together; anything else runs alone, in the order the model chose.
 * The streaming executor applies the rule call by call as the blocks arrive.
 */
import type { ToolUseBlock } from '../model/types';
import { findToolByName } from './registry';
import type { AnyTool } from './tool';

/** How many concurrency-safe calls run at once unless configured otherwise. */
export const DEFAULT_MAX_TOOL_CONCURRENCY = 10;

/**
 * Whether one call may overlap others. Unknown tools, input that does not parse and a throwing
 * `isConcurrencySafe` all count as unsafe: such calls fail or run alone, never racing a write.
 * Returns a plain boolean when the tool answers synchronously so callers can start it at once.
 */
export function isCallConcurrencySafe(
  block: ToolUseBlock,
  tools: readonly AnyTool[],
): boolean | Promise<boolean> {
  const tool = findToolByName(tools, block.name);
  if (!tool) return false;
  try {
    const parsed = tool.inputSchema.safeParse(block.input);
    if (!parsed.success) return false;
    const answer = tool.isConcurrencySafe(parsed.data);
    if (typeof answer === 'boolean') return answer;
    return Promise.resolve(answer).then(
      (safe) => safe === true,
      () => false,
    );
  } catch {
    return false;
  }
}
