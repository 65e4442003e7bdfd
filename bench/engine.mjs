// Engine figures, through the real query loop (`query()` from src/engine/query.ts).
// (a) Harness overhead per turn: a provider that replies at once (pre-built events, no HTTP, no
//     copies) asks for one no-op tool call per turn, 500 turns in one conversation. A turn's wall
//     time runs from one model call to the next: yielding the response's events, the tool run
//     (permission check, validation, result message), history bookkeeping and building the next
//     request over the whole history. Reported as the mean over turns 1-10 and 491-500, after a
//     separate 100-turn warm-up conversation so JIT warm-up is not counted as turn-1 cost.
//     Target < 2 ms per turn at both ends (no growth with history).
// (b) Streaming overlap: a response streamed over 2 s whose first block is a tool_use for a read
//     tool that takes 1 s. The tool starts as soon as its block ends, so the turn (response,
//     tool, and an instant follow-up call) should take about 2 s, not 3 s.
import { importSources, loadLine, mean, verdict } from './_bundle.mjs';
import { MODEL, noopTool, responseEvents } from './_responses.mjs';

const y = await importSources(
  'engine',
  `
export { query } from './src/engine/query';
export { buildTool } from './src/tools/tool';
export { makeContext } from './src/tools/test-support';
export { createUserMessage } from './src/session/messages';
export { noopHooks } from './src/hooks/types';
export { allowAll } from './src/permissions/types';
export { z } from 'zod';
`,
);

const TURNS = 500;
const TARGET_TURN_MS = 2;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

function params(provider, tools, prompt) {
  return {
    messages: [y.createUserMessage(prompt)],
    systemPrompt: [{ text: 'You are a benchmark assistant.' }],
    toolUseContext: y.makeContext(tools),
    canUseTool: y.allowAll,
    provider,
    model: MODEL,
    hooks: y.noopHooks,
  };
}

async function drain(generator) {
  let step = await generator.next();
  while (!step.done) step = await generator.next();
  return step.value;
}

// (a) Per-turn overhead.
const noop = noopTool(y);

/** Answers every call at once with a tool call, `turns` times, then a plain answer. */
function instantProvider(turns) {
  const stamps = [];
  return {
    stamps,
    provider: {
      name: 'fake',
      async *stream() {
        stamps.push(performance.now());
        const n = stamps.length;
        const events =
          n <= turns
            ? responseEvents(n, { text: 'Next step.', tool: { name: 'Noop', input: { n } } })
            : responseEvents(n, { text: 'Done.' });
        for (const event of events) yield event;
      },
    },
  };
}

async function conversation(turns) {
  const { provider, stamps } = instantProvider(turns);
  const terminal = await drain(y.query(params(provider, [noop], 'Run the no-op tool repeatedly.')));
  if (terminal.reason !== 'completed' || terminal.turnCount !== turns)
    throw new Error(`unexpected end: ${terminal.reason} after ${terminal.turnCount} turns`);
  // Turn k (1-based) runs from model call k to model call k+1.
  return { turnMs: stamps.slice(1).map((t, i) => t - stamps[i]), messages: terminal.messages.length };
}

console.log(loadLine());
await conversation(100);
const { turnMs, messages } = await conversation(TURNS);
const early = mean(turnMs.slice(0, 10));
const late = mean(turnMs.slice(TURNS - 10, TURNS));
const overall = mean(turnMs);
console.log(
  `per-turn overhead (instant provider, 1 no-op tool call per turn, ${TURNS} turns, ${messages} messages at the end):`,
);
console.log(
  `  turns 1-10    mean ${early.toFixed(3)} ms   target < ${TARGET_TURN_MS} ms  ${verdict(early < TARGET_TURN_MS)}`,
);
console.log(
  `  turns 491-500 mean ${late.toFixed(3)} ms   target < ${TARGET_TURN_MS} ms  ${verdict(late < TARGET_TURN_MS)}`,
);
console.log(
  `  all turns     mean ${overall.toFixed(3)} ms; growth 491-500 vs 1-10: ${(late / early).toFixed(2)}x`,
);

// (b) Streaming overlap.
{
  const STREAM_MS = 2000;
  const TOOL_MS = 1000;
  const CHUNKS = 40;
  let toolStartedAt;
  let toolEndedAt;
  const slowRead = y.buildTool({
    name: 'SlowRead',
    tier: 'read',
    inputSchema: y.z.object({ file_path: y.z.string() }),
    prompt: 'Reads a file slowly.',
    isConcurrencySafe: () => true,
    isReadOnly: () => true,
    call: async () => {
      toolStartedAt = performance.now();
      await sleep(TOOL_MS);
      toolEndedAt = performance.now();
      return { data: 'contents of the file' };
    },
  });
  let calls = 0;
  const provider = {
    name: 'fake',
    async *stream() {
      calls++;
      if (calls > 1) {
        for (const event of responseEvents(calls, { text: 'The file says hello.' })) yield event;
        return;
      }
      const began = performance.now();
      // The tool_use block first, complete after the first chunk delay.
      const head = responseEvents(calls, { tool: { name: 'SlowRead', input: { file_path: '/tmp/a.txt' } } });
      const stop = head.pop();
      await sleep(STREAM_MS / CHUNKS);
      for (const event of head) yield event;
      // Then a text block whose deltas arrive over the rest of the 2 s, on an absolute schedule.
      yield { type: 'block_start', index: 1, block: { type: 'text' } };
      let text = '';
      for (let i = 2; i <= CHUNKS; i++) {
        await sleep(began + (i * STREAM_MS) / CHUNKS - performance.now());
        const delta = `word${i} `;
        text += delta;
        yield { type: 'text_delta', index: 1, text: delta };
      }
      yield { type: 'block_stop', index: 1, block: { type: 'text', text } };
      yield stop;
    },
  };
  const began = performance.now();
  const terminal = await drain(y.query(params(provider, [slowRead], 'Read a.txt.')));
  const total = performance.now() - began;
  if (terminal.reason !== 'completed') throw new Error(`unexpected end: ${terminal.reason}`);
  const ratio = total / STREAM_MS;
  console.log(
    `streaming overlap (2 s stream, first block a 1 s read tool, then an instant follow-up call): ` +
      `turn ${total.toFixed(0)} ms = ${ratio.toFixed(2)}x the 2 s stream (3 s if serial)  ` +
      `target ≈ 2 s (< 1.1x)  ${verdict(ratio < 1.1)}`,
  );
  console.log(
    `  tool ran ${(toolStartedAt - began).toFixed(0)}-${(toolEndedAt - began).toFixed(0)} ms into the turn`,
  );
}
