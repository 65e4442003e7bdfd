/**
 * Stage 1: tool-result budgets. A result larger than `perResultTokens`, or the largest results of
 * one response's batch while the batch exceeds `perTurnTokens`, are written to the session folder
 * and replaced by a preview with the file's path (the model can Read the rest).
 *
 * Each result is decided exactly once, when first seen: kept or replaced. The decision is
 * remembered by tool_use_id and re-applied on every pass, so the bytes sent for a result never
 * change afterwards (the cached prefix survives) and a history restored from the original results
 * gets the same replacements. Every replacement is reported through `onContentReplacement` so the
 * transcript can record it and a resumed session sends the same thing.
 */
import { estimateBlockTokens } from '../../model/tokens';
import type { ToolResultBlock, ToolResultContent, UserContentBlock } from '../../model/types';
import type { Message, UserMessage } from '../../session/messages';
import { PERSISTED_PREVIEW_CHARS, persistLargeResult } from '../../tools/result-persistence';
import { toolResultsOf, withContent } from './context-messages';

export type ContentReplacementCallback = (targetUuid: string, content: UserContentBlock[]) => void;

export type ToolResultBudgetOptions = {
  perResultTokens: number;
  perTurnTokens: number;
  sessionDir: string;
  onContentReplacement?: ContentReplacementCallback;
};

type Fresh = { messageIndex: number; block: ToolResultBlock; tokens: number };

export class ToolResultBudget {
  /** tool_use_id → the replacement content, or null when the result was kept as it is. */
  private readonly decided = new Map<string, ToolResultContent | null>();

  constructor(private readonly options: ToolResultBudgetOptions) {}

  /** Seeds decisions recorded earlier (a resumed session), so they apply without re-deciding. */
  remember(toolUseId: string, replacement: ToolResultContent | null): void {
    this.decided.set(toolUseId, replacement);
  }

  async apply(messages: Message[]): Promise<{ messages: Message[]; freedTokens: number }> {
    const { perResultTokens, perTurnTokens } = this.options;
    const replacements = new Map<string, ToolResultContent>();
    let batch: Fresh[] = [];
    const batches: Fresh[][] = [];
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i] as Message;
      if (m.type === 'assistant') {
        if (batch.length > 0) batches.push(batch);
        batch = [];
        continue;
      }
      for (const block of toolResultsOf(m)) {
        const known = this.decided.get(block.tool_use_id);
        if (known === undefined) batch.push({ messageIndex: i, block, tokens: estimateBlockTokens(block) });
        else if (known !== null && known !== block.content) replacements.set(block.tool_use_id, known);
      }
    }
    if (batch.length > 0) batches.push(batch);

    for (const fresh of batches) {
      let total = fresh.reduce((sum, r) => sum + r.tokens, 0);
      // Largest first: the fewest replacements that bring the batch under its budget.
      const bySize = [...fresh].sort((a, b) => b.tokens - a.tokens);
      for (const result of bySize) {
        if (result.tokens <= perResultTokens && total <= perTurnTokens) break;
        const replaced = await this.persist(result.block);
        if (replaced === undefined) continue;
        replacements.set(result.block.tool_use_id, replaced);
        this.decided.set(result.block.tool_use_id, replaced);
        total -= result.tokens - estimateBlockTokens({ ...result.block, content: replaced });
      }
      for (const result of fresh) {
        if (!this.decided.has(result.block.tool_use_id)) this.decided.set(result.block.tool_use_id, null);
      }
    }
    if (replacements.size === 0) return { messages, freedTokens: 0 };
    return this.rewrite(messages, replacements);
  }

  private async persist(block: ToolResultBlock): Promise<ToolResultContent | undefined> {
    const outcome = await persistLargeResult({
      content: block.content,
      maxResultSizeChars: PERSISTED_PREVIEW_CHARS,
      sessionDir: this.options.sessionDir,
      toolUseId: block.tool_use_id,
    });
    // Too short to shrink (mostly images or a short text): keeping it is the stable choice.
    return outcome.path === undefined ? undefined : outcome.content;
  }

  private rewrite(
    messages: Message[],
    replacements: Map<string, ToolResultContent>,
  ): { messages: Message[]; freedTokens: number } {
    let freedTokens = 0;
    const out = messages.map((m) => {
      if (m.type !== 'user' || typeof m.message.content === 'string') return m;
      if (!m.message.content.some((b) => b.type === 'tool_result' && replacements.has(b.tool_use_id)))
        return m;
      const content = m.message.content.map((b) => {
        const replacement = b.type === 'tool_result' ? replacements.get(b.tool_use_id) : undefined;
        if (b.type !== 'tool_result' || replacement === undefined) return b;
        const next: ToolResultBlock = { ...b, content: replacement };
        freedTokens += estimateBlockTokens(b) - estimateBlockTokens(next);
        return next;
      });
      const updated: UserMessage = withContent(m, content);
      this.options.onContentReplacement?.(m.uuid, content);
      return updated;
    });
    return { messages: out, freedTokens };
  }
}
