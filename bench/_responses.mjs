// Shared by the engine and agent benches (run.mjs skips files starting with `_`): the normalized
// stream events of one model response, as a provider that answers at once yields them, and the
// no-op tool their tool calls ask for.

export const MODEL = 'claude-sonnet-4-5';
const usage = { inputTokens: 10, outputTokens: 10, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };

/** The events of one response: an optional text block, then a tool_use block (or a text answer). */
export function responseEvents(id, { tool, text }) {
  const events = [{ type: 'message_start', messageId: `msg_${id}`, model: MODEL, usage }];
  let index = 0;
  if (text !== undefined) {
    events.push({ type: 'block_start', index, block: { type: 'text' } });
    events.push({ type: 'text_delta', index, text });
    events.push({ type: 'block_stop', index, block: { type: 'text', text } });
    index++;
  }
  if (tool) {
    const block = { type: 'tool_use', id: `toolu_${id}`, name: tool.name, input: tool.input };
    events.push({ type: 'block_start', index, block: { type: 'tool_use', id: block.id, name: block.name } });
    events.push({ type: 'input_json_delta', index, partialJson: JSON.stringify(tool.input) });
    events.push({ type: 'block_stop', index, block });
  }
  events.push({
    type: 'message_stop',
    stopReason: tool ? 'tool_use' : 'end_turn',
    stopSequence: null,
    usage,
  });
  return events;
}

/** `Noop {n}`: a read-only tool that answers "ok", built with the bench's own bundle (`buildTool`, `z`). */
export function noopTool({ buildTool, z }) {
  return buildTool({
    name: 'Noop',
    tier: 'read',
    inputSchema: z.object({ n: z.number() }),
    prompt: 'Does nothing.',
    isConcurrencySafe: () => true,
    isReadOnly: () => true,
    call: async () => ({ data: 'ok' }),
  });
}
