import { describe, expect, it } from 'vitest';
import {
  estimateBlockTokens,
  estimateMessagesTokens,
  estimateRequestTokens,
  estimateSchemaTokens,
  estimateTextTokens,
  estimateToolSchemaTokens,
  IMAGE_TOKEN_ESTIMATE,
  MESSAGE_OVERHEAD_TOKENS,
  PDF_DOCUMENT_TOKEN_ESTIMATE,
  rememberSchemaTokens,
} from './tokens';
import type { MessageParam } from './types';

const prose =
  'The quick brown fox jumps over the lazy dog while the agent reads the file and plans its next edit. ';

describe('estimateTextTokens', () => {
  it('is zero for empty text and about chars/4 for English prose', () => {
    expect(estimateTextTokens('')).toBe(0);
    const text = prose.repeat(10);
    const est = estimateTextTokens(text);
    expect(est).toBeGreaterThanOrEqual(text.length / 4.5);
    expect(est).toBeLessThanOrEqual(text.length / 3.5);
  });

  it('counts JSON and code denser than prose of the same length', () => {
    const json = JSON.stringify({ a: [1, 2, 3], b: { c: 'd', e: null }, f: [{ g: 1 }, { h: 2 }] }).repeat(20);
    const same = prose.repeat(40).slice(0, json.length);
    expect(estimateTextTokens(json)).toBeGreaterThan(estimateTextTokens(same) * 1.3);
    expect(estimateTextTokens(json)).toBeLessThanOrEqual(json.length);
  });

  it('counts CJK about one token per character', () => {
    const cjk = '模型在循环中调用工具并读取文件'.repeat(10);
    expect(estimateTextTokens(cjk)).toBe(cjk.length);
    const kana = 'ファイルを読み込みます';
    expect(estimateTextTokens(kana)).toBe(kana.length);
    expect(estimateTextTokens(cjk)).toBeGreaterThan(estimateTextTokens('a'.repeat(cjk.length)) * 3);
  });

  it('counts other non-ASCII and emoji denser than ASCII', () => {
    const cyr = 'Привет мир, это тест'.repeat(5);
    expect(estimateTextTokens(cyr)).toBeGreaterThan(estimateTextTokens('x'.repeat(cyr.length)));
    expect(estimateTextTokens('🙂🙂🙂🙂')).toBe(6);
  });

  it('never decreases when text is appended', () => {
    const samples = [prose, '{"k": [1, 2]}', '文件', 'Ünïcödé', '🙂', '\n\t  ', '', 'x'];
    let text = '';
    let prev = 0;
    for (let i = 0; i < 400; i++) {
      text += samples[(i * 7) % samples.length];
      const est = estimateTextTokens(text);
      expect(est).toBeGreaterThanOrEqual(prev);
      prev = est;
    }
  });

  it('handles 1 MB quickly (loose bound; bench/ measures speed)', () => {
    const big = `${prose}{"x": [1,2]} 文件 `.repeat(Math.ceil(1_000_000 / 120)).slice(0, 1_000_000);
    const began = performance.now();
    const est = estimateTextTokens(big);
    expect(performance.now() - began).toBeLessThan(1_000);
    expect(est).toBeGreaterThan(200_000);
    expect(est).toBeLessThan(600_000);
  });
});

describe('estimateBlockTokens', () => {
  it('uses fixed figures for images and PDFs, text for text documents', () => {
    expect(
      estimateBlockTokens({
        type: 'image',
        source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(5e5) },
      }),
    ).toBe(IMAGE_TOKEN_ESTIMATE);
    expect(
      estimateBlockTokens({
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: 'JVBER' },
      }),
    ).toBe(PDF_DOCUMENT_TOKEN_ESTIMATE);
    expect(
      estimateBlockTokens({
        type: 'document',
        source: { type: 'text', media_type: 'text/plain', data: 'abcd'.repeat(100) },
      }),
    ).toBe(100);
  });

  it('counts tool_use as its name plus JSON input, and tool_result by its content', () => {
    const input = { command: 'ls -la', description: 'list files' };
    expect(estimateBlockTokens({ type: 'tool_use', id: 't1', name: 'Bash', input })).toBe(
      estimateTextTokens('Bash') + estimateTextTokens(JSON.stringify(input)),
    );
    const small = estimateBlockTokens({ type: 'tool_result', tool_use_id: 't1', content: 'ok' });
    const large = estimateBlockTokens({
      type: 'tool_result',
      tool_use_id: 't1',
      content: 'ok\n'.repeat(1000),
    });
    expect(large).toBeGreaterThan(small + 500);
    const withImage = estimateBlockTokens({
      type: 'tool_result',
      tool_use_id: 't1',
      content: [
        { type: 'text', text: 'screenshot' },
        { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
      ],
    });
    expect(withImage).toBeGreaterThan(IMAGE_TOKEN_ESTIMATE);
  });

  it('counts thinking text', () => {
    expect(estimateBlockTokens({ type: 'thinking', thinking: 'abcd'.repeat(50), signature: 's' })).toBe(50);
  });
});

