import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AnthropicProviderOptions } from './anthropic';
import { MissingCredentialsError, ServerError } from './errors';
import type { OpenAIProviderOptions } from './openai';
import { chooseProvider, isLocalBaseUrl, ModelSelectionError, providerForModel, selectModel } from './select';
import type { ModelRequest, StreamEvent } from './types';

/** Constructor calls of the (mocked) provider classes, with the options select passed. */
const built = vi.hoisted(() => ({
  anthropic: [] as unknown[],
  openai: [] as unknown[],
  /** Failures the next created provider throws from stream() before succeeding. */
  failures: 0,
}));

vi.mock('./anthropic', async (importOriginal) => {
  const real = await importOriginal<typeof import('./anthropic')>();
  return {
    ...real,
    AnthropicProvider: class {
      readonly name = 'anthropic';
      calls = 0;
      constructor(options: AnthropicProviderOptions) {
        built.anthropic.push(options);
      }
      async *stream(): AsyncGenerator<StreamEvent> {
        this.calls++;
        if (built.failures-- > 0) throw new ServerError('500');
        yield { type: 'text_delta', index: 0, text: `attempt ${this.calls}` };
      }
    },
  };
});

vi.mock('./openai', async (importOriginal) => {
  const real = await importOriginal<typeof import('./openai')>();
  return {
    ...real,
    OpenAIProvider: class {
      readonly name = 'openai';
      constructor(options: OpenAIProviderOptions) {
        built.openai.push(options);
      }
      async *stream(): AsyncGenerator<StreamEvent> {}
    },
  };
});

beforeEach(() => {
  built.anthropic.length = 0;
  built.openai.length = 0;
  built.failures = 0;
});

const KEY = { ANTHROPIC_API_KEY: 'sk-ant-test' };

describe('chooseProvider', () => {
  it('prefers the explicit provider over the model and the environment', () => {
    expect(chooseProvider({ provider: 'openai', model: 'claude-sonnet-4-5', env: KEY })).toBe('openai');
    expect(chooseProvider({ provider: 'Anthropic', model: 'gpt-4.1', env: {} })).toBe('anthropic');
  });

  it('infers from the model id, then the environment, then defaults to anthropic', () => {
    expect(chooseProvider({ model: 'gpt-4o', env: KEY })).toBe('openai');
    expect(chooseProvider({ model: 'o3-mini', env: KEY })).toBe('openai');
    expect(chooseProvider({ model: 'haiku', env: { OPENAI_BASE_URL: 'http://localhost:11434/v1' } })).toBe(
      'anthropic',
    );
    expect(chooseProvider({ model: 'llama3.1', env: { OPENAI_BASE_URL: 'http://localhost:11434/v1' } })).toBe(
      'openai',
    );
    expect(chooseProvider({ env: { OPENAI_BASE_URL: 'http://x:1/v1', ANTHROPIC_AUTH_TOKEN: 't' } })).toBe(
      'anthropic',
    );
    expect(chooseProvider({ env: {} })).toBe('anthropic');
    expect(chooseProvider({ env: { OPENAI_BASE_URL: '  ' } })).toBe('anthropic');
    expect(chooseProvider({ env: { OPENAI_API_KEY: 'sk-test' } })).toBe('openai');
    expect(chooseProvider({ env: { OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'k' } })).toBe('anthropic');
  });

  it('rejects an unknown provider and lists the valid ones', () => {
    expect(() => chooseProvider({ provider: 'gemini', env: {} })).toThrow(ModelSelectionError);
    expect(() => chooseProvider({ provider: 'gemini', env: {} })).toThrow(
      'Unknown provider "gemini". Valid providers: anthropic, openai.',
    );
  });
});

