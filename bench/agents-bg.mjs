// Background agents: 20 at once in one process, through the real Agent launch path
// (launchBackgroundAgent → runAgent → the query loop) with the session's real built-in tools.
// Each worker's first response asks to Read a source file; its second request then waits for a
// model that does not answer yet: the agent is idle, holding its conversation, tool pool, output
// file and progress timer. Figures:
// (a) memory per idle agent: the live heap (after a full GC) with 20 idle agents, minus the heap
//     before any was launched, over 20. Target < 5 MB.
// (b) the same once all 20 have finished and are kept for SendMessage continuations.
// The script re-runs itself with --expose-gc so the heap figures are after a full collection.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importSources, loadLine, root, verdict } from './_bundle.mjs';

if (typeof globalThis.gc !== 'function') {
  const run = spawnSync(
    process.execPath,
    ['--expose-gc', ...process.execArgv, fileURLToPath(import.meta.url)],
    { stdio: 'inherit' },
  );
  process.exit(run.status ?? 1);
}

const y = await importSources(
  'agents-bg',
  `
export { launchBackgroundAgent } from './src/agents/background/launch';
export { BUILT_IN_AGENTS } from './src/agents/built-in';
export { parentWithRuntime } from './src/agents/test-support';
export { createBuiltinTools } from './src/tools/builtin/index';
export { AbortedError } from './src/model/errors';
`,
);

const AGENTS = 20;
const TARGET_MB = 5;
const MODEL = 'claude-sonnet-4-5';
const usage = { inputTokens: 1200, outputTokens: 80, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
const SOURCE = join(root, 'src/agents/background/agent-tasks.ts');

function response(id, block) {
  const events = [{ type: 'message_start', messageId: `msg_${id}`, model: MODEL, usage }];
  if (block.type === 'tool_use') {
    events.push({
      type: 'block_start',
      index: 0,
      block: { type: 'tool_use', id: block.id, name: block.name },
    });
    events.push({ type: 'input_json_delta', index: 0, partialJson: JSON.stringify(block.input) });
  } else {
    events.push({ type: 'block_start', index: 0, block: { type: 'text' } });
    events.push({ type: 'text_delta', index: 0, text: block.text });
  }
  events.push({ type: 'block_stop', index: 0, block });
  events.push({
    type: 'message_stop',
    stopReason: block.type === 'tool_use' ? 'tool_use' : 'end_turn',
    stopSequence: null,
    usage,
  });
  return events;
}

/** Answers each worker's first request with a Read; the second waits until `release()`. */
function idleModel() {
  const waiting = [];
  let arrived = 0;
  let onArrive = () => {};
  let calls = 0;
  const provider = {
    name: 'bench',
    async *stream(request, signal) {
      const id = ++calls;
      if (!request.messages.some((m) => m.role === 'assistant')) {
        yield* response(id, {
          type: 'tool_use',
          id: `toolu_${id}`,
          name: 'Read',
          input: { file_path: SOURCE },
        });
        return;
      }
      await new Promise((resolve, reject) => {
        waiting.push(resolve);
        signal.addEventListener('abort', () => reject(new y.AbortedError()), { once: true });
        arrived++;
        onArrive();
      });
      yield* response(id, { type: 'text', text: 'Read it: the registry keeps one record per agent.' });
    },
  };
  const allIdle = (n) =>
    new Promise((resolve) => {
      onArrive = () => arrived >= n && resolve();
      onArrive();
    });
  const release = () => {
    for (const resolve of waiting.splice(0)) resolve();
  };
  return { provider, allIdle, release };
}

const heap = () => {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
};
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(2);

const model = idleModel();
const pool = y.createBuiltinTools();
const { parent } = y.parentWithRuntime(model.provider, { pool });
const context = { ...parent, messages: [], notify: () => {} };
const general = y.BUILT_IN_AGENTS.find((d) => d.agentType === 'general-purpose');
const tasks = parent.services.agentTasks;

// A first launch warms the code paths, so the figure counts agents, not compiled code.
y.launchBackgroundAgent(context, {
  definition: general,
  prompt: 'warm up',
  description: 'Warm up',
  toolUseId: 'w',
});
await model.allIdle(1);
model.release();
await tasks.waitForAll(60_000, new AbortController().signal);

const before = heap();
const started = performance.now();
for (let i = 0; i < AGENTS; i++) {
  y.launchBackgroundAgent({
    parent: context,
    definition: general,
    prompt: `Read ${SOURCE} and say what it keeps per agent (agent ${i}).`,
    description: `Survey ${i}`,
    toolUseId: `toolu_launch_${i}`,
  });
}
await model.allIdle(AGENTS + 1);
const launchMs = performance.now() - started;
const idle = heap();
const running = tasks.running().length;
model.release();
await tasks.waitForAll(60_000, new AbortController().signal);
const finished = heap();
await parent.services.dispose();

const perIdle = (idle - before) / AGENTS;
const perFinished = (finished - before) / AGENTS;
console.log(loadLine());
console.log(
  `${AGENTS} background agents (${running} running) idle after one Read each in ${launchMs.toFixed(0)} ms; ` +
    `heap ${mb(before)} MB before, ${mb(idle)} MB idle, ${mb(finished)} MB finished`,
);
console.log(
  `memory per idle agent: ${mb(perIdle)} MB (target < ${TARGET_MB} MB) ${verdict(perIdle < TARGET_MB * 1024 * 1024)}`,
);
console.log(`memory per finished agent kept for SendMessage: ${mb(perFinished)} MB`);