describe('estimateMessagesTokens / estimateRequestTokens', () => {
  const messages: MessageParam[] = [
    { role: 'user', content: 'Fix the failing test in src/app.ts please.' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading the file.' },
        { type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/repo/src/app.ts' } },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'export const x = 1;\n' }] },
  ];

  it('sums blocks plus per-message framing', () => {
    const blocks =
      estimateTextTokens('Fix the failing test in src/app.ts please.') +
      estimateBlockTokens({ type: 'text', text: 'Reading the file.' }) +
      estimateBlockTokens({
        type: 'tool_use',
        id: 't1',
        name: 'Read',
        input: { file_path: '/repo/src/app.ts' },
      }) +
      estimateBlockTokens({ type: 'tool_result', tool_use_id: 't1', content: 'export const x = 1;\n' });
    expect(estimateMessagesTokens(messages)).toBe(blocks + 3 * MESSAGE_OVERHEAD_TOKENS);
    expect(estimateMessagesTokens([])).toBe(0);
  });

  it('adds system prompt and tool definitions', () => {
    const base = estimateRequestTokens({ system: [], messages });
    expect(base).toBe(estimateMessagesTokens(messages));
    const withSystem = estimateRequestTokens({ system: [{ text: prose.repeat(20) }], messages });
    expect(withSystem - base).toBe(estimateTextTokens(prose.repeat(20)));
    const withTools = estimateRequestTokens({
      system: [{ text: prose.repeat(20) }],
      messages,
      tools: [
        {
          name: 'Read',
          description: 'Reads a file from the local filesystem.',
          input_schema: {
            type: 'object',
            properties: { file_path: { type: 'string' } },
            required: ['file_path'],
          },
        },
      ],
    });
    expect(withTools - withSystem).toBeGreaterThan(20);
    expect(withTools - withSystem).toBeLessThan(100);
  });
});

describe('estimateToolSchemaTokens', () => {
  it('counts a schema again when the same schema object comes with another description or name', () => {
    const input_schema = { type: 'object' as const, properties: { path: { type: 'string' } } };
    const short = estimateToolSchemaTokens({ name: 'Read', description: 'Reads.', input_schema });
    const long = estimateToolSchemaTokens({
      name: 'Read',
      description: 'Reads a file. '.repeat(50),
      input_schema,
    });
    expect(long).toBeGreaterThan(short + 100);
    expect(estimateToolSchemaTokens({ name: 'Read', description: 'Reads.', input_schema })).toBe(short);
    const renamed = estimateToolSchemaTokens({
      name: 'ReadAVeryLongToolNameIndeed',
      description: 'Reads.',
      input_schema,
    });
    expect(renamed).toBeGreaterThan(short);
  });

  it("takes a schema's share from the build's count when one was recorded for that object", () => {
    const schema = () => ({ type: 'object' as const, properties: { path: { type: 'string' } } });
    const tool = (input_schema: ReturnType<typeof schema>) => ({
      name: 'Read',
      description: 'Reads.',
      input_schema,
    });
    const counted = estimateToolSchemaTokens(tool(schema()));
    // The build records what estimateSchemaTokens gives: the same total, without counting again.
    const prebuilt = schema();
    rememberSchemaTokens(prebuilt, estimateSchemaTokens(prebuilt));
    expect(estimateToolSchemaTokens(tool(prebuilt))).toBe(counted);
    // The record is what is used (another object with the same content is counted as usual).
    const recorded = schema();
    rememberSchemaTokens(recorded, estimateSchemaTokens(recorded) + 1000);
    expect(estimateToolSchemaTokens(tool(recorded))).toBe(counted + 1000);
    expect(estimateToolSchemaTokens(tool(schema()))).toBe(counted);
  });
});
