// Context pipeline figures. (a) Cost of one pipeline pass on a 500-round history (target < 5 ms).
// (b) Cache-friendliness of a scripted 30-call session through the real QueryEngine and
// AnthropicProvider against the mock server: for each request, the share of its serialized input
// (system, tools, messages; cache_control markers removed, since they move every turn by design)
// that repeats the previous request's prefix. Compaction calls and the first request after one
// are reported apart; the target for the rest is >= 90 %. A variant edits files the agent read, so
// turn-boundary attachments (changed-file notices) show their effect on the cache.
// The sources are bundled on the fly with esbuild, so this needs no build of the CLI.
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSources } from './_bundle.mjs';

const work = mkdtempSync(join(tmpdir(), 'yoke-bench-context-'));
const entry = `
export { createContextPipeline } from './src/engine/context/pipeline';
export { conversation, toolRound } from './src/engine/context/context-test-support';
export { COMPACT_REQUEST, COMPACT_SYSTEM_PROMPT } from './src/engine/context/summarize';
export { QueryEngine } from './src/engine/query-engine';
export { selectModel } from './src/model/select';
export { startMockServer } from './src/testing/mock-server';
export { ReadFileState } from './src/tools/read-file-state';
export { CHANGED_FILES_INTRO } from './src/engine/context/changed-files';
export { recordFileState } from './src/tools/builtin/shared/freshness';
export { buildTool } from './src/tools/tool';
export { noopHooks } from './src/hooks/types';
export { allowAll } from './src/permissions/types';
export { makeContext } from './src/tools/test-support';
export { createBuiltinTools } from './src/tools/builtin';
export { z } from 'zod';
`;
// Inside the repo so the bundle's external packages resolve from node_modules.
const y = await importSources('context', entry);

const quantile = (sorted, q) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];

// (a) One pass per turn while a 500-round history keeps growing.
{
  const manager = y.createContextPipeline({
    provider: {
      name: 'anthropic',
      stream: () => {
        throw new Error('no model calls expected');
      },
    },
    model: 'claude-sonnet-4-5',
    hooks: y.noopHooks,
    getAppState: () => ({ todos: [] }),
    readFileState: new y.ReadFileState(),
    sessionDir: work,
    contextWindow: 1_000_000_000,
  });
  const state = { toolUseContext: y.makeContext([]), turnCount: 0 };
  const signal = new AbortController().signal;
  let messages = y.conversation(500, 1_500);
  const times = [];
  for (let i = 0; i < 300; i++) {
    messages.push(...y.toolRound(`extra${i}`, `result ${i}\n${'text of a result '.repeat(80)}`));
    const began = process.hrtime.bigint();
    messages = (await manager.contextPipeline({ messages, state, signal })).messages;
    times.push(Number(process.hrtime.bigint() - began) / 1e6);
  }
  const steady = times.slice(50).sort((a, b) => a - b);
  const median = quantile(steady, 0.5);
  console.log(
    `pipeline pass at ${messages.length} messages (500+ rounds): median ${median.toFixed(3)} ms, ` +
      `p90 ${quantile(steady, 0.9).toFixed(3)} ms — target < 5 ms: ${median < 5 ? 'OK' : 'MISS'}`,
  );
}

