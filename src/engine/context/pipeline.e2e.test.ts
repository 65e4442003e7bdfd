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
import { selectModel } from '../../model/select';
import { allowAll } from '../../permissions/types';
import { type MockServer, startMockServer } from '../../testing/mock-server';
import type { ScenarioInput } from '../../testing/mock-server/scenario';
import { buildTool } from '../../tools/tool';
import { QueryEngine } from '../query-engine';
import type { SDKMessage, SDKResultMessage } from '../sdk-messages';
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
    ctx.readFileState.set(input.file_path, { hash: 'h', mtimeMs: 0, readAt: Date.now() });
    return { data: text };
  },
});

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function engineFor(scenario: ScenarioInput | ((dir: string) => ScenarioInput), contextWindow: number) {
  const dir = await mkdtemp(join(tmpdir(), 'yoke-ctx-e2e-'));
  server = await startMockServer({ scenario: typeof scenario === 'function' ? scenario(dir) : scenario });
  const { provider, model } = await selectModel({
    model: MODEL,
    env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key' },
    retry: { maxRetries: 0 },
  });
  const engine = new QueryEngine({
    cwd: dir,
    provider,
    model,
    tools: [readTool],
    canUseTool: allowAll,
    hooks: noopHooks,
    sessionDir: join(dir, 'session'),
    environment: { cwd: dir, platform: 'linux', date: '2026-01-01', isGitRepo: false, model },
    contextManagement: {
      contextWindow,
      memoryFiles: [{ path: '/repo/AGENTS.md', content: 'Always answer in English.' }],
      microcompact: { triggerFraction: 1 },
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
    const fault = {
      type: 'prompt_too_long',
      actualTokens: 250_000,
      limitTokens: 200_000,
      status: 413,
    } as const;
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
});
