import { describe, expect, it } from 'vitest';
import { chooseFastModel } from './fast-model';

describe('chooseFastModel', () => {
  it('defaults to the haiku model on Anthropic and to the main model elsewhere', () => {
    expect(chooseFastModel({ providerName: 'anthropic', env: {} })).toEqual({
      model: 'claude-haiku-5-5',
      warnings: [],
    });
    expect(chooseFastModel({ providerName: 'openai', env: {} })).toEqual({ model: undefined, warnings: [] });
  });

  it('takes YOKE_FAST_MODEL, then ANTHROPIC_SMALL_FAST_MODEL, then the setting; blank counts as unset', () => {
    const env = { YOKE_FAST_MODEL: 'claude-haiku-4-5', ANTHROPIC_SMALL_FAST_MODEL: 'claude-sonnet-4-5' };
    const choose = (e: Record<string, string>) =>
      chooseFastModel({ providerName: 'anthropic', setting: 'opus', env: e }).model;
    expect(choose(env)).toBe('claude-haiku-4-5');
    expect(choose({ ...env, YOKE_FAST_MODEL: '  ' })).toBe('claude-sonnet-4-5');
    // The setting takes an alias like --model does.
    expect(choose({})).toBe('claude-opus-5-5');
  });

  it('passes over a model of the other provider with a warning', () => {
    const choice = chooseFastModel({
      providerName: 'openai',
      setting: 'qwen2.5-coder:1.5b',
      env: { ANTHROPIC_SMALL_FAST_MODEL: 'haiku' },
    });
    expect(choice.model).toBe('qwen2.5-coder:1.5b');
    expect(choice.warnings).toEqual([
      'ANTHROPIC_SMALL_FAST_MODEL names claude-haiku-5-5, a model of anthropic, but the session uses openai; ' +
        'side calls do not use it.',
    ]);
    const none = chooseFastModel({ providerName: 'anthropic', env: { YOKE_FAST_MODEL: 'gpt-4.1-mini' } });
    expect(none.model).toBe('claude-haiku-5-5');
    expect(none.warnings[0]).toMatch(/^YOKE_FAST_MODEL names gpt-4.1-mini, a model of openai/);
  });
});
