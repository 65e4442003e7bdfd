/**
 * The conversation's queue at the turn boundary, through the real QueryEngine: notices a tool
 * leaves for the model and prompts the user sends during a turn.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type HookRunner, noopHooks } from '../hooks/types';
import * as z from '../lib/zod';
import { allowAll } from '../permissions/types';
import type { Message } from '../session/messages';
import { FakeProvider } from '../testing/fake-provider';
import type { ToolNotification, ToolUseContext } from '../tools/context';
import { buildTool } from '../tools/tool';
import { NOTICES_INTRO } from './context/queued-messages';
import { QueryEngine } from './query-engine';
import { text } from './query-test-support';
import type { SDKMessage } from './sdk-messages';

const step = (id: string) => ({ content: [{ type: 'tool_use' as const, id, name: 'Step', input: {} }] });

function engineWith(
  script: ConstructorParameters<typeof FakeProvider>[0],
  onStep: (context: ToolUseContext) => void,
  hooks: HookRunner = noopHooks,
) {
  const cwd = mkdtempSync(join(tmpdir(), 'yoke-queue-'));
  const stepTool = buildTool({
    name: 'Step',
    tier: 'read',
    inputSchema: z.object({}),
    prompt: 'Does one step.',
    isReadOnly: () => true,
    call: async (_input, context) => {
      onStep(context);
      return { data: 'step done' };
    },
  });
  const provider = new FakeProvider(script);
  const notified: ToolNotification[] = [];
  const recorded: Message[] = [];
  const engine = new QueryEngine({
    cwd,
    provider,
    model: 'claude-opus-5-5',
    tools: [stepTool],
    canUseTool: allowAll,
    hooks,
    environment: { cwd, platform: 'linux', date: '2026-11-29', isGitRepo: false, model: 'm' },
    onNotification: (n) => notified.push(n),
    transcript: { append: (message) => recorded.push(message) },
  });
  return { engine, provider, notified, recorded };
}

async function run(engine: QueryEngine, prompt: string): Promise<SDKMessage[]> {
  const out: SDKMessage[] = [];
  for await (const message of engine.submitMessage(prompt)) out.push(message);
  return out;
}

const lastUserBlocks = (provider: FakeProvider, index: number) => {
  const last = provider.requests[index]?.messages.at(-1);
  return last?.role === 'user' && Array.isArray(last.content) ? last.content : [];
};

describe('queued notices', () => {
  it('reach the model after the tool results of the next boundary, and the user at once', async () => {
    const { engine, provider, notified, recorded } = engineWith([step('s1'), text('Noted.')], (context) =>
      context.notify({
        level: 'info',
        message: 'Build finished.',
        forModel: 'The build finished: 0 errors.',
      }),
    );
    await run(engine, 'build it');
    expect(notified.map((n) => n.message)).toEqual(['Build finished.']);
    expect(JSON.stringify(provider.requests[0]?.messages)).not.toContain('The build finished');
    const blocks = lastUserBlocks(provider, 1);
    expect(blocks.map((b) => b.type)).toEqual(['tool_result', 'text']);
    expect(blocks[1]).toEqual({ type: 'text', text: `${NOTICES_INTRO}\n- The build finished: 0 errors.` });
    // History, and so the transcript, holds it as a meta message.
    expect(
      recorded.filter((m) => m.type === 'user' && m.isMeta && JSON.stringify(m).includes('0 errors')),
    ).toHaveLength(1);
  });

  it('wait for the next turn when they arrive after the last boundary', async () => {
    let saved: ToolUseContext | undefined;
    const { engine, provider } = engineWith([step('s1'), text('Started.'), text('Seen it.')], (context) => {
      saved = context;
    });
    await run(engine, 'start');
    // Between turns, as a background shell started in the first one ends.
    saved?.notify({
      level: 'info',
      message: 'bash_1 completed',
      forModel: 'Background shell bash_1 (npm test) completed with exit code 0.',
    });
    await run(engine, 'anything new?');
    const blocks = lastUserBlocks(provider, 2);
    expect(blocks.map((b) => (b.type === 'text' ? b.text : b.type))).toEqual([
      'anything new?',
      `${NOTICES_INTRO}\n- Background shell bash_1 (npm test) completed with exit code 0.`,
    ]);
  });
});

describe('prompts sent during a turn', () => {
  it('join the turn at its next boundary as the user’s own message', async () => {
    let engine: QueryEngine | undefined;
    const built = engineWith([step('s1'), text('Both done.')], () =>
      engine?.enqueuePrompt('Also update the changelog.', { clientUuid: 'client-2' }),
    );
    engine = built.engine;
    const frames = await run(engine, 'fix the bug');
    const last = built.provider.requests[1]?.messages.at(-1);
    expect(last?.role).toBe('user');
    expect(JSON.stringify(last?.content)).toContain('Also update the changelog.');
    const folded = engine.messages.find((m) => m.type === 'user' && m.clientUuid === 'client-2');
    expect(folded).toMatchObject({ message: { content: 'Also update the changelog.' } });
    expect(folded && 'isMeta' in folded).toBe(false);
    expect(frames.filter((f) => f.type === 'result')).toHaveLength(1);
    expect(engine.takeQueuedPrompts()).toEqual([]);
  });

  it('are handed back when the turn ends before another boundary', async () => {
    let engine: QueryEngine | undefined;
    const ids: string[][] = [];
    // Sent while the last response finishes: the Stop hooks run after the last boundary.
    const hooks: HookRunner = {
      ...noopHooks,
      stop: async () => {
        engine?.enqueuePrompt('And then this.', { clientUuid: 'client-3' });
        ids.push(engine?.queuedPromptIds() ?? []);
        return { blockingErrors: [] };
      },
    };
    const built = engineWith([text('Done already.')], () => {}, hooks);
    engine = built.engine;
    await run(engine, 'quick one');
    expect(ids).toEqual([['client-3']]);
    expect(JSON.stringify(built.provider.requests)).not.toContain('And then this.');
    expect(engine.takeQueuedPrompts()).toEqual([{ content: 'And then this.', clientUuid: 'client-3' }]);
    expect(engine.takeQueuedPrompts()).toEqual([]);
  });

  it('go through UserPromptSubmit hooks: a blocked one never reaches the model', async () => {
    const prompts: string[] = [];
    const hooks: HookRunner = {
      ...noopHooks,
      userPromptSubmit: async ({ prompt }) => {
        prompts.push(prompt);
        return prompt.includes('secret') ? { blocked: { reason: 'no secrets in prompts' } } : {};
      },
    };
    let engine: QueryEngine | undefined;
    const built = engineWith(
      [step('s1'), text('Done.')],
      () => engine?.enqueuePrompt('print the secret token'),
      hooks,
    );
    engine = built.engine;
    const frames = await run(engine, 'fix the bug');
    expect(prompts).toEqual(['fix the bug', 'print the secret token']);
    expect(JSON.stringify(built.provider.requests[1]?.messages)).not.toContain('secret');
    const warning = frames.find((f) => f.type === 'system' && JSON.stringify(f).includes('no secrets'));
    expect(JSON.stringify(warning)).toContain(
      'A UserPromptSubmit hook blocked the message you sent during the turn: no secrets in prompts',
    );
  });
});
