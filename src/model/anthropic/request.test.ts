import { describe, expect, it } from 'vitest';
import type { ModelRequest, ToolSchema } from '../types';
import { MAX_CACHE_BREAKPOINTS, toCountTokensParams, toMessagesParams } from './request';

const tool = (name: string): ToolSchema => ({
  name,
  description: `${name} tool`,
  input_schema: { type: 'object', properties: { x: { type: 'string' } } },
});

function baseRequest(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'claude-opus-5-5',
    system: [{ text: 'identity' }, { text: 'rules', cacheBreakpoint: true }, { text: 'date: today' }],
    tools: [tool('Read'), tool('Edit'), tool('mcp__git__log')],
    builtinToolCount: 2,
    messages: [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'file body' },
          { type: 'text', text: 'and then?' },
        ],
      },
    ],
    maxTokens: 4096,
    ...overrides,
  };
}

/** Every path in the params object that holds a cache_control, sorted. */
function breakpointPaths(value: unknown): string[] {
  return collectBreakpoints(value, '').sort();
}

function collectBreakpoints(value: unknown, path: string): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => collectBreakpoints(item, `${path}[${i}]`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === 'cache_control' ? [path] : collectBreakpoints(inner, path ? `${path}.${key}` : key),
  );
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe('toMessagesParams cache breakpoints', () => {
  it('places exactly three breakpoints: marked system part, last built-in tool, last message block', () => {
    const params = toMessagesParams(baseRequest());
    expect(breakpointPaths(params)).toEqual(['messages[2].content[1]', 'system[1]', 'tools[1]']);
    expect(params.system).toEqual([
      { type: 'text', text: 'identity' },
      { type: 'text', text: 'rules', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'date: today' },
    ]);
    expect(params.tools?.[1]).toEqual({ ...tool('Edit'), cache_control: { type: 'ephemeral' } });
  });

  it('uses the last marked system part when several are marked, and the last part when none is', () => {
    const several = toMessagesParams(
      baseRequest({
        system: [{ text: 'a', cacheBreakpoint: true }, { text: 'b', cacheBreakpoint: true }, { text: 'c' }],
      }),
    );
    expect(breakpointPaths(several.system)).toEqual(['[1]']);
    const unmarked = toMessagesParams(baseRequest({ system: [{ text: 'a' }, { text: 'b' }] }));
    expect(breakpointPaths(unmarked.system)).toEqual(['[1]']);
  });

  it('drops empty system parts and omits system entirely when nothing is left', () => {
    const params = toMessagesParams(baseRequest({ system: [{ text: 'a' }, { text: '' }] }));
    expect(params.system).toEqual([{ type: 'text', text: 'a', cache_control: { type: 'ephemeral' } }]);
    expect(toMessagesParams(baseRequest({ system: [] }))).not.toHaveProperty('system');
  });

  it('marks the last tool when builtinToolCount is unknown and no tool when there are no built-ins', () => {
    expect(breakpointPaths(toMessagesParams(baseRequest({ builtinToolCount: undefined })).tools)).toEqual([
      '[2]',
    ]);
    expect(breakpointPaths(toMessagesParams(baseRequest({ builtinToolCount: 0 })).tools)).toEqual([]);
    expect(breakpointPaths(toMessagesParams(baseRequest({ builtinToolCount: 9 })).tools)).toEqual(['[2]']);
    expect(toMessagesParams(baseRequest({ tools: [] }))).not.toHaveProperty('tools');
  });

  it('marks a loaded deferred tool defer_loading and passes tool_reference results through', () => {
    const loaded: ToolSchema = { ...tool('mcp__gh__create_issue'), deferLoading: true };
    const reference = { type: 'tool_reference' as const, tool_name: 'mcp__gh__create_issue' };
    const params = toMessagesParams(
      baseRequest({
        tools: [tool('Read'), tool('ToolSearch'), loaded],
        builtinToolCount: 2,
        messages: [
          { role: 'user', content: 'open an issue' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'ToolSearch', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [reference] }] },
        ],
      }),
    );
    expect(params.tools?.map((t) => ('defer_loading' in t ? t.defer_loading : undefined))).toEqual([
      undefined,
      undefined,
      true,
    ]);
    // The breakpoint stays after the built-ins: a load never moves the cached prefix.
    expect(breakpointPaths(params.tools)).toEqual(['[1]']);
    const result = params.messages[2]?.content;
    expect(
      Array.isArray(result) && result[0]?.type === 'tool_result' ? result[0].content : undefined,
    ).toEqual([reference]);
  });

  it('turns a trailing string message into a text block carrying the breakpoint', () => {
    const params = toMessagesParams(baseRequest({ messages: [{ role: 'user', content: 'hello' }] }));
    expect(params.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hello', cache_control: { type: 'ephemeral' } }] },
    ]);
  });

  it('skips thinking blocks and empty text when choosing the last message block', () => {
    const params = toMessagesParams(
      baseRequest({
        messages: [
          { role: 'user', content: 'go' },
          {
            role: 'assistant',
            content: [
              { type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} },
              { type: 'thinking', thinking: 'hm', signature: 's' },
              { type: 'text', text: '' },
            ],
          },
        ],
      }),
    );
    expect(breakpointPaths(params.messages)).toEqual(['[1].content[0]']);
  });

  it('passes string content of earlier messages through unchanged', () => {
    const request = baseRequest();
    const params = toMessagesParams(request);
    expect(params.messages[0]).toEqual({ role: 'user', content: 'first' });
    expect(params.messages[1]?.content).toBe(request.messages[1]?.content);
  });

  it('removes stale cache_control left in the history so the limit holds', () => {
    const stale = { type: 'ephemeral' };
    const history = Array.from({ length: 6 }, (_, i) => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: [{ type: 'text', text: `m${i}`, cache_control: stale }],
    }));
    history[2] = {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          content: [{ type: 'text', text: 'r', cache_control: stale }],
          cache_control: stale,
        } as never,
      ],
    };
    const params = toMessagesParams(baseRequest({ messages: history as ModelRequest['messages'] }));
    const paths = breakpointPaths(params);
    expect(paths).toEqual(['messages[5].content[0]', 'system[1]', 'tools[1]']);
    expect(paths.length).toBeLessThanOrEqual(MAX_CACHE_BREAKPOINTS);
  });

  it('never mutates the caller request', () => {
    const request = baseRequest({
      thinking: { type: 'enabled', budgetTokens: 2048 },
      stopSequences: ['END'],
    });
    const snapshot = structuredClone(request);
    deepFreeze(request);
    const params = toMessagesParams(request);
    toCountTokensParams(request);
    expect(request).toEqual(snapshot);
    expect(params.messages[2]?.content).not.toBe(request.messages[2]?.content);
    expect(params.stop_sequences).not.toBe(request.stopSequences);
  });
});

