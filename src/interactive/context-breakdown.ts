/**
 * What fills the context window, by category, for `/context` and the status line's percentage.
 * The figures are the model layer's estimates (model/tokens.ts) of exactly what the next request
 * carries; the provider's measured count of the last request is shown beside them, because only
 * the provider knows its tokenizer.
 */

import { groupDigits } from '../lib/group-digits';
import {
  estimateBlockTokens,
  estimateTextTokens,
  MESSAGE_OVERHEAD_TOKENS,
  TOOL_OVERHEAD_TOKENS,
} from '../model/tokens';
import type { Message } from '../session/messages';

/** What fills the context window, for /context and the status line's percentage. */
export type ContextSources = {
  /** The system prompt's parts as sent, memory files included (the breakdown separates them). */
  systemPrompt: readonly string[];
  /** The tool schemas the model is offered, as sent. */
  tools: readonly { name: string; description: string; input_schema: unknown }[];
  /** The memory files the system prompt carries (CLAUDE.md, AGENTS.md, rules), with their text. */
  memoryFiles: readonly { path: string; content: string }[];
  /** The conversation as the next request would carry it. */
  messages: readonly Message[];
  /**
   * The input tokens the provider reported for the last request (input + cache read + cache
   * write), when there was one: shown beside the estimate as the measured figure.
   */
  lastRequestInputTokens?: number;
};

export const CONTEXT_CATEGORIES = [
  'systemPrompt',
  'tools',
  'memoryFiles',
  'messages',
  'toolResults',
] as const;
export type ContextCategory = (typeof CONTEXT_CATEGORIES)[number];

export const CATEGORY_LABELS: Readonly<Record<ContextCategory, string>> = {
  systemPrompt: 'System prompt',
  tools: 'Tool definitions',
  memoryFiles: 'Memory files',
  messages: 'Messages',
  toolResults: 'Tool results',
};

export type ContextBreakdown = {
  /** Estimated tokens per category. */
  tokens: Readonly<Record<ContextCategory, number>>;
  /** Sum of the categories. */
  total: number;
  window: number;
  /** total / window, 0..1 and beyond when over. */
  fraction: number;
  /** The provider's count for the last request, when one was made. */
  measured?: number;
  /** Memory files by size, largest first, for the detail lines. */
  memoryFiles: readonly { path: string; tokens: number }[];
  /** The system prompt is built with the first request: before it, its size is not known. */
  systemPromptPending: boolean;
};

export function contextBreakdown(sources: ContextSources, window: number): ContextBreakdown {
  const memoryFiles = sources.memoryFiles
    .map((f) => ({ path: f.path, tokens: estimateTextTokens(f.content) }))
    .sort((a, b) => b.tokens - a.tokens);
  const memory = memoryFiles.reduce((sum, f) => sum + f.tokens, 0);
  const systemWhole = sources.systemPrompt.reduce((sum, part) => sum + estimateTextTokens(part), 0);

  let tools = 0;
  for (const tool of sources.tools) {
    tools +=
      TOOL_OVERHEAD_TOKENS +
      estimateTextTokens(tool.name) +
      estimateTextTokens(tool.description) +
      estimateTextTokens(JSON.stringify(tool.input_schema) ?? '');
  }

  let messages = 0;
  let toolResults = 0;
  for (const entry of sources.messages) {
    if (entry.type === 'system') continue; // Yoke's own notes; never sent to the model
    messages += MESSAGE_OVERHEAD_TOKENS;
    const content = entry.message.content;
    if (typeof content === 'string') {
      messages += estimateTextTokens(content);
      continue;
    }
    for (const block of content) {
      if (block.type === 'tool_result') toolResults += estimateBlockTokens(block);
      else messages += estimateBlockTokens(block);
    }
  }

  const tokens: Record<ContextCategory, number> = {
    // The memory files sit inside the system prompt; counted once, under their own name.
    systemPrompt: Math.max(0, systemWhole - memory),
    tools,
    memoryFiles: memory,
    messages,
    toolResults,
  };
  const total = CONTEXT_CATEGORIES.reduce((sum, c) => sum + tokens[c], 0);
  const breakdown: ContextBreakdown = {
    tokens,
    total,
    window,
    fraction: window > 0 ? total / window : 0,
    memoryFiles,
    systemPromptPending: sources.systemPrompt.length === 0,
  };
  if (sources.lastRequestInputTokens !== undefined) breakdown.measured = sources.lastRequestInputTokens;
  return breakdown;
}

const formatTokens = groupDigits;
const percent = (part: number, whole: number) => (whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : '0%');

/** The `/context` text: one line per category with a bar, then the memory files and the free space. */
export function formatContextBreakdown(b: ContextBreakdown, model: string): string {
  const width = 20;
  const lines = [
    `Context: ${formatTokens(b.total)} of ${formatTokens(b.window)} tokens (${percent(b.total, b.window)}) — ${model}`,
  ];
  const labelWidth = Math.max(...CONTEXT_CATEGORIES.map((c) => CATEGORY_LABELS[c].length));
  for (const category of CONTEXT_CATEGORIES) {
    if (category === 'systemPrompt' && b.systemPromptPending) {
      lines.push(
        `  ${CATEGORY_LABELS[category].padEnd(labelWidth)}  not counted yet: it is built for the first request`,
      );
      continue;
    }
    const n = b.tokens[category];
    const filled = b.window > 0 ? Math.min(width, Math.round((n / b.window) * width)) : 0;
    const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
    lines.push(
      `  ${CATEGORY_LABELS[category].padEnd(labelWidth)}  ${bar}  ${formatTokens(n).padStart(9)}  ${percent(n, b.window).padStart(6)}`,
    );
  }
  const free = b.window - b.total;
  lines.push(
    free >= 0
      ? `  ${'Free'.padEnd(labelWidth)}  ${' '.repeat(width)}  ${formatTokens(free).padStart(9)}  ${percent(free, b.window).padStart(6)}`
      : `  Over the window by ${formatTokens(-free)} tokens: /compact to summarize the conversation.`,
  );
  for (const file of b.memoryFiles) lines.push(`    ${file.path}: ${formatTokens(file.tokens)} tokens`);
  lines.push(
    b.measured !== undefined
      ? `Estimated from the text; the provider counted ${formatTokens(b.measured)} input tokens for the last request.`
      : 'Estimated from the text; no request has been made yet.',
  );
  return lines.join('\n');
}
