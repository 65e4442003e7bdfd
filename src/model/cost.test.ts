import { describe, expect, it } from 'vitest';
import { ModelCatalog } from './catalog';
import { CostTracker, costOfUsage, isPriced } from './cost';
import type { Usage } from './types';

const usage = (u: Partial<Usage>): Usage => ({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 0,
  ...u,
});

describe('costOfUsage', () => {
  it('matches a real figure: opus 5.5, 24774 in / 38 out = 0.099856 USD', () => {
    expect(costOfUsage('claude-opus-5-5', usage({ inputTokens: 24774, outputTokens: 38 }))).toBeCloseTo(
      0.099856,
      9,
    );
  });

  it('prices cache reads and writes separately', () => {
    // sonnet 4.5: cache write 3.75, cache read 0.30 USD per million tokens
    expect(costOfUsage('claude-sonnet-4-5', usage({ cacheCreationInputTokens: 1_000_000 }))).toBeCloseTo(
      3.75,
      9,
    );
    expect(costOfUsage('claude-sonnet-4-5', usage({ cacheReadInputTokens: 1_000_000 }))).toBeCloseTo(0.3, 9);
    expect(
      costOfUsage(
        'claude-haiku-4-5',
        usage({
          inputTokens: 10,
          outputTokens: 20,
          cacheReadInputTokens: 1000,
          cacheCreationInputTokens: 400,
        }),
      ),
    ).toBeCloseTo((10 * 1 + 20 * 5 + 1000 * 0.1 + 400 * 1.25) / 1e6, 12);
  });

  it('resolves aliases and dated snapshots', () => {
    const u = usage({ inputTokens: 1000, outputTokens: 1000 });
    expect(costOfUsage('opus', u)).toBe(costOfUsage('claude-opus-5-5', u));
    expect(costOfUsage('claude-sonnet-4-5-20250929', u)).toBe(costOfUsage('claude-sonnet-4-5', u));
  });

  it('costs 0 for unknown models and says so through isPriced', () => {
    expect(costOfUsage('llama3.1:8b', usage({ inputTokens: 1e6, outputTokens: 1e6 }))).toBe(0);
    expect(isPriced('llama3.1:8b')).toBe(false);
    expect(isPriced('gpt-4.1')).toBe(true);
    expect(isPriced('sonnet')).toBe(true);
  });
});

describe('CostTracker', () => {
  it('accumulates per model and in total', () => {
    const t = new CostTracker();
    const c1 = t.add('claude-opus-5-5', usage({ inputTokens: 24774, outputTokens: 38 }), 1200);
    const c2 = t.add('opus', usage({ inputTokens: 100, outputTokens: 50, cacheReadInputTokens: 24000 }), 800);
    const c3 = t.add('claude-haiku-4-5', usage({ inputTokens: 500, outputTokens: 10 }), 150, 2);
    expect(c1).toBeCloseTo(0.099856, 9);
    expect(c2).toBeCloseTo((100 * 4 + 50 * 20 + 24000 * 0.4) / 1e6, 12);

    const total = t.total();
    expect(total.usage).toEqual({
      inputTokens: 25374,
      outputTokens: 98,
      cacheReadInputTokens: 24000,
      cacheCreationInputTokens: 0,
    });
    expect(total.costUsd).toBeCloseTo(c1 + c2 + c3, 12);
    expect(total.apiDurationMs).toBe(2150);
    expect(total.requests).toBe(3);

    const by = t.byModel();
    expect(Object.keys(by).sort()).toEqual(['claude-haiku-4-5', 'claude-opus-5-5']);
    expect(by['claude-opus-5-5']).toEqual({
      inputTokens: 24874,
      outputTokens: 88,
      cacheReadInputTokens: 24000,
      cacheCreationInputTokens: 0,
      webSearchRequests: 0,
      costUSD: c1 + c2,
      contextWindow: 1_000_000,
      maxOutputTokens: 128_000,
    });
    expect(by['claude-haiku-4-5']?.webSearchRequests).toBe(2);
    expect(by['claude-haiku-4-5']?.costUSD).toBeCloseTo((500 * 1 + 10 * 5) / 1e6, 12);
  });

  it('returns copies, so callers cannot corrupt the totals', () => {
    const t = new CostTracker();
    t.add('sonnet', usage({ inputTokens: 10 }));
    const by = t.byModel();
    (by['claude-sonnet-5-5'] as { inputTokens: number }).inputTokens = 999;
    t.total().usage.inputTokens = 999;
    expect(t.byModel()['claude-sonnet-5-5']?.inputTokens).toBe(10);
    expect(t.total().usage.inputTokens).toBe(10);
  });

  it('tracks unknown models with conservative limits and zero cost', () => {
    const t = new CostTracker();
    t.add('qwen2.5-coder', usage({ inputTokens: 1000, outputTokens: 100 }));
    expect(t.total().costUsd).toBe(0);
    expect(t.unpricedModels()).toEqual(['qwen2.5-coder']);
    expect(t.byModel()['qwen2.5-coder']).toMatchObject({ inputTokens: 1000, contextWindow: 128_000 });
  });
});

describe('CostTracker with a session catalog', () => {
  it("counts a declared model's cost and reports its declared window", () => {
    const tracker = new CostTracker(
      new ModelCatalog({ 'qwen3:8b': { contextWindow: 32_768, inputPrice: 0.5, outputPrice: 2 } }),
    );
    const cost = tracker.add(
      'qwen3:8b',
      usage({ inputTokens: 2_000_000, outputTokens: 1_000_000, cacheReadInputTokens: 1_000_000 }),
    );
    expect(cost).toBeCloseTo(2 * 0.5 + 1 * 2 + 1 * 0.5, 9);
    expect(tracker.byModel()['qwen3:8b']).toMatchObject({ contextWindow: 32_768, costUSD: cost });
    expect(tracker.unpricedModels()).toEqual([]);
  });

  it('reports the window a server answered with after the request was counted', async () => {
    const catalog = new ModelCatalog({}, async () => 8_192);
    const tracker = new CostTracker(catalog);
    tracker.add('local', usage({ inputTokens: 10 }));
    expect(tracker.byModel().local?.contextWindow).toBe(128_000);
    await catalog.learn('local');
    expect(tracker.byModel().local?.contextWindow).toBe(8_192);
    expect(tracker.unpricedModels()).toEqual(['local']);
  });
});

describe('CostTracker listeners', () => {
  it('tells each listener of every request with its cost, until it unsubscribes', () => {
    const tracker = new CostTracker();
    const seen: unknown[] = [];
    const stop = tracker.onAdd((entry) => seen.push(entry));
    tracker.add('haiku', usage({ inputTokens: 1_000_000 }));
    stop();
    tracker.add('haiku', usage({ inputTokens: 1_000_000 }));
    expect(seen).toEqual([
      { model: 'claude-haiku-5-5', usage: usage({ inputTokens: 1_000_000 }), costUsd: 1 },
    ]);
    expect(tracker.total().requests).toBe(2);
  });
});