describe('providerForModel / isLocalBaseUrl', () => {
  it('maps model ids to providers', () => {
    expect(providerForModel('sonnet')).toBe('anthropic');
    expect(providerForModel('claude-opus-5-5')).toBe('anthropic');
    expect(providerForModel('o1-preview')).toBe('openai');
    expect(providerForModel('o4-mini')).toBe('openai');
    expect(providerForModel('qwen2.5-coder:7b')).toBeUndefined();
    expect(providerForModel('anthropic/claude-sonnet-4-5')).toBeUndefined();
  });

  it.each([
    ['http://localhost:11434/v1', true],
    ['http://ollama.localhost/v1', true],
    ['http://127.0.0.1:8000/v1', true],
    ['http://127.1.2.3/v1', true],
    ['http://[::1]:8080/v1', true],
    ['http://10.0.0.5/v1', true],
    ['http://192.168.1.20:1234/v1', true],
    ['http://172.16.0.1/v1', true],
    ['http://172.31.255.255/v1', true],
    ['http://gpu-box.local:8000/v1', true],
    ['http://172.32.0.1/v1', false],
    ['http://172.15.0.1/v1', false],
    ['http://11.0.0.1/v1', false],
    ['https://api.openai.com/v1', false],
    ['https://openrouter.ai/api/v1', false],
    ['http://localhost.evil.com/v1', false],
    ['not a url', false],
  ])('%s is local: %s', (url, local) => {
    expect(isLocalBaseUrl(url)).toBe(local);
  });
});

