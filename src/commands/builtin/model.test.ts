/** /model against the session's catalog and the settings' declared models. */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandText, createTestHost, type TestHost, writeJson } from '../test-host';

let host: TestHost;
beforeEach(async () => {
  host = await createTestHost();
});
afterEach(() => host.cleanup());

const textOf = (line: string) => commandText(host, line);

describe('/model', () => {
  it('without an id shows the current model and the choices', async () => {
    const text = await textOf('/model');
    expect(text).toMatch(/^Model: claude-sonnet-5-5 \(context window [\d,]+ tokens\)/);
    expect(text).toContain('* claude-sonnet-5-5 (sonnet)');
    expect(text).toContain('claude-opus-5-5 (opus)');
  });

  it('switches to a known id or alias', async () => {
    expect(await textOf('/model opus')).toMatch(/^Model set to claude-opus-5-5 \(context window/);
    expect(host.model()).toBe('claude-opus-5-5');
    expect(await textOf('/model claude-opus-5-5')).toBe('Already using claude-opus-5-5.');
  });

  it('refuses an unknown id with the close matches and keeps the model', async () => {
    const text = await textOf('/model claude-opus-5-6');
    expect(text).toMatch(
      /^Unknown model "claude-opus-5-6": Yoke has no figures for it\. Did you mean claude-opus-5-5/,
    );
    expect(host.model()).toBe('claude-sonnet-5-5');
    expect(await textOf('/model qqqqqqqqqqqqqq')).toContain('/model lists the models.');
    // A misspelt family, typed without its version.
    expect(await textOf('/model claude-sonet')).toContain(
      'Did you mean claude-sonnet-4-5, claude-sonnet-5-5?',
    );
    expect(await textOf('/model claude-hiaku')).toContain('Did you mean claude-haiku-4-5, claude-haiku-5-5?');
  });

  it('accepts a model the settings declare, and suggests it for a typo', async () => {
    await writeJson(join(host.cwd, '.yoke', 'settings.json'), {
      models: { 'qwen3-coder': { contextWindow: 65536 } },
    });
    expect(await textOf('/model qwen3-codr')).toContain('Did you mean qwen3-coder');
    expect(await textOf('/model')).toContain('qwen3-coder  (declared in settings)');
    expect(await textOf('/model qwen3-coder')).toMatch(/^Model set to qwen3-coder/);
    expect(host.model()).toBe('qwen3-coder');
  });

  it("lists only the session provider's models, and the one in use when the table lacks it", async () => {
    expect(await textOf('/model')).not.toContain('gpt-4o');
    host.provider = 'openai';
    await textOf('/model gpt-4.1');
    let text = await textOf('/model');
    expect(text).toContain('Available on the OpenAI-compatible API:');
    expect(text).toContain('* gpt-4.1');
    expect(text).not.toContain('claude-');
    await writeJson(join(host.cwd, '.yoke', 'settings.json'), {
      models: { 'qwen-local': { contextWindow: 32768 } },
    });
    await textOf('/model qwen-local');
    text = await textOf('/model');
    expect(text).toContain('* qwen-local  (declared in settings)');
    host.setModel('served-by-the-server');
    expect(await textOf('/model')).toContain('* served-by-the-server  (in use)');
  });

  it("refuses a model of the other provider (an alias too): the session's server would not serve it", async () => {
    expect(await textOf('/model gpt-4o')).toBe(
      "gpt-4o is a model of the OpenAI-compatible API, and this session talks to the Anthropic one. Start Yoke with --model gpt-4o (and that API's key) to use it.",
    );
    expect(host.model()).toBe('claude-sonnet-5-5');
    host.provider = 'openai';
    host.setModel('qwen-local');
    expect(await textOf('/model sonnet')).toMatch(
      /^claude-sonnet-5-5 is a model of the Anthropic API, and this session talks to the OpenAI-compatible one\./,
    );
    expect(host.model()).toBe('qwen-local');
  });
});
