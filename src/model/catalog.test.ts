import { describe, expect, it } from 'vitest';
import { ModelCatalog, unknownModelWarning } from './catalog';

describe('ModelCatalog', () => {
  it('knows the table: window, prices, nothing unknown', () => {
    const catalog = new ModelCatalog();
    expect(catalog.contextWindow('sonnet')).toBe(1_000_000);
    expect(catalog.price('claude-haiku-4-5')).toEqual({
      input: 1,
      output: 5,
      cacheWrite: 1.25,
      cacheRead: 0.1,
    });
    expect(catalog.unknowns('claude-opus-5-5')).toEqual({ contextWindow: false, price: false });
  });

  it('takes what the settings declare for a model the table does not know', () => {
    const catalog = new ModelCatalog({
      'qwen3:8b': { contextWindow: 32_768, inputPrice: 0.2, outputPrice: 0.6 },
    });
    expect(catalog.contextWindow('qwen3:8b')).toBe(32_768);
    expect(catalog.price('qwen3:8b')).toEqual({ input: 0.2, output: 0.6, cacheRead: 0.2, cacheWrite: 0.2 });
    expect(catalog.unknowns('qwen3:8b')).toEqual({ contextWindow: false, price: false });
  });

  it('needs both prices to count a cost; the default window otherwise', () => {
    const catalog = new ModelCatalog({ local: { inputPrice: 1 } });
    expect(catalog.price('local')).toBeUndefined();
    expect(catalog.contextWindow('local')).toBe(128_000);
    expect(catalog.unknowns('local')).toEqual({ contextWindow: true, price: true });
  });

  it("lets the settings narrow a known model's window but never change its prices", () => {
    const catalog = new ModelCatalog({
      'claude-sonnet-5-5': { contextWindow: 200_000, inputPrice: 0, outputPrice: 0 },
    });
    expect(catalog.contextWindow('sonnet')).toBe(200_000);
    expect(catalog.price('sonnet')?.input).toBe(3);
    expect(catalog.ignoredDeclarations()).toEqual([
      'settings: models["claude-sonnet-5-5"]: Yoke\'s own prices for claude-sonnet-5-5 are kept; declared prices ' +
        'apply only to models Yoke does not know.',
    ]);
  });

  it('asks the server once, only for a model nothing else describes, and uses its answer', async () => {
    const asked: string[] = [];
    const catalog = new ModelCatalog({ declared: { contextWindow: 4096 } }, async (model) => {
      asked.push(model);
      return 40_960;
    });
    await Promise.all([
      catalog.learn('llama'),
      catalog.learn('llama'),
      catalog.learn('declared'),
      catalog.learn('opus'),
    ]);
    expect(asked).toEqual(['llama']);
    expect(catalog.contextWindow('llama')).toBe(40_960);
    expect(catalog.contextWindow('declared')).toBe(4096);
  });

  it('keeps the default when the server does not say or fails, and reports the failure', async () => {
    const failures: string[] = [];
    const silent = new ModelCatalog({}, async () => undefined);
    await silent.learn('a');
    expect(silent.contextWindow('a')).toBe(128_000);
    const failing = new ModelCatalog(
      {},
      async () => {
        throw new Error('ECONNRESET');
      },
      (model, error) => failures.push(`${model}: ${(error as Error).message}`),
    );
    await failing.learn('b');
    expect(failing.contextWindow('b')).toBe(128_000);
    expect(failures).toEqual(['b: ECONNRESET']);
  });

  it('lets the first model call go at once and makes later ones wait for a lookup in flight', async () => {
    let answer: (length: number) => void = () => {};
    const catalog = new ModelCatalog({}, () => new Promise<number>((resolve) => (answer = resolve)));
    void catalog.learn('m');
    await catalog.settle('m');
    expect(catalog.contextWindow('m')).toBe(128_000);
    let settled = false;
    const second = catalog.settle('m').then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    answer(8_192);
    await second;
    expect(catalog.contextWindow('m')).toBe(8_192);
  });

  it('aborts lookups in flight on dispose, without reporting them as failures', async () => {
    const failures: unknown[] = [];
    const catalog = new ModelCatalog(
      {},
      (_model, signal) =>
        new Promise<number>((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
      (_model, error) => failures.push(error),
    );
    const learning = catalog.learn('m');
    catalog.dispose();
    await learning;
    expect(failures).toEqual([]);
  });
});

describe('unknownModelWarning', () => {
  it('says what is unknown, what Yoke assumes, and the settings that fix it', () => {
    expect(unknownModelWarning('qwen3:8b', { contextWindow: true, price: true }, true)).toBe(
      'model "qwen3:8b" is unknown to Yoke: its cost is not counted (reported as $0), and its context window is ' +
        'taken as 128,000 tokens unless the server reports its own. Declare it in settings: "models": ' +
        '{"qwen3:8b": {"contextWindow": <tokens>, "inputPrice": <USD>, "outputPrice": <USD>}} (prices per million ' +
        'tokens). This is said once per model.',
    );
    expect(unknownModelWarning('m', { contextWindow: false, price: true }, false)).toBe(
      'model "m" is unknown to Yoke: its cost is not counted (reported as $0). Declare it in settings: "models": ' +
        '{"m": {"inputPrice": <USD>, "outputPrice": <USD>}} (prices per million tokens). This is said once per model.',
    );
    expect(unknownModelWarning('m', { contextWindow: false, price: false }, false)).toBeUndefined();
  });

  it('asks about the alias or id a near miss most likely meant', () => {
    const unknowns = { contextWindow: true, price: true };
    expect(unknownModelWarning('sonet', unknowns, false)).toMatch(
      /^model "sonet" is unknown to Yoke \(did you mean sonnet\?\): its cost is not counted/,
    );
    expect(unknownModelWarning('claude-sonet-4-5', unknowns, false)).toContain(
      '(did you mean claude-sonnet-4-5?)',
    );
    expect(unknownModelWarning('qwen3:8b', unknowns, true)).not.toContain('did you mean');
  });
});
