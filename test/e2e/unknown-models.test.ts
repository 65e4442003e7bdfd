/**
 * Models Yoke's table does not know, through `yoke -p` against the mock server as an
 * OpenAI-compatible local server: the once-per-model warning kept in $YOKE_HOME/state.json, the
 * context length the server reports, and what the settings declare under `models`.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockServer, type ScenarioInput, startMockServer } from '../../src/testing/mock-server';
import { mockEnv, runYoke, tempProject } from './helpers';

const MODEL = 'qwen-local';
let server: MockServer;
let home: string;
let cwd: string;

beforeAll(async () => {
  server = await startMockServer({ scenario: [] });
  cwd = await tempProject();
  await writeFile(join(cwd, 'hello.txt'), 'hello from the file\n');
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  home = await tempProject('yoke-home-');
});

/** Two model calls (a Read, then the answer): the second one runs with what the server reported. */
function scenario(models: { id: string; maxModelLen?: number }[] = []): ScenarioInput {
  return {
    models,
    turns: [
      {
        reply: {
          content: [{ type: 'tool_use', name: 'Read', input: { file_path: join(cwd, 'hello.txt') } }],
        },
      },
      {
        match: { lastToolResultContains: 'hello from the file' },
        reply: { content: [{ type: 'text', text: 'Read it.' }] },
      },
    ],
  };
}

function yoke(model = MODEL) {
  return runYoke(
    ['-p', 'read hello.txt', '--model', model, '--provider', 'openai', '--output-format', 'json'],
    {
      cwd,
      env: {
        ...mockEnv(server.url, home),
        ANTHROPIC_API_KEY: undefined,
        ANTHROPIC_BASE_URL: undefined,
        OPENAI_API_KEY: 'sk-e2e',
        OPENAI_BASE_URL: `${server.url}/v1`,
      },
    },
  );
}

const warningLines = (stderr: string) =>
  stderr.split('\n').filter((line) => line.includes('is unknown to Yoke'));

describe('a model Yoke does not know', () => {
  it('is warned about once, remembered in the state file beside what else it holds', async () => {
    const trust = { projects: { '/work/app': { trusted: true } } };
    await mkdir(home, { recursive: true });
    await writeFile(join(home, 'state.json'), JSON.stringify(trust));
    server.reset(scenario());

    const first = await yoke();
    expect(first.code).toBe(0);
    expect(warningLines(first.stderr)).toEqual([
      `yoke: warning: model "${MODEL}" is unknown to Yoke: its cost is not counted (reported as $0), and its ` +
        'context window is taken as 128,000 tokens unless the server reports its own. Declare it in settings: ' +
        `"models": {"${MODEL}": {"contextWindow": <tokens>, "inputPrice": <USD>, "outputPrice": <USD>}} (prices ` +
        'per million tokens). This is said once per model.',
    ]);
    const state = JSON.parse(await readFile(join(home, 'state.json'), 'utf8'));
    expect(state.projects).toEqual(trust.projects);
    expect(Object.keys(state.unknownModelsWarned)).toEqual([MODEL]);

    server.reset(scenario());
    const second = await yoke();
    expect(second.code).toBe(0);
    expect(warningLines(second.stderr)).toEqual([]);
    // Another unknown model is a new warning.
    server.reset(scenario());
    expect(warningLines((await yoke('mistral-local')).stderr)).toHaveLength(1);
  });

  it("uses the context length the server reports (vLLM's max_model_len), asked beside the first request", async () => {
    server.reset(scenario([{ id: MODEL, maxModelLen: 32_768 }]));
    const { code, stdout } = await yoke();
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.result).toBe('Read it.');
    expect(result.modelUsage[MODEL].contextWindow).toBe(32_768);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toContain('GET /v1/models');
  });

  it('takes the window and prices the settings declare, and then has nothing to warn about', async () => {
    await mkdir(home, { recursive: true });
    await writeFile(
      join(home, 'settings.json'),
      JSON.stringify({ models: { [MODEL]: { contextWindow: 50_000, inputPrice: 1000, outputPrice: 2000 } } }),
    );
    server.reset(scenario([{ id: MODEL, maxModelLen: 32_768 }]));
    const { code, stdout, stderr } = await yoke();
    expect(code).toBe(0);
    expect(warningLines(stderr)).toEqual([]);
    const result = JSON.parse(stdout);
    expect(result.modelUsage[MODEL].contextWindow).toBe(50_000);
    expect(result.total_cost_usd).toBeGreaterThan(0);
    // Nothing was unknown, so the server was not asked.
    expect(server.requests.map((r) => r.path)).not.toContain('/v1/models');
  });
});
