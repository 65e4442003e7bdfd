/**
 * The context pipeline through the real QueryEngine and AnthropicProvider against the mock model
 * server: auto-compact on a small window, and reactive compact on an injected 413.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { noopHooks } from '../../hooks/types';
import * as z from '../../lib/zod';
import { ModelCatalog, type ModelDeclaration } from '../../model/catalog';
import { selectModel } from '../../model/select';
import { allowAll } from '../../permissions/types';
import { type MockServer, startMockServer } from '../../testing/mock-server';
import type { ScenarioInput } from '../../testing/mock-server/scenario';
import { recordFileState } from '../../tools/builtin/shared/freshness';
import { SessionServices } from '../../tools/session-services';
import { buildTool } from '../../tools/tool';
import { QueryEngine } from '../query-engine';
import type { SDKMessage, SDKResultMessage } from '../sdk-messages';
import { COLLAPSE_PREFIX } from './collapse';
import { SUMMARY_INTRO } from './compact';
import { COMPACT_REQUEST, COMPACT_SYSTEM_PROMPT } from './summarize';

const SUMMARY = 'Summary: the user asked to read notes.md; it lists the release steps. Next: answer.';
const MODEL = 'claude-test-small'; // not in the model table: the window comes from the options

const readTool = buildTool({
  name: 'Read',
  tier: 'read',
  inputSchema: z.object({ file_path: z.string() }),
  prompt: 'Reads a file.',
  isConcurrencySafe: () => true,
  isReadOnly: () => true,
  call: async (input: { file_path: string }, ctx) => {
    const { readFile } = await import('node:fs/promises');
    const text = await readFile(input.file_path, 'utf8');
    await recordFileState(ctx, input.file_path, Buffer.from(text));
    return { data: text };
  },
});

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * Where the window comes from: the pipeline option; the settings' `models` declaration; or an
 * OpenAI-compatible server's model list (`max_model_len`), asked in the background.
 */
type WindowSource = number | { declared: number } | { served: number };

