import { describe, expect, it } from 'vitest';
import { toMessagesParams } from './anthropic/request';
import { ModelCatalog } from './catalog';
import { type EffortChoice, overrideEffort, sessionEffort, wireEffort, withEffortOverride } from './effort';
import { toChatCompletionParams } from './openai/translate-request';
import type { ModelRequest } from './types';

const request = (model: string, effort?: ModelRequest['effort']): ModelRequest => ({
  model,
  system: [{ text: 'be brief' }],
  messages: [{ role: 'user', content: 'hi' }],
  maxTokens: 1024,
  ...(effort ? { effort } : {}),
});

describe('the session effort', () => {
  it('is the flag, then the --agent one, then the setting, then none', () => {
    expect(sessionEffort({ flag: 'low', agent: 'high', setting: 'medium' })).toEqual({
      level: 'low',
      source: 'flag',
    });
    expect(sessionEffort({ agent: 'high', setting: 'medium' })).toEqual({ level: 'high', source: 'agent' });
    expect(sessionEffort({ setting: 'medium' })).toEqual({ level: 'medium', source: 'setting' });
    expect(sessionEffort({})).toBeUndefined();
  });

  it("gives way to an agent's or skill's own effort, except the flag's", () => {
    const setting: EffortChoice = { level: 'medium', source: 'setting' };
    expect(overrideEffort(setting, 'max', 'skill')).toEqual({ level: 'max', source: 'skill' });
    expect(overrideEffort(undefined, 'low', 'agent')).toEqual({ level: 'low', source: 'agent' });
    expect(overrideEffort(setting, undefined, 'agent')).toBe(setting);
    const flag: EffortChoice = { level: 'low', source: 'flag' };
    expect(overrideEffort(flag, 'max', 'skill')).toBe(flag);
  });

  it('leaves a context object alone when nothing changes', () => {
    const context = { model: 'm', effort: { level: 'low', source: 'flag' } as EffortChoice };
    expect(withEffortOverride(context, 'high', 'agent')).toBe(context);
    const plain: { model: string; effort?: EffortChoice } = { model: 'm' };
    expect(withEffortOverride(plain, 'high', 'agent')).toEqual({
      model: 'm',
      effort: { level: 'high', source: 'agent' },
    });
  });
});

describe('effort on the Anthropic wire', () => {
  it('goes in output_config for a model that takes it', () => {
    expect(toMessagesParams(request('claude-sonnet-5-5', 'xhigh')).output_config).toEqual({
      effort: 'xhigh',
    });
    expect(toMessagesParams(request('sonnet', 'low')).output_config).toEqual({ effort: 'low' });
  });

  it('is left out for a model that takes none, and without an effort', () => {
    expect(toMessagesParams(request('claude-sonnet-4-5', 'high'))).not.toHaveProperty('output_config');
    expect(toMessagesParams(request('claude-sonnet-5-5'))).not.toHaveProperty('output_config');
    // A model Yoke does not know might refuse the field, so it is not sent.
    expect(toMessagesParams(request('my-proxy-model', 'high'))).not.toHaveProperty('output_config');
    expect(wireEffort('anthropic', 'my-proxy-model', 'high').note).toMatch(
      /Yoke does not know whether my-proxy-model takes an effort setting/,
    );
    expect(wireEffort('anthropic', 'claude-haiku-4-5', 'low').note).toMatch(
      /not sent: claude-haiku-4-5 does not take an effort setting/,
    );
  });

  it("is lowered to the model's highest level when asked for more", () => {
    expect(toMessagesParams(request('claude-opus-4-5', 'max')).output_config).toEqual({ effort: 'high' });
    expect(wireEffort('anthropic', 'claude-opus-4-5', 'xhigh')).toEqual({
      value: 'high',
      note: 'effort "xhigh" is sent as "high": the highest claude-opus-4-5 takes.',
    });
    expect(wireEffort('anthropic', 'claude-opus-4-5', 'medium')).toEqual({ value: 'medium' });
  });
});

describe('effort on the OpenAI-compatible wire', () => {
  it('is reasoning_effort, with xhigh and max sent as high', () => {
    expect(toChatCompletionParams(request('qwen3:8b', 'low')).reasoning_effort).toBe('low');
    expect(toChatCompletionParams(request('qwen3:8b', 'max')).reasoning_effort).toBe('high');
    expect(wireEffort('openai', 'qwen3:8b', 'xhigh').note).toMatch(/sent as "high"/);
  });

  it('is left out for a model known to take none', () => {
    expect(toChatCompletionParams(request('gpt-4.1', 'high'))).not.toHaveProperty('reasoning_effort');
    expect(toChatCompletionParams(request('qwen3:8b'))).not.toHaveProperty('reasoning_effort');
  });
});

describe("the catalog's effort notes", () => {
  it('says each once per model and level', () => {
    const catalog = new ModelCatalog();
    expect(catalog.effortNote('anthropic', 'claude-haiku-4-5', 'high')).toMatch(/not sent/);
    expect(catalog.effortNote('anthropic', 'claude-haiku-4-5', 'high')).toBeUndefined();
    expect(catalog.effortNote('anthropic', 'claude-haiku-4-5', 'low')).toMatch(/not sent/);
    expect(catalog.effortNote('anthropic', 'claude-sonnet-5-5', 'max')).toBeUndefined();
  });
});