// (b) 30 model calls through the engine against the mock server.
{
  const files = [];
  for (let i = 0; i < 10; i++) {
    const path = join(work, `file${i}.md`);
    // Typical source-file reads: 1-3 KB each.
    writeFileSync(
      path,
      `# File ${i}\n${'A line of prose that the agent reads while it works. '.repeat(20 + 4 * i)}`,
    );
    files.push(path);
  }
  async function cacheRun(label, { realTools, contextWindow, judged, editBehindItsBack }) {
    let call = 0;
    const server = await y.startMockServer({
      scenario: [
        {
          match: { lastUserTextContains: y.COMPACT_REQUEST },
          repeat: 'forever',
          reply: {
            content: [
              { type: 'text', text: 'Summary: the agent read files 0-9 in turn; next: keep reading.' },
            ],
          },
        },
        {
          repeat: 'forever',
          reply: () => {
            call++;
            // Someone edits a file the agent read: a changed-file notice joins the next request.
            if (editBehindItsBack && call % 7 === 0)
              appendFileSync(files[(call + 3) % 10], `Edited at call ${call}.\n`);
            if (call % 10 === 0) return { content: [{ type: 'text', text: `Finished batch ${call / 10}.` }] };
            return { content: [{ type: 'tool_use', name: 'Read', input: { file_path: files[call % 10] } }] };
          },
        },
      ],
    });
    const benchReadTool = y.buildTool({
      name: 'Read',
      tier: 'read',
      inputSchema: y.z.object({ file_path: y.z.string() }),
      prompt: 'Reads a file.',
      isConcurrencySafe: () => true,
      isReadOnly: () => true,
      call: async (input, ctx) => {
        const { readFile } = await import('node:fs/promises');
        const text = await readFile(input.file_path, 'utf8');
        // What the real Read records: the file's hash and mtime (the engine compares them at each boundary).
        await y.recordFileState(ctx, input.file_path, Buffer.from(text));
        return { data: text };
      },
    });
    const tools = realTools ? y.createBuiltinTools() : [benchReadTool];
    const { provider, model } = await y.selectModel({
      model: 'claude-opus-5-5',
      env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'bench' },
    });
    const engine = new y.QueryEngine({
      cwd: work,
      provider,
      model,
      tools,
      canUseTool: y.allowAll,
      sessionDir: join(work, 'session'),
      environment: { cwd: work, platform: 'linux', date: '2026-01-01', isGitRepo: false, model },
      contextManagement: contextWindow ? { contextWindow } : {},
    });
    for (const prompt of ['Read the files, batch one.', 'Batch two, please.', 'And batch three.']) {
      for await (const _ of engine.submitMessage(prompt));
    }
    await server.close();

    const strip = (value) => JSON.stringify(value, (key, v) => (key === 'cache_control' ? undefined : v));
    const requests = server.requests
      .filter((r) => r.path === '/v1/messages')
      .map((r) => ({
        text: strip({ system: r.body.system, tools: r.body.tools, messages: r.body.messages }),
        compaction: JSON.stringify(r.body.system ?? '').includes(y.COMPACT_SYSTEM_PROMPT.slice(0, 60)),
      }));
    const shares = [];
    const kept = [];
    const afterCompaction = [];
    let prev;
    let prevWasCompaction = false;
    for (const r of requests) {
      if (r.compaction) {
        prevWasCompaction = true;
        continue;
      }
      if (prev !== undefined) {
        let n = 0;
        const max = Math.min(prev.length, r.text.length);
        while (n < max && prev.charCodeAt(n) === r.text.charCodeAt(n)) n++;
        (prevWasCompaction ? afterCompaction : shares).push(n / r.text.length);
        // The previous request always ends with its closing brackets, which the next one extends.
        if (!prevWasCompaction) kept.push(n / (prev.length - 4));
      }
      prev = r.text;
      prevWasCompaction = false;
    }
    const sorted = [...shares].sort((a, b) => a - b);
    const mean = shares.reduce((s, x) => s + x, 0) / shares.length;
    const pct = (x) => `${(x * 100).toFixed(1)} %`;
    console.log(`[${label}]`);
    console.log(
      `cache prefix reuse over ${requests.length} requests (${requests.filter((r) => r.compaction).length} compaction calls): ` +
        `mean ${pct(mean)}, median ${pct(quantile(sorted, 0.5))}, min ${pct(sorted[0])}, ` +
        `requests under 90 %: ${shares.filter((s) => s < 0.9).length}/${shares.length} ${judged ? `— target >= 90 %: ${mean >= 0.9 ? 'OK' : 'MISS'}` : '(no target: early requests are mostly new tool output)'}`,
    );
    const breaks = kept.filter((k) => k < 0.99).length;
    console.log(
      `previous request kept as the prefix: ${pct(kept.reduce((s, x) => s + x, 0) / kept.length)} on average; ` +
        `cache-breaking requests (prefix kept < 99 %): ${breaks}/${kept.length}`,
    );
    if (editBehindItsBack) {
      const notices = server.requests.filter((r) =>
        JSON.stringify(r.body?.messages ?? []).includes(y.CHANGED_FILES_INTRO),
      );
      const first = notices.length > 0 ? server.requests.indexOf(notices[0]) + 1 : 0;
      console.log(`changed-file notices: first in request ${first}, carried by ${notices.length} requests`);
    }
    if (afterCompaction.length > 0)
      console.log(`first request after each compaction: ${afterCompaction.map(pct).join(', ')}`);
  }
  // The session as a user runs it: Yoke's real tool pool and the model's own window.
  await cacheRun("real tool pool, the model's window (target applies)", { realTools: true, judged: true });
  // Attachments (here changed-file notices) are appended after what was sent: no cache break.
  await cacheRun('real tool pool, files edited behind its back', {
    realTools: true,
    judged: true,
    editBehindItsBack: true,
  });
  // A tiny window, so microcompact fires within the 30 calls and its one cache break is visible.
  await cacheRun('one small tool, 20k window (microcompact stress)', {
    realTools: false,
    contextWindow: 20_000,
  });
}
rmSync(work, { recursive: true, force: true });
