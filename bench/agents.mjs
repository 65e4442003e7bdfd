// Subagent figures, through the real runAgent (src/agents/run-agent.ts) on the real query loop.
// (a) Harness overhead per agent turn: a worker whose provider answers at once asks for one no-op
//     tool call per turn, 200 turns. A turn runs from one model call to the next, so it holds what
//     runAgent adds to the loop (the budget meter, usage and cost into the session's tracker,
//     tool-use counting, the live-view callback) on top of the loop's own work. Mean over turns
//     1-10 and 191-200, after a warm-up run. Target < 2 ms per turn.
// (b) Cost of starting a worker: runAgent calls whose worker answers at once with text, the
//     time from call to result (filtering the pool, the system prompt, a cloned read-file state,
//     the budget meter). Median over 200 starts. Figure only.
// (c) The same per-turn figure through the Agent tool, as the parent's tool call runs it (the
//     worker's messages forwarded as progress). Target < 2 ms per turn.
import { importSources, loadLine, mean, median, verdict } from './_bundle.mjs';
import { noopTool, responseEvents } from './_responses.mjs';

const y = await importSources(
  'agents',
  `
export { runAgent } from './src/agents/run-agent';
export { createAgentTool } from './src/agents/agent-tool';
export { AgentRegistry } from './src/agents/registry';
export { parentWithRuntime, definition } from './src/agents/test-support';
export { buildTool } from './src/tools/tool';
export { z } from 'zod';
`,
);

const TURNS = 200;
const TARGET_TURN_MS = 2;

/** Answers each worker's calls at once: `turns` tool calls, then a text answer (per conversation). */
function instantProvider(turns) {
  const stamps = [];
  return {
    stamps,
    name: 'fake',
    async *stream(request) {
      stamps.push(performance.now());
      const assistantTurns = request.messages.filter((m) => m.role === 'assistant').length;
      const n = stamps.length;
      const response = assistantTurns < turns ? { tool: { name: 'Noop', input: { n } } } : { text: 'Done.' };
      for (const event of responseEvents(n, response)) yield event;
    },
  };
}

const noop = noopTool(y);

async function workerTurns(turns) {
  const provider = instantProvider(turns);
  const { parent } = y.parentWithRuntime(provider, { pool: [noop] });
  const result = await y.runAgent({
    definition: y.definition(),
    prompt: 'Run the no-op tool repeatedly.',
    parent,
    signal: new AbortController().signal,
    onEvent: () => {},
  });
  if (result.endReason !== 'completed' || result.toolUses !== turns)
    throw new Error(`unexpected end: ${result.endReason} after ${result.toolUses} tool uses`);
  return provider.stamps.slice(1).map((t, i) => t - provider.stamps[i]);
}

function report(label, turnMs) {
  const early = mean(turnMs.slice(0, 10));
  const late = mean(turnMs.slice(TURNS - 10, TURNS));
  console.log(`${label} median of all turns ${median(turnMs).toFixed(3)} ms`);
  console.log(
    `  turns 1-10    mean ${early.toFixed(3)} ms   target < ${TARGET_TURN_MS} ms  ${verdict(early < TARGET_TURN_MS)}`,
  );
  console.log(
    `  turns ${TURNS - 9}-${TURNS} mean ${late.toFixed(3)} ms   target < ${TARGET_TURN_MS} ms  ${verdict(late < TARGET_TURN_MS)}`,
  );
}

console.log(loadLine());

// (a)
await workerTurns(50);
report(
  `per agent turn inside runAgent (instant provider, 1 no-op tool call per turn, ${TURNS} turns):`,
  await workerTurns(TURNS),
);

// (b)
{
  const provider = instantProvider(0);
  const { parent } = y.parentWithRuntime(provider, { pool: [noop] });
  const starts = [];
  for (let i = 0; i < 250; i++) {
    const began = performance.now();
    await y.runAgent({
      definition: y.definition(),
      prompt: `task ${i}`,
      parent,
      signal: new AbortController().signal,
    });
    if (i >= 50) starts.push(performance.now() - began);
  }
  console.log(
    `starting a worker that answers at once (runAgent call to result, 200 runs): median ${median(starts).toFixed(3)} ms`,
  );
}

// (c)
{
  const provider = instantProvider(TURNS);
  const { parent } = y.parentWithRuntime(provider, { pool: [noop] });
  const registry = new y.AgentRegistry([y.definition()]);
  const tool = y.createAgentTool(registry);
  let forwarded = 0;
  const result = await tool.call(
    { description: 'Bench', prompt: 'Run the no-op tool repeatedly.', subagent_type: 'helper' },
    { ...parent, toolUseId: 'toolu_bench' },
    () => forwarded++,
  );
  if (result.data.totalToolUseCount !== TURNS) throw new Error('the worker did not finish its turns');
  const turnMs = provider.stamps.slice(1).map((t, i) => t - provider.stamps[i]);
  report(
    `per agent turn through the Agent tool (${forwarded} worker messages forwarded as progress):`,
    turnMs,
  );
}