describe('selectModel', () => {
  it('defaults to anthropic with the sonnet model and passes credentials and base URL', async () => {
    const s = await selectModel({ env: { ...KEY, ANTHROPIC_BASE_URL: 'https://gw.example.com' } });
    expect(s.providerName).toBe('anthropic');
    expect(s.model).toBe('claude-sonnet-5-5');
    expect(s.provider.name).toBe('anthropic');
    expect(s.fallbackModel).toBeUndefined();
    expect(built.anthropic).toEqual([
      {
        apiKey: 'sk-ant-test',
        baseURL: 'https://gw.example.com',
        timeouts: { connectMs: 10_000, firstByteMs: 120_000, idleMs: 60_000, totalMs: 300_000 },
        endpoint: {
          api: 'anthropic',
          baseUrl: 'https://gw.example.com',
          baseUrlSource: 'ANTHROPIC_BASE_URL',
          keyVariables: ['ANTHROPIC_API_KEY'],
        },
      },
    ]);
    expect(s.endpoint.baseUrlSource).toBe('ANTHROPIC_BASE_URL');
  });

  it('waits longer for the first byte of a local server, and takes the settings and API_TIMEOUT_MS', async () => {
    const local = await selectModel({
      env: { OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1', OPENAI_MODEL: 'm' },
    });
    expect(local.timeouts).toEqual({
      connectMs: 10_000,
      firstByteMs: 600_000,
      idleMs: 60_000,
      totalMs: 1_200_000,
    });
    const set = await selectModel({
      env: KEY,
      timeouts: { connectMs: 2_000, firstByteMs: 30_000, streamIdleMs: 5_000, totalMs: 90_000 },
    });
    expect(set.timeouts).toEqual({ connectMs: 2_000, firstByteMs: 30_000, idleMs: 5_000, totalMs: 90_000 });
    const env = await selectModel({
      env: { ...KEY, API_TIMEOUT_MS: '45000' },
      timeouts: { firstByteMs: 30_000 },
    });
    expect(env.timeouts.firstByteMs).toBe(45_000);
    const bad = await selectModel({ env: { ...KEY, API_TIMEOUT_MS: 'soon' } });
    expect(bad.timeouts.firstByteMs).toBe(120_000);
    expect(bad.warnings).toEqual([
      'API_TIMEOUT_MS="soon" is not a positive number of milliseconds; it is ignored.',
    ]);
  });

  it('resolves aliases, and --base-url overrides the environment', async () => {
    const s = await selectModel({
      model: 'opus',
      fallbackModel: 'sonnet',
      baseUrl: 'http://127.0.0.1:4000',
      env: { ANTHROPIC_AUTH_TOKEN: 'tok', ANTHROPIC_BASE_URL: 'https://gw.example.com' },
    });
    expect(s.model).toBe('claude-opus-5-5');
    expect(s.fallbackModel).toBe('claude-sonnet-5-5');
    expect(built.anthropic).toMatchObject([
      {
        authToken: 'tok',
        baseURL: 'http://127.0.0.1:4000',
        endpoint: { baseUrlSource: 'the "baseUrl" setting', keyVariables: ['ANTHROPIC_AUTH_TOKEN'] },
      },
    ]);
  });

  it('names the variables when Anthropic credentials are missing', async () => {
    const run = selectModel({ model: 'sonnet', env: { OPENAI_API_KEY: 'sk-openai' } });
    await expect(run).rejects.toBeInstanceOf(MissingCredentialsError);
    // Only Yoke's default chose Anthropic: the line names the way to OpenAI and local servers too.
    await expect(selectModel({ env: {} })).rejects.toThrow(
      'No API key found: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN) for Anthropic, OPENAI_API_KEY for ' +
        'OpenAI, or OPENAI_BASE_URL for a local OpenAI-compatible server (Ollama: http://localhost:11434/v1), ' +
        'which needs no key.',
    );
    await expect(selectModel({ provider: 'anthropic', env: {} })).rejects.toThrow(
      'No API key found: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN).',
    );
    // The model chose Anthropic although OpenAI settings are there: says so, and how to use them.
    await expect(run).rejects.toThrow(
      'No API key found for claude-sonnet-5-5, an Anthropic model: set ANTHROPIC_API_KEY (or ' +
        'ANTHROPIC_AUTH_TOKEN). To use your OpenAI-compatible settings instead, pass --model with a model ' +
        'that server serves.',
    );
    await expect(selectModel({ env: { ANTHROPIC_API_KEY: ' ' } })).rejects.toMatchObject({
      variables: ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'],
    });
    expect(built.anthropic).toEqual([]);
  });

  it('uses openai for gpt models with the key from the environment', async () => {
    const s = await selectModel({ model: 'gpt-4o', env: { OPENAI_API_KEY: 'sk-openai' } });
    expect(s.providerName).toBe('openai');
    expect(s.model).toBe('gpt-4o');
    expect(s.provider.name).toBe('openai');
    expect(built.openai).toMatchObject([{ apiKey: 'sk-openai' }]);
    expect(s.endpoint).toEqual({
      api: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      keyVariables: ['OPENAI_API_KEY'],
    });
  });

  it('defaults the openai model to OPENAI_MODEL, else gpt-4.1', async () => {
    const env = { OPENAI_API_KEY: 'k' };
    expect((await selectModel({ provider: 'openai', env })).model).toBe('gpt-4.1');
    expect(
      (await selectModel({ provider: 'openai', env: { ...env, OPENAI_MODEL: 'gpt-4.1-mini' } })).model,
    ).toBe('gpt-4.1-mini');
  });

  it('needs no key for a local OpenAI-compatible server', async () => {
    const s = await selectModel({
      env: { OPENAI_BASE_URL: 'http://localhost:11434/v1', OPENAI_MODEL: 'qwen3' },
    });
    expect(s.providerName).toBe('openai');
    expect(s.model).toBe('qwen3');
    expect(built.openai).toMatchObject([{ baseURL: 'http://localhost:11434/v1' }]);
    expect((built.openai[0] as OpenAIProviderOptions).apiKey).toBeUndefined();
  });

  it('names OPENAI_API_KEY when a remote server has no key', async () => {
    await expect(selectModel({ model: 'gpt-4.1', env: {} })).rejects.toThrow(
      'No API key found: set OPENAI_API_KEY, or OPENAI_BASE_URL to a local OpenAI-compatible server ' +
        '(Ollama: http://localhost:11434/v1), which needs no key.',
    );
    await expect(
      selectModel({ provider: 'openai', env: { OPENAI_BASE_URL: 'https://llm.example.com/v1' } }),
    ).rejects.toThrow(
      'No API key found for the server at https://llm.example.com/v1 (set by OPENAI_BASE_URL): set OPENAI_API_KEY.',
    );
    await expect(
      selectModel({ provider: 'openai', baseUrl: 'https://openrouter.ai/api/v1', env: {} }),
    ).rejects.toMatchObject({ variables: ['OPENAI_API_KEY'] });
    expect(built.openai).toEqual([]);
  });

  it('refuses a base URL without its http(s) scheme, naming where it was set and the fix', async () => {
    // `new URL('localhost:11434/v1')` reads `localhost:` as the scheme; before this check the run
    // went on to say a key was missing (the address was not known to be local) or "Invalid URL".
    await expect(selectModel({ env: { OPENAI_BASE_URL: 'localhost:11434/v1' } })).rejects.toThrow(
      'OPENAI_BASE_URL=localhost:11434/v1 is not an http(s) address: write it with its scheme, e.g. http://localhost:11434/v1.',
    );
    await expect(
      selectModel({ env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'gateway.example.com/anthropic' } }),
    ).rejects.toThrow('e.g. https://gateway.example.com/anthropic.');
    await expect(
      selectModel({ provider: 'openai', baseUrl: 'ftp://10.0.0.5/v1', env: { OPENAI_API_KEY: 'k' } }),
    ).rejects.toThrow(
      'the "baseUrl" setting ("ftp://10.0.0.5/v1") is not an http(s) address: the ftp: scheme is not supported.',
    );
    await expect(selectModel({ env: { OPENAI_BASE_URL: 'http://' } })).rejects.toBeInstanceOf(
      ModelSelectionError,
    );
    expect(built.openai).toEqual([]);
    expect(built.anthropic).toEqual([]);
  });

  it('says an alias is an Anthropic model before asking an OpenAI-compatible server for it', async () => {
    const env = { OPENAI_BASE_URL: 'http://localhost:11434/v1' };
    await expect(selectModel({ provider: 'openai', model: 'sonnet', env })).rejects.toThrow(
      '--model sonnet: "sonnet" is Yoke\'s alias for Anthropic\'s claude-sonnet-5-5, which an ' +
        'OpenAI-compatible server does not serve by that name. Pass the id the server serves ' +
        '(--model <id>), or --provider anthropic.',
    );
    await expect(selectModel({ provider: 'openai', settingsModel: 'Opus', env })).rejects.toThrow(
      /^The "model" setting Opus: "Opus" is Yoke's alias for Anthropic's claude-opus-5-5/,
    );
    // An agent file's alias is shared with Anthropic users: the server's default model stands in.
    const s = await selectModel({
      provider: 'openai',
      agentModel: 'haiku',
      env: { ...env, OPENAI_MODEL: 'qwen3' },
    });
    expect(s.model).toBe('qwen3');
    expect(built.openai).toHaveLength(1);
    // Nor does it choose Anthropic where only OpenAI settings are present.
    const chosen = await selectModel({ agentModel: 'haiku', env: { ...env, OPENAI_MODEL: 'qwen3' } });
    expect([chosen.providerName, chosen.model]).toEqual(['openai', 'qwen3']);
    // With an Anthropic key, it is the agent's model.
    expect((await selectModel({ agentModel: 'haiku', env: KEY })).model).toBe('claude-haiku-5-5');
  });

  it('takes ANTHROPIC_MODEL over the model setting on Anthropic, below --model and the agent', async () => {
    const env = { ...KEY, ANTHROPIC_MODEL: 'opus' };
    expect((await selectModel({ settingsModel: 'haiku', env })).model).toBe('claude-opus-5-5');
    expect((await selectModel({ model: 'haiku', env })).model).toBe('claude-haiku-5-5');
    expect((await selectModel({ agentModel: 'claude-haiku-4-5', env })).model).toBe('claude-haiku-4-5');
    expect((await selectModel({ settingsModel: 'haiku', env: KEY })).model).toBe('claude-haiku-5-5');
    // It names an Anthropic model: an OpenAI session leaves it alone.
    const openai = { ...env, OPENAI_API_KEY: 'k' };
    expect((await selectModel({ provider: 'openai', env: openai })).model).toBe('gpt-4.1');
  });

  it('rejects a fallback equal to the model or from the other provider', async () => {
    await expect(
      selectModel({ model: 'sonnet', fallbackModel: 'claude-sonnet-5-5', env: KEY }),
    ).rejects.toThrow(/same as the main model/);
    await expect(selectModel({ model: 'opus', fallbackModel: 'gpt-4.1', env: KEY })).rejects.toThrow(
      'The fallback model gpt-4.1 belongs to openai but the session uses anthropic',
    );
  });

  it('returns the provider wrapped with retry', async () => {
    built.failures = 2;
    const sleeps: number[] = [];
    const s = await selectModel({
      env: KEY,
      retry: { clock: { random: () => 0, sleep: async (ms) => void sleeps.push(ms) } },
    });
    const request: ModelRequest = { model: s.model, system: [], messages: [], maxTokens: 10 };
    const events: StreamEvent[] = [];
    for await (const e of s.provider.stream(request)) events.push(e);
    expect(events.filter((e) => e.type !== 'retry')).toEqual([
      { type: 'text_delta', index: 0, text: 'attempt 3' },
    ]);
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(2);
    expect(sleeps).toHaveLength(2);
  });
});