async function engineFor(
  scenario: ScenarioInput | ((dir: string) => ScenarioInput),
  window: WindowSource,
  stages: { collapse?: boolean } = {},
) {
  const dir = await mkdtemp(join(tmpdir(), 'yoke-ctx-e2e-'));
  const turns = typeof scenario === 'function' ? scenario(dir) : scenario;
  const served = typeof window === 'object' && 'served' in window ? window.served : undefined;
  server = await startMockServer({
    scenario: {
      models: served === undefined ? [] : [{ id: MODEL, maxModelLen: served }],
      turns: turns as never,
    },
  });
  const selection = await selectModel({
    model: MODEL,
    provider: served === undefined ? 'anthropic' : 'openai',
    env:
      served === undefined
        ? { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key' }
        : { OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: 'test-key' },
    retry: { maxRetries: 0 },
  });
  const { provider, model } = selection;
  const declared: Record<string, ModelDeclaration> =
    typeof window === 'object' && 'declared' in window ? { [MODEL]: { contextWindow: window.declared } } : {};
  const models = new ModelCatalog(declared, selection.contextLookup);
  void models.learn(model);
  const engine = new QueryEngine({
    cwd: dir,
    provider,
    model,
    services: new SessionServices({ env: {}, models, sideCalls: { provider, fastModel: () => model } }),
    tools: [readTool],
    canUseTool: allowAll,
    hooks: noopHooks,
    sessionDir: join(dir, 'session'),
    environment: { cwd: dir, platform: 'linux', date: '2026-01-01', isGitRepo: false, model },
    contextManagement: {
      // A number overrides the window for the pipeline alone; otherwise the session's window
      // rules the whole loop, so the file re-attached after compaction must fit it too.
      ...(typeof window === 'number'
        ? { contextWindow: window }
        : { recentFiles: { count: 5, maxTokensPerFile: 200 } }),
      memoryFiles: [{ path: '/repo/AGENTS.md', content: 'Always answer in English.' }],
      microcompact: { triggerFraction: 1 },
      ...stages,
    },
  });
  return { engine, dir, server };
}

async function turn(engine: QueryEngine, prompt: string): Promise<SDKResultMessage> {
  const out: SDKMessage[] = [];
  for await (const m of engine.submitMessage(prompt)) out.push(m);
  return out.find((m): m is SDKResultMessage => m.type === 'result') as SDKResultMessage;
}

const bodyOf = (s: MockServer, i: number) =>
  s.requests.filter((r) => r.path === '/v1/messages')[i]?.body as {
    system?: { text: string }[];
    messages: unknown[];
  };

const TOO_LONG_413 = {
  type: 'prompt_too_long',
  actualTokens: 250_000,
  limitTokens: 200_000,
  status: 413,
} as const;

const NOTES = `notes line one\n${'release step and details '.repeat(400)}`;

/** Reads notes.md; the summary of a compaction; the answer after it (or without one). */
const readNotesScenario = (dir: string): ScenarioInput => [
  {
    match: { lastUserTextContains: 'start' },
    reply: {
      content: [{ type: 'tool_use', name: 'Read', input: { file_path: join(dir, 'notes.md') } }],
      // Reported usage plus the estimate of the file content crosses 80 % of 3,000 tokens.
      usage: { inputTokens: 500, outputTokens: 20 },
    },
  },
  { match: { lastUserTextContains: COMPACT_REQUEST }, reply: { content: [{ type: 'text', text: SUMMARY }] } },
  { match: { lastUserTextContains: SUMMARY_INTRO }, reply: { content: [{ type: 'text', text: 'Done.' }] } },
  {
    match: { lastToolResultContains: 'notes line one' },
    reply: { content: [{ type: 'text', text: 'Not compacted.' }] },
  },
];

describe('the context window that drives auto-compaction', () => {
  it.each<[string, WindowSource]>([
    ['declared in the settings', { declared: 3_000 }],
    ["reported by an OpenAI-compatible server's max_model_len", { served: 3_000 }],
  ])('is the one %s', async (_source, window) => {
    const { engine, dir } = await engineFor(readNotesScenario, window);
    await writeFile(join(dir, 'notes.md'), NOTES);
    const result = await turn(engine, 'start: read the notes');
    // With the 128,000-token default the notes would fit and no compaction would happen.
    expect(result).toMatchObject({ subtype: 'success', result: 'Done.' });
    expect(engine.messages[0]).toMatchObject({ subtype: 'compact_boundary', data: { trigger: 'auto' } });
    expect(result.modelUsage[MODEL]?.contextWindow).toBe(3_000);
  });

  it('is the default for a model nothing describes, so the notes fit', async () => {
    const { engine, dir } = await engineFor(readNotesScenario, { served: 0 });
    await writeFile(join(dir, 'notes.md'), NOTES);
    const result = await turn(engine, 'start: read the notes');
    expect(result).toMatchObject({ subtype: 'success', result: 'Not compacted.' });
    expect(result.modelUsage[MODEL]?.contextWindow).toBe(128_000);
  });
});

describe('context pipeline end to end (mock server)', () => {
  it('auto-compacts past the threshold and the next request carries the summary and essentials', async () => {
    const notes = `notes line one\n${'release step and details '.repeat(400)}`;
    const {
      engine,
      dir,
      server: s,
    } = await engineFor(
      (dir) => [
        {
          match: { lastUserTextContains: 'start' },
          reply: {
            content: [{ type: 'tool_use', name: 'Read', input: { file_path: join(dir, 'notes.md') } }],
            // Reported usage plus the estimate of the file content crosses 80 % of 3,000 tokens.
            usage: { inputTokens: 500, outputTokens: 20 },
          },
        },
        {
          match: { lastUserTextContains: COMPACT_REQUEST },
          reply: { content: [{ type: 'text', text: SUMMARY }] },
        },
        {
          match: { lastUserTextContains: SUMMARY_INTRO },
          reply: { content: [{ type: 'text', text: 'Done.' }] },
        },
      ],
      3_000,
    );
    const file = join(dir, 'notes.md');
    await writeFile(file, notes);

    const result = await turn(engine, 'start: read the notes');
    expect(result).toMatchObject({ subtype: 'success', result: 'Done.' });
    expect(bodyOf(s, 1).system?.[0]?.text).toBe(COMPACT_SYSTEM_PROMPT);
    const after = JSON.stringify(bodyOf(s, 2).messages);
    expect(after).toContain(SUMMARY);
    expect(after).toContain('Always answer in English.');
    expect(after).toContain(`Recently read file ${file}`);
    expect(after).toContain('notes line one');
    expect(after).not.toContain('tool_result');
    expect(engine.messages[0]).toMatchObject({
      type: 'system',
      subtype: 'compact_boundary',
      data: { trigger: 'auto' },
    });
  });

  it('compacts once on a 413 and retries successfully', async () => {
    const { engine, server: s } = await engineFor(
      [
        {
          match: { lastUserTextContains: 'hello' },
          fault: { type: 'prompt_too_long', actualTokens: 250_000, limitTokens: 200_000, status: 413 },
        },
        {
          match: { lastUserTextContains: COMPACT_REQUEST },
          reply: { content: [{ type: 'text', text: SUMMARY }] },
        },
        {
          match: { lastUserTextContains: SUMMARY_INTRO },
          reply: { content: [{ type: 'text', text: 'Recovered.' }] },
        },
      ],
      200_000,
    );
    const result = await turn(engine, 'hello');
    expect(result).toMatchObject({ subtype: 'success', result: 'Recovered.' });
    expect(s.requests.filter((r) => r.path === '/v1/messages')).toHaveLength(3);
    expect(engine.messages[0]).toMatchObject({ subtype: 'compact_boundary' });
  });

  it('a second 413 after the reactive compact ends the turn with prompt_too_long', async () => {
    const fault = TOO_LONG_413;
    const { engine } = await engineFor(
      [
        { match: { lastUserTextContains: 'hello' }, fault },
        {
          match: { lastUserTextContains: COMPACT_REQUEST },
          reply: { content: [{ type: 'text', text: SUMMARY }] },
        },
        { match: { lastUserTextContains: SUMMARY_INTRO }, fault },
      ],
      200_000,
    );
    const result = await turn(engine, 'hello');
    expect(result).toMatchObject({ is_error: true, terminal_reason: 'prompt_too_long' });
  });

  it('with collapse on, a 413 drains the collapses first and only a second 413 compacts', async () => {
    const {
      engine,
      dir,
      server: s,
    } = await engineFor(
      (dir) => [
        {
          match: { lastUserTextContains: COMPACT_REQUEST },
          reply: { content: [{ type: 'text', text: SUMMARY }] },
        },
        {
          match: { lastUserTextContains: SUMMARY_INTRO },
          reply: { content: [{ type: 'text', text: 'Recovered after both.' }] },
        },
        {
          reply: {
            content: [{ type: 'tool_use', name: 'Read', input: { file_path: join(dir, 'notes.md') } }],
          },
          repeat: 4,
        },
        { fault: TOO_LONG_413, repeat: 2 },
      ],
      200_000,
      { collapse: true },
    );
    await writeFile(join(dir, 'notes.md'), 'notes line one\n');
    const result = await turn(engine, 'read the notes four times');
    expect(result).toMatchObject({ subtype: 'success', result: 'Recovered after both.' });
    const bodies = s.requests
      .filter((r) => r.path === '/v1/messages')
      .map((r) => r.body as { system?: unknown });
    expect(bodies).toHaveLength(8);
    // The first 413 (request 5) is answered by the drain: request 6 is the same turn, folded.
    expect(JSON.stringify(bodyOf(s, 4).messages)).not.toContain(COLLAPSE_PREFIX);
    expect(JSON.stringify(bodyOf(s, 5).messages)).toContain(COLLAPSE_PREFIX);
    expect(JSON.stringify(bodies[5]?.system)).not.toContain(COMPACT_SYSTEM_PROMPT.slice(0, 40));
    // The second 413 is answered by the reactive compaction: its summary call, then the retry.
    expect(bodyOf(s, 6).system?.[0]?.text).toBe(COMPACT_SYSTEM_PROMPT);
    expect(JSON.stringify(bodyOf(s, 7).messages)).toContain(SUMMARY);
    expect(engine.messages[0]).toMatchObject({ subtype: 'compact_boundary' });
  });
});
