/**
 * A worker's context pipeline through the built CLI and the mock model server: a worker whose
 * conversation nears the model's window compacts it (auto-compaction, as the main loop does), and
 * one the API refuses as too long compacts and retries (reactive compaction), instead of ending
 * with prompt-too-long. The window is a small one the settings declare for the mock model.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import type { ScenarioInput } from '../../src/testing/mock-server/scenario';
import { mockEnv, runYoke, tempProject } from './helpers';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const WORKER = 'You are the long-running worker.';
const COMPACTION = 'You summarize a conversation';
const SUMMARY = 'SUMMARY: the worker ran step one and has step two left.';

type Body = { system?: unknown; messages: unknown[] };
const bodies = () =>
  (server?.requests ?? []).filter((r) => r.path === '/v1/messages').map((r) => r.body as Body);
const systemOf = (body: Body) => JSON.stringify(body.system ?? '');

type Turn = Extract<ScenarioInput, unknown[]>[number];
const worker = (turn: Omit<Turn, 'match'>): Turn => ({
  match: { systemContains: WORKER },
  ...turn,
});

/** The parent delegates to the worker and reports what it answered. */
function parentTurns(): Turn[] {
  return [
    {
      match: { lastToolResultContains: 'WORKER DONE' },
      reply: { content: [{ type: 'text', text: 'The worker is done.' }] },
    },
    {
      reply: {
        content: [
          {
            type: 'tool_use',
            name: 'Agent',
            input: { description: 'Long job', prompt: 'Run both steps', subagent_type: 'long-worker' },
          },
        ],
      },
    },
  ];
}

async function run(scenario: ScenarioInput) {
  server = await startMockServer({ scenario });
  const project = await tempProject();
  const home = await tempProject('yoke-e2e-home-');
  const agents = { 'long-worker': { description: 'Runs long jobs.', prompt: WORKER } };
  const settings = { models: { 'yoke-small': { contextWindow: 40_000 } } };
  const result = await runYoke(
    [
      '-p',
      'Do the long job',
      '--model',
      'yoke-small',
      '--output-format',
      'json',
      '--allowedTools',
      'Bash',
      '--agents',
      JSON.stringify(agents),
      '--settings',
      JSON.stringify(settings),
    ],
    { cwd: project, env: mockEnv(server.url, home) },
  );
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

/** The worker's requests, and the compaction request among them, in order. */
function workerSide() {
  const all = bodies();
  const compaction = all.findIndex((body) => systemOf(body).includes(COMPACTION));
  expect(compaction, 'a compaction request').toBeGreaterThan(-1);
  const compactionBody = all[compaction] as Body;
  // The worker's conversation is what was summarized, not the parent's.
  expect(JSON.stringify(compactionBody.messages)).toContain('step-one-output');
  expect(JSON.stringify(compactionBody.messages)).not.toContain('Do the long job');
  const after = all.slice(compaction + 1).find((body) => systemOf(body).includes(WORKER));
  return after as Body;
}

describe('a worker manages its own context', () => {
  it('auto-compacts near the window and carries on from the summary', async () => {
    const result = await run([
      { match: { systemContains: COMPACTION }, reply: { content: [{ type: 'text', text: SUMMARY }] } },
      // 36k of a 40k window after the first step: the next pass compacts before asking the model.
      worker({
        reply: {
          content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo step-one-output' } }],
          usage: { inputTokens: 36_000 },
        },
      }),
      worker({ reply: { content: [{ type: 'text', text: 'WORKER DONE' }] } }),
      ...parentTurns(),
    ]);
    expect(result).toMatchObject({ is_error: false, result: 'The worker is done.' });
    const after = JSON.stringify(workerSide().messages);
    expect(after).toContain(SUMMARY);
    expect(after).not.toContain('step-one-output');
  });

  it('compacts and retries when the API says the prompt is too long', async () => {
    const result = await run([
      { match: { systemContains: COMPACTION }, reply: { content: [{ type: 'text', text: SUMMARY }] } },
      worker({
        reply: { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo step-one-output' } }] },
      }),
      worker({ fault: { type: 'prompt_too_long', actualTokens: 45_000, limitTokens: 40_000 } }),
      worker({ reply: { content: [{ type: 'text', text: 'WORKER DONE' }] } }),
      ...parentTurns(),
    ]);
    expect(result).toMatchObject({ is_error: false, result: 'The worker is done.' });
    expect(JSON.stringify(workerSide().messages)).toContain(SUMMARY);
  });
});