describe('toMessagesParams fields', () => {
  it('maps max_tokens, model, tool choice, temperature and stop sequences', () => {
    const params = toMessagesParams(
      baseRequest({ toolChoice: { type: 'tool', name: 'Read' }, temperature: 0.2, stopSequences: ['</x>'] }),
    );
    expect(params).toMatchObject({
      model: 'claude-opus-5-5',
      max_tokens: 4096,
      tool_choice: { type: 'tool', name: 'Read' },
      temperature: 0.2,
      stop_sequences: ['</x>'],
    });
    expect(toMessagesParams(baseRequest({ toolChoice: { type: 'none' } })).tool_choice).toEqual({
      type: 'none',
    });
  });

  it('leaves optional fields out when the request does not set them', () => {
    const params = toMessagesParams(baseRequest());
    for (const key of ['thinking', 'tool_choice', 'temperature', 'stop_sequences']) {
      expect(params).not.toHaveProperty(key);
    }
  });

  it.each([
    [{ type: 'enabled', budgetTokens: 8000 } as const, { type: 'enabled', budget_tokens: 8000 }],
    [{ type: 'adaptive' } as const, { type: 'adaptive' }],
  ])('maps thinking %o to %o', (thinking, expected) => {
    expect(toMessagesParams(baseRequest({ thinking })).thinking).toEqual(expected);
  });

  it('sends no thinking parameter when thinking is disabled', () => {
    expect(toMessagesParams(baseRequest({ thinking: { type: 'disabled' } }))).not.toHaveProperty('thinking');
  });

  it('builds count_tokens params from the same prompt without sampling fields', () => {
    const request = baseRequest({
      thinking: { type: 'adaptive' },
      temperature: 1,
      toolChoice: { type: 'auto' },
    });
    const params = toCountTokensParams(request);
    expect(Object.keys(params).sort()).toEqual([
      'messages',
      'model',
      'system',
      'thinking',
      'tool_choice',
      'tools',
    ]);
    expect(params.messages).toEqual(toMessagesParams(request).messages);
  });
});
