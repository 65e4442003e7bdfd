import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { UserContentBlock } from '../../model/types';
import { createUserMessage, type Message } from '../../session/messages';
import { resultContent, toolRound } from './context-test-support';
import { ToolResultBudget } from './tool-result-budget';

const big = (n: number, tag: string) => `${tag}\n${'word '.repeat(n)}`;

async function setup(perResultTokens: number, perTurnTokens: number) {
  const sessionDir = await mkdtemp(join(tmpdir(), 'yoke-budget-'));
  const reports: { uuid: string; content: UserContentBlock[] }[] = [];
  const budget = new ToolResultBudget({
    perResultTokens,
    perTurnTokens,
    sessionDir,
    onContentReplacement: (uuid, content) => reports.push({ uuid, content }),
  });
  return { budget, reports, sessionDir };
}

describe('ToolResultBudget', () => {
  it('replaces an oversized result by a preview and the path of the full text, and reports it', async () => {
    const { budget, reports } = await setup(1_000, 100_000);
    const messages: Message[] = [
      createUserMessage('go'),
      ...toolRound('small', 'tiny'),
      ...toolRound('huge', big(5_000, 'HEAD')),
    ];
    const { messages: out, freedTokens } = await budget.apply(messages);
    expect(resultContent(out, 'small')).toBe('tiny');
    const replaced = String(resultContent(out, 'huge'));
    expect(replaced.startsWith('HEAD')).toBe(true);
    const path = /saved to (\S+)/.exec(replaced)?.[1] ?? '';
    expect(existsSync(path)).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe(big(5_000, 'HEAD'));
    expect(freedTokens).toBeGreaterThan(1_000);
    expect(reports).toHaveLength(1);
    expect(reports[0]?.uuid).toBe(messages[4]?.uuid);
  });

  it('is stable: later passes send the same bytes, and restored originals get the same replacement', async () => {
    const { budget, reports } = await setup(1_000, 100_000);
    const original: Message[] = [createUserMessage('go'), ...toolRound('huge', big(5_000, 'HEAD'))];
    const first = (await budget.apply(original)).messages;
    const again = await budget.apply([...first, ...toolRound('next', 'ok')]);
    expect(again.messages[2]).toBe(first[2]);
    expect(reports).toHaveLength(1);
    // A resume hands back the original text: the remembered decision applies, no new file.
    const restored = await budget.apply(original);
    expect(resultContent(restored.messages, 'huge')).toEqual(resultContent(first, 'huge'));
  });

  it('keeps a result once it was kept, even when the budget would now pick it', async () => {
    const { budget } = await setup(3_000, 100_000);
    const messages: Message[] = [createUserMessage('go'), ...toolRound('mid', big(2_000, 'MID'))];
    await budget.apply(messages);
    const bigger = new ToolResultBudget({ perResultTokens: 10, perTurnTokens: 10, sessionDir: tmpdir() });
    bigger.remember('mid', null);
    expect(resultContent((await bigger.apply(messages)).messages, 'mid')).toBe(big(2_000, 'MID'));
  });

  it('over the per-turn budget replaces the largest results of the batch until it fits', async () => {
    const { budget } = await setup(100_000, 5_000);
    const a = toolRound('a', big(2_000, 'A'));
    const b = toolRound('b', big(4_000, 'B'));
    const c = toolRound('c', big(1_000, 'C'));
    // One response that called three tools: the results form one batch.
    const call = a[0] as Extract<Message, { type: 'assistant' }>;
    call.message.content.push(
      ...(b[0] as typeof call).message.content,
      ...(c[0] as typeof call).message.content,
    );
    const messages: Message[] = [
      createUserMessage('go'),
      call,
      a[1] as Message,
      b[1] as Message,
      c[1] as Message,
    ];
    const out = (await budget.apply(messages)).messages;
    expect(String(resultContent(out, 'b'))).toContain('saved to');
    expect(resultContent(out, 'a')).toBe(big(2_000, 'A'));
    expect(resultContent(out, 'c')).toBe(big(1_000, 'C'));
  });
});
