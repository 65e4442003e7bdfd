import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type HookRunner, noopHooks } from '../../hooks/types';
import { CostTracker } from '../../model/cost';
import { ServerError } from '../../model/errors';
import { createSideCallClient } from '../../model/side-call';
import type { Message } from '../../session/messages';
import { FakeProvider, type FakeScript } from '../../testing/fake-provider';
import type { AppState } from '../../tools/context';
import { ReadFileState } from '../../tools/read-file-state';
import { makeContext } from '../../tools/test-support';
import type { QueryState } from '../query-types';
import { conversation } from './context-test-support';
import { createContextPipeline } from './pipeline';
import { COMPACT_REQUEST, COMPACT_SYSTEM_PROMPT } from './summarize';

const SUMMARY = 'The user asked to fix the parser; src/parser.ts was changed; next: run the tests.';

async function setup(script: FakeScript, overrides: Record<string, unknown> = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'yoke-pipeline-'));
  const file = join(dir, 'parser.ts');
  await writeFile(file, 'export const parse = (s: string) => s.trim();\n');
  const readFileState = new ReadFileState();
  readFileState.set(file, { hash: 'h', mtimeMs: 0, readAt: 0 });
  const provider = new FakeProvider(script);
  const hookCalls: { event: string; payload: Record<string, unknown> }[] = [];
  const hooks: HookRunner = {
    ...noopHooks,
    notify: async (event, payload) => void hookCalls.push({ event, payload }),
  };
  const appState: AppState = {
    todos: [{ content: 'Run the tests', status: 'in_progress', activeForm: 'Running the tests' }],
  };
  const costs = new CostTracker();
  const manager = createContextPipeline({
    sideCalls: createSideCallClient({ provider, fastModel: () => 'claude-haiku-4-5', usage: costs }),
    model: 'claude-sonnet-4-5',
    hooks,
    getAppState: () => appState,
    readFileState,
    memoryFiles: [{ path: '/repo/AGENTS.md', content: 'Always use tabs.' }],
    sessionDir: dir,
    contextWindow: 20_000,
    // Microcompact would otherwise free enough to keep these histories under the threshold.
    microcompact: { triggerFraction: 1 },
    ...overrides,
  });
  return { manager, provider, hookCalls, file, costs };
}

const state = (messages: Message[]) =>
  ({ messages, toolUseContext: makeContext([]), turnCount: 0 }) as unknown as QueryState;
const run = (manager: ReturnType<typeof createContextPipeline>, messages: Message[]) =>
  manager.contextPipeline({ messages, state: state(messages), signal: new AbortController().signal });
const texts = (messages: readonly Message[]) =>
  messages.map((m) => (m.type === 'user' && typeof m.message.content === 'string' ? m.message.content : ''));

describe('createContextPipeline: auto-compact', () => {
  it('does nothing below the threshold', async () => {
    const { manager, provider } = await setup([]);
    const messages = conversation(10, 400);
    const out = await run(manager, messages);
    expect(out.messages).toEqual(messages);
    expect(provider.requests).toHaveLength(0);
  });

  it('past the threshold summarizes, then re-attaches memory, todos and recently read files', async () => {
    const { manager, provider, hookCalls, file, costs } = await setup([
      { content: [{ type: 'text', text: SUMMARY }], usage: { inputTokens: 17_000, outputTokens: 300 } },
    ]);
    const messages = conversation(40, 1_600); // ~17k tokens of a 20k window
    const out = await run(manager, messages);
    expect(provider.requests).toHaveLength(1);
    const request = provider.requests[0];
    // The main model reads the conversation (the fast one's window may not hold it); it is paid for.
    expect(request?.model).toBe('claude-sonnet-4-5');
    expect(costs.byModel()).toEqual({
      'claude-sonnet-4-5': expect.objectContaining({ inputTokens: 17_000, outputTokens: 300 }),
    });
    expect(request?.system[0]?.text).toBe(COMPACT_SYSTEM_PROMPT);
    expect(JSON.stringify(request?.messages.at(-1))).toContain(COMPACT_REQUEST);
    expect(hookCalls).toEqual([
      { event: 'PreCompact', payload: { trigger: 'auto', custom_instructions: null } },
    ]);

    const [boundary, ...rest] = out.messages;
    expect(boundary).toMatchObject({
      type: 'system',
      subtype: 'compact_boundary',
      data: { trigger: 'auto' },
    });
    const data =
      boundary?.type === 'system' ? (boundary.data as { preTokens: number; postTokens: number }) : undefined;
    expect(data?.preTokens).toBeGreaterThan(16_000);
    expect(data?.postTokens).toBeLessThan(1_000);
    const body = texts(rest).join('\n');
    expect(body).toContain(SUMMARY);
    expect(body).toContain('Always use tabs.');
    expect(body).toContain('[in_progress] Run the tests');
    expect(body).toContain(`Recently read file ${file}`);
    expect(body).toContain('export const parse');
    expect(out.events).toEqual(out.messages);
  });

  it('keeps the whole history and says so when the summary call fails', async () => {
    const { manager } = await setup([new ServerError('upstream exploded', { status: 500 })]);
    const messages = conversation(40, 1_600);
    const out = await run(manager, messages);
    expect(out.messages).toEqual(messages);
    expect(out.events).toHaveLength(1);
    expect(out.events?.[0]).toMatchObject({ type: 'system', subtype: 'warning' });
    expect(JSON.stringify(out.events)).toContain('continuing with the full history');
  });

  it('is off with autoCompact: false', async () => {
    const { manager, provider } = await setup([], { autoCompact: false });
    await run(manager, conversation(40, 1_600));
    expect(provider.requests).toHaveLength(0);
  });
});

describe('createContextPipeline: stage order', () => {
  it('microcompact runs first and, when it frees enough, auto-compact does not fire', async () => {
    const { manager, provider } = await setup([], { microcompact: {} });
    const out = await run(manager, conversation(40, 1_600));
    expect(provider.requests).toHaveLength(0);
    expect(JSON.stringify(out.messages)).toContain('[Old tool result content cleared to save context]');
  });
});

describe('createContextPipeline: reactive and manual compaction', () => {
  it('reactive compact returns the compacted history, or undefined when the summary fails', async () => {
    const ok = await setup([{ content: [{ type: 'text', text: SUMMARY }] }]);
    const compacted = await ok.manager.reactiveCompact({
      messages: conversation(3),
      signal: new AbortController().signal,
    });
    expect(compacted?.messages[0]).toMatchObject({ subtype: 'compact_boundary' });
    const failing = await setup([new ServerError('down', { status: 500 })]);
    expect(
      await failing.manager.reactiveCompact({
        messages: conversation(3),
        signal: new AbortController().signal,
      }),
    ).toBeUndefined();
  });

  it('manual compact passes the instructions to the model and the hook, and throws on failure', async () => {
    const { manager, provider, hookCalls } = await setup([
      { content: [{ type: 'text', text: SUMMARY }] },
      new ServerError('x', { status: 500 }),
    ]);
    const out = await manager.compact(conversation(2), 'focus on the parser');
    expect(out.messages[0]).toMatchObject({ data: { trigger: 'manual' } });
    expect(JSON.stringify(provider.requests[0]?.messages.at(-1))).toContain('focus on the parser');
    expect(hookCalls[0]?.payload).toEqual({ trigger: 'manual', custom_instructions: 'focus on the parser' });
    await expect(manager.compact(conversation(2))).rejects.toThrow(/failed/);
  });
});
