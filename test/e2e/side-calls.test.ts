/**
 * Side calls through `yoke -p` against the mock model server: the compaction summary, WebFetch's
 * reading of a page and the auto-mode classifier go to the session's provider and base URL, use
 * the session's fast model, count in `total_cost_usd`, `modelUsage` and `--max-budget-usd`, and
 * survive a dropped stream without disturbing the conversation's frames.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COMPACT_REQUEST } from '../../src/engine/context/summarize';
import { type MockServer, type ScenarioInput, startMockServer } from '../../src/testing/mock-server';
import { fileExists, mockEnv, runYoke, tempProject } from './helpers';

const MAIN = 'claude-sonnet-5-5';
const FAST = 'claude-haiku-5-5';
/** USD per million tokens, from src/model/models.ts. */
const PRICE = {
  [MAIN]: { input: 3, output: 15 },
  [FAST]: { input: 1, output: 5 },
} as const;

let server: MockServer;
let pages: Server;
let pageUrl: string;
let home: string;
let cwd: string;

beforeAll(async () => {
  server = await startMockServer({ scenario: [] });
  pages = createServer((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<h1>Release notes</h1><p>Version 2 ships on Friday.</p>');
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}/notes`;
});
afterAll(async () => {
  await server.close();
  pages.closeAllConnections();
  await new Promise((resolve) => pages.close(resolve));
});
beforeEach(async () => {
  home = await tempProject('yoke-home-');
  cwd = await tempProject();
});

async function userSettings(settings: Record<string, unknown>): Promise<void> {
  await mkdir(home, { recursive: true });
  await writeFile(join(home, 'settings.json'), JSON.stringify(settings));
}

type Result = {
  subtype: string;
  is_error: boolean;
  result?: string;
  total_cost_usd: number;
  session_id: string;
  modelUsage: Record<string, { inputTokens: number; outputTokens: number; costUSD: number }>;
};

async function yokeJson(prompt: string, args: string[], env: Record<string, string | undefined> = {}) {
  const run = await runYoke(['-p', prompt, '--output-format', 'json', ...args], {
    cwd,
    env: { ...mockEnv(server.url, home), ...env },
  });
  return { ...run, result: JSON.parse(run.stdout) as Result };
}

const cost = (model: keyof typeof PRICE, input: number, output: number) =>
  (input * PRICE[model].input + output * PRICE[model].output) / 1_000_000;

const text = (value: string, usage?: { inputTokens: number; outputTokens: number }) => ({
  content: [{ type: 'text' as const, text: value }],
  ...(usage ? { usage } : {}),
});

const messagesRequests = () => server.requests.filter((r) => r.path === '/v1/messages');
type TurnInput = Extract<ScenarioInput, unknown[]>[number];

const modelOf = (request: { body: unknown }) => (request.body as { model: string }).model;

/** The model fetches the page; the fast model reads it; the model answers from its reading. */
function webFetchScenario(reading: TurnInput[]): ScenarioInput {
  return [
    ...reading,
    {
      match: { lastToolResultContains: 'Friday' },
      reply: text('It ships on Friday.', { inputTokens: 200, outputTokens: 5 }),
    },
    {
      match: { lastUserTextContains: 'release' },
      reply: {
        content: [
          { type: 'tool_use', name: 'WebFetch', input: { url: pageUrl, prompt: 'When is the release?' } },
        ],
        usage: { inputTokens: 100, outputTokens: 10 },
      },
    },
  ];
}

const READING = text('Version 2 ships on Friday.', { inputTokens: 3_000, outputTokens: 200 });

describe('WebFetch reads the page with the session fast model', () => {
  beforeEach(async () => {
    await userSettings({ webFetch: { allowedHosts: [new URL(pageUrl).host] } });
  });

  it("counts the reading's cost in total_cost_usd and modelUsage", async () => {
    server.reset(webFetchScenario([{ match: { model: FAST }, reply: READING }]));
    const { code, result } = await yokeJson('When is the release?', ['--allowedTools', 'WebFetch']);
    expect(code).toBe(0);
    expect(result.result).toBe('It ships on Friday.');
    expect(messagesRequests().map(modelOf)).toEqual([MAIN, FAST, MAIN]);
    expect(result.modelUsage[FAST]).toMatchObject({ inputTokens: 3_000, outputTokens: 200 });
    expect(result.modelUsage[FAST]?.costUSD).toBeCloseTo(cost(FAST, 3_000, 200), 10);
    expect(result.modelUsage[MAIN]).toMatchObject({ inputTokens: 300, outputTokens: 15 });
    expect(result.total_cost_usd).toBeCloseTo(cost(FAST, 3_000, 200) + cost(MAIN, 300, 15), 10);
    // The transcript's cost lines (what `yoke sessions` adds up) include the reading too.
    const [project] = await readdir(join(home, 'projects'));
    const transcript = await readFile(
      join(home, 'projects', project as string, `${result.session_id}.jsonl`),
      'utf8',
    );
    const lines = transcript
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; model?: string; costUSD?: number });
    const costs = lines.filter((line) => line.type === 'cost');
    expect(costs.map((line) => line.model)).toEqual([MAIN, FAST, MAIN]);
    expect(costs.reduce((sum, line) => sum + (line.costUSD ?? 0), 0)).toBeCloseTo(result.total_cost_usd, 10);
  });

  it('takes the fast model from ANTHROPIC_SMALL_FAST_MODEL', async () => {
    server.reset(webFetchScenario([{ match: { model: 'claude-haiku-4-5' }, reply: READING }]));
    const { code, result } = await yokeJson('When is the release?', ['--allowedTools', 'WebFetch'], {
      ANTHROPIC_SMALL_FAST_MODEL: 'claude-haiku-4-5',
    });
    expect(code).toBe(0);
    expect(messagesRequests().map(modelOf)).toEqual([MAIN, 'claude-haiku-4-5', MAIN]);
    expect(Object.keys(result.modelUsage).sort()).toEqual(['claude-haiku-4-5', MAIN]);
  });

  it('stops at --max-budget-usd when the reading spent it', async () => {
    // The conversation alone costs well under a cent; the reading costs $0.15.
    server.reset(
      webFetchScenario([
        { match: { model: FAST }, reply: text('Friday.', { inputTokens: 100_000, outputTokens: 10_000 }) },
      ]),
    );
    const { code, result } = await yokeJson('When is the release?', [
      '--allowedTools',
      'WebFetch',
      '--max-budget-usd',
      '0.1',
    ]);
    expect(code).toBe(1);
    expect(result).toMatchObject({ subtype: 'error_max_budget_usd', is_error: true });
    expect(result.total_cost_usd).toBeCloseTo(cost(FAST, 100_000, 10_000) + cost(MAIN, 100, 10), 10);
    // No model call after the tool turn that spent the budget.
    expect(messagesRequests().map(modelOf)).toEqual([MAIN, FAST]);
  });

  it('starts a dropped reading over once, keeps the frames whole and says which call retried', async () => {
    server.reset(
      webFetchScenario([
        {
          match: { model: FAST },
          reply: text('Version 2 ships on Monday, no wait'),
          fault: { type: 'disconnect', afterEvents: 5 },
        },
        { match: { model: FAST }, reply: READING },
      ]),
    );
    const run = await runYoke(
      [
        '-p',
        'When is the release?',
        '--allowedTools',
        'WebFetch',
        '--output-format',
        'stream-json',
        '--verbose',
      ],
      { cwd, env: mockEnv(server.url, home) },
    );
    expect(run.code).toBe(0);
    const frames = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    // The conversation's frames in order; the side call's retry is not one of them.
    expect(frames.map((f) => (f.type === 'system' ? `system/${f.subtype}` : f.type))).toEqual([
      'system/init',
      'assistant',
      'user',
      'assistant',
      'result',
    ]);
    expect(JSON.stringify(frames[2])).toContain('Version 2 ships on Friday.');
    expect(JSON.stringify(frames[2])).not.toContain('Monday');
    expect(run.stderr).toMatch(
      /^yoke: warning: WebFetch's reading of the page: API request failed: The connection to the server at \S+ dropped: .*; retrying in \d+ ms \(retry 1 of 8\)$/m,
    );
    const result = frames[4] as unknown as Result;
    // The dropped attempt never finished; only the reading that did is counted.
    expect(result.modelUsage[FAST]).toMatchObject({ inputTokens: 3_000, outputTokens: 200 });
  });

  it('waits on the reading as the apiTimeouts setting says', async () => {
    await userSettings({
      webFetch: { allowedHosts: [new URL(pageUrl).host] },
      apiTimeouts: { firstByteMs: 1_000 },
    });
    server.reset(
      webFetchScenario([
        { match: { model: FAST }, fault: { type: 'silent' } },
        { match: { model: FAST }, reply: READING },
      ]),
    );
    const { code, result, stderr } = await yokeJson('When is the release?', ['--allowedTools', 'WebFetch']);
    expect(code).toBe(0);
    expect(result.result).toBe('It ships on Friday.');
    expect(stderr).toMatch(
      /WebFetch's reading of the page: API request failed: No answer from the server at \S+: connected, but nothing came back within 1 s; retrying in/,
    );
  });
});

describe('the compaction summary', () => {
  const model = 'claude-test-small';
  /**
   * A tool turn whose reported usage passes 80 % of an 8,000-token window, so the next call
   * compacts first; the summary and the answer after it. Prices (USD per million tokens) are the
   * settings' for this model: the tool turn costs $0.0142, the summary $0.0100, the answer $0.0011.
   */
  const compactingScenario = async () => {
    // A model the table does not know, with a small window and prices declared in the settings.
    await userSettings({ models: { [model]: { contextWindow: 8_000, inputPrice: 2, outputPrice: 10 } } });
    await writeFile(join(cwd, 'notes.md'), 'Release steps: tag, build, publish.\n');
    server.reset([
      {
        match: { lastUserTextContains: COMPACT_REQUEST },
        reply: text('Summary: the user asked for the release steps; notes.md lists them.', {
          inputTokens: 3_000,
          outputTokens: 400,
        }),
      },
      {
        match: { lastUserTextContains: 'Summary:' },
        reply: text('Tag, build, publish.', { inputTokens: 500, outputTokens: 10 }),
      },
      {
        match: { lastUserTextContains: 'release steps' },
        reply: {
          content: [{ type: 'tool_use', name: 'Read', input: { file_path: join(cwd, 'notes.md') } }],
          // Reported usage past 80 % of the 8,000-token window: the next call compacts first.
          usage: { inputTokens: 7_000, outputTokens: 20 },
        },
      },
    ]);
  };
  const askForReleaseSteps = (...args: string[]) =>
    yokeJson('What are the release steps?', ['--model', model, '--tools', 'Read', ...args]);

  it('is paid for: its usage is in total_cost_usd and modelUsage', async () => {
    await compactingScenario();
    const { code, result } = await askForReleaseSteps();
    expect(code).toBe(0);
    expect(result.result).toBe('Tag, build, publish.');
    const requests = messagesRequests();
    expect(requests).toHaveLength(3);
    // The summary is asked of the main model: only its window is sure to hold the conversation.
    expect(requests.map(modelOf)).toEqual([model, model, model]);
    expect(JSON.stringify(requests[1]?.body)).toContain(COMPACT_REQUEST);
    expect(result.modelUsage[model]).toMatchObject({ inputTokens: 10_500, outputTokens: 430 });
    expect(result.total_cost_usd).toBeCloseTo((10_500 * 2 + 430 * 10) / 1_000_000, 10);
  });

  it('stops at --max-budget-usd when the summary spent it: no model call after the compaction', async () => {
    await compactingScenario();
    // The tool turn ($0.0142) leaves budget; the summary ($0.0100) spends it.
    const { code, result } = await askForReleaseSteps('--max-budget-usd', '0.02');
    expect(code).toBe(1);
    expect(result).toMatchObject({ subtype: 'error_max_budget_usd', is_error: true });
    const requests = messagesRequests();
    expect(requests).toHaveLength(2);
    expect(JSON.stringify(requests[1]?.body)).toContain(COMPACT_REQUEST);
    expect(result.total_cost_usd).toBeCloseTo((10_000 * 2 + 420 * 10) / 1_000_000, 10);
  });
});

describe('the auto-mode classifier', () => {
  const ALLOW = text('{"decision":"allow","reason":"creates the file the user asked for"}', {
    inputTokens: 400,
    outputTokens: 20,
  });

  /** The model runs a command no rule allows; the classifier allows it; the model reports. */
  const autoScenario: ScenarioInput = [
    // The classifier's request names the action (and quotes the user's request, so it comes first).
    { match: { lastUserTextContains: 'Action: Bash' }, reply: ALLOW },
    {
      match: { lastUserTextContains: 'make the file' },
      reply: { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch made-by-auto.txt' } }] },
    },
    { reply: text('Created it.') },
  ];

  const judged = (path: string) => {
    const request = server.requests.find(
      (r) => r.path === path && JSON.stringify(r.body).includes('Action: Bash'),
    );
    return request && modelOf(request);
  };

  it('asks the fast model at the base URL of the settings, not of the environment', async () => {
    // No ANTHROPIC_BASE_URL: only the session's "baseUrl" setting points at the mock server.
    await userSettings({ baseUrl: server.url });
    server.reset(autoScenario);
    const { code, result } = await yokeJson('make the file', ['--permission-mode', 'auto'], {
      ANTHROPIC_BASE_URL: undefined,
    });
    expect(code).toBe(0);
    expect(await fileExists(join(cwd, 'made-by-auto.txt'))).toBe(true);
    expect(judged('/v1/messages')).toBe(FAST);
    expect(result.modelUsage[FAST]).toMatchObject({ inputTokens: 400, outputTokens: 20 });
  });

  it.each([
    ['the main model when no fast model is set', {}, 'qwen-local'],
    ['the smallFastModel setting', { smallFastModel: 'qwen-small' }, 'qwen-small'],
  ])('on an OpenAI-compatible server asks %s', async (_what, settings, expected) => {
    await userSettings(settings);
    server.reset(autoScenario);
    const { code, stderr } = await yokeJson(
      'make the file',
      ['--permission-mode', 'auto', '--provider', 'openai', '--model', 'qwen-local'],
      {
        ANTHROPIC_API_KEY: undefined,
        ANTHROPIC_BASE_URL: undefined,
        OPENAI_API_KEY: 'sk-e2e',
        OPENAI_BASE_URL: `${server.url}/v1`,
      },
    );
    expect(code, stderr).toBe(0);
    expect(await fileExists(join(cwd, 'made-by-auto.txt'))).toBe(true);
    expect(judged('/v1/chat/completions')).toBe(expected);
    expect(server.requests.filter((r) => r.path === '/v1/messages')).toEqual([]);
  });
});
