/** Test helper for the worktree tools' `*.test.ts` files beside it. */
import type { ToolUseContext } from '../../../tools/context';

/** Runs a tool call as the executor would: the result's context change applies to later calls. */
export async function runTool<In extends Record<string, unknown>, Out>(
  tool: {
    call(
      input: In,
      ctx: ToolUseContext,
      p: () => void,
    ): Promise<{ data: Out; contextModifier?: (c: ToolUseContext) => ToolUseContext }>;
  },
  input: In,
  context: ToolUseContext,
): Promise<{ data: Out; context: ToolUseContext }> {
  const result = await tool.call(input, context, () => {});
  return { data: result.data, context: result.contextModifier ? result.contextModifier(context) : context };
}
