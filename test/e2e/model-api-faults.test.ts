/**
 * A misbehaving model API through `yoke -p`: a server that accepts and goes silent, a stream that
 * stalls, a web page where the API should be, refused connections, rejected keys, unknown models,
 * overload, and a max_tokens continuation — against the mock model server over real HTTP.
 *
 * The waits are set small through the `apiTimeouts` setting (or API_TIMEOUT_MS). A faulty turn
 * never answers at all, so which wait ends it is certain; no test measures a duration.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closedPort } from '../../src/testing/closed-port';
import { type MockServer, type ScenarioInput, startMockServer } from '../../src/testing/mock-server';
import { mockEnv, runYoke, tempProject } from './helpers';

let server: MockServer;
let home: string;
let cwd: string;

beforeAll(async () => {
  server = await startMockServer({ scenario: [] });
  cwd = await tempProject();
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  home = await tempProject('yoke-home-');
});

/** Writes the user settings file of this test's fresh YOKE_HOME. */
async function userSettings(settings: Record<string, unknown>): Promise<void> {
  await mkdir(home, { recursive: true });
  await writeFile(join(home, 'settings.json'), JSON.stringify(settings));
}

const hello = { content: [{ type: 'text' as const, text: 'Hello there.' }] };

function yoke(args: string[], env: Record<string, string | undefined> = {}) {
  return runYoke(['-p', 'hi', ...args], { cwd, env: { ...mockEnv(server.url, home), ...env } });
}

function openaiEnv(): Record<string, string | undefined> {
  return {
    ...mockEnv(server.url, home),
    ANTHROPIC_API_KEY: undefined,
    ANTHROPIC_BASE_URL: undefined,
    OPENAI_API_KEY: 'sk-e2e',
    OPENAI_BASE_URL: `${server.url}/v1`,
  };
}

function frames(stdout: string): Record<string, unknown>[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('a server that does not answer', () => {
  it('ends a silent connection by the first-byte wait, says so on stderr, and retries', async () => {
    await userSettings({ apiTimeouts: { firstByteMs: 1_000 } });
    server.reset([{ fault: { type: 'silent' } }, { reply: hello }]);
    const { code, stdout, stderr } = await yoke([]);
    expect(code).toBe(0);
    expect(stdout).toBe('Hello there.\n');
    expect(stderr).toMatch(
      new RegExp(
        `^yoke: warning: API request failed: No answer from the server at ${server.url}: connected, but ` +
          'nothing came back within 1 s; retrying in \\d+ ms \\(retry 1 of 8\\)$',
        'm',
      ),
    );
    expect(server.requests.filter((r) => r.path === '/v1/messages')).toHaveLength(2);
  });

  it('takes the first-byte wait from API_TIMEOUT_MS; --debug adds what lies behind the line', async () => {
    server.reset([{ fault: { type: 'silent' } }, { reply: hello }]);
    const { code, stderr } = await yoke(['--debug'], { API_TIMEOUT_MS: '700' });
    expect(code).toBe(0);
    expect(stderr).toContain('connected, but nothing came back within 700 ms; retrying in');
    expect(stderr).toMatch(
      /\[debug\] retry 1\/8 after ConnectionError; waited 700 ms for a first byte; the retry waits 700 ms; causes: ConnectionError: No answer .* ← TransportDeadlineError: connected, but no response within 700 ms/,
    );
  });

  it('ends a stream that stalls mid-response by the between-chunks wait and starts it again', async () => {
    await userSettings({ apiTimeouts: { streamIdleMs: 1_000 } });
    server.reset([
      {
        reply: { content: [{ type: 'text', text: 'one two three four five six' }] },
        fault: { type: 'stall', afterEvents: 4 },
      },
      { reply: hello },
    ]);
    const { code, stdout, stderr } = await yoke([]);
    expect(code).toBe(0);
    expect(stdout).toBe('Hello there.\n');
    expect(stderr).toMatch(
      /API request failed: The server at \S+ stopped sending mid-response: nothing received for 1 s \[request req_mock_\w+\]; retrying in \d+ ms \(retry 1 of 8\)/,
    );
  });

  it('gives up once the total wait is spent, naming the setting', async () => {
    await userSettings({ apiTimeouts: { firstByteMs: 300, totalMs: 1_500 } });
    server.reset([{ fault: { type: 'silent' }, repeat: 'forever' }]);
    const { code, stdout, stderr } = await yoke([]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    const final = stderr.trim().split('\n').at(-1);
    expect(final).toMatch(/^yoke: .*1\.5 s.*\(apiTimeouts\.totalMs\)/);
  });

  it('fails at once when retry-after asks for longer than the total wait', async () => {
    // The mock is a local server, whose default bound is 20 min; a remote API's is 5 min.
    await userSettings({ apiTimeouts: { totalMs: 300_000 } });
    server.reset([{ fault: { type: 'http', status: 429, retryAfter: 600 } }, { reply: hello }]);
    const { code, stderr } = await yoke([]);
    expect(code).toBe(1);
    expect(stderr).toBe(
      'yoke: Rate limit exceeded (mock fault) (HTTP 429) [request req_mock_0001] — The API asks to wait 10 min ' +
        'before retrying, longer than Yoke waits (5 min, apiTimeouts.totalMs); try again later.\n',
    );
    expect(server.requests).toHaveLength(1);
  });
});

describe('stream-json reports retries as system/api_retry frames', () => {
  it('with the fields of the SDK type, including no_response for a silent server', async () => {
    await userSettings({ apiTimeouts: { firstByteMs: 1_000 } });
    server.reset([{ fault: { type: 'silent' } }, { fault: { type: 'overloaded' } }, { reply: hello }]);
    const { code, stdout, stderr } = await yoke(['--output-format', 'stream-json', '--verbose']);
    expect(code).toBe(0);
    const retries = frames(stdout).filter((f) => f.type === 'system' && f.subtype === 'api_retry');
    expect(retries).toEqual([
      {
        type: 'system',
        subtype: 'api_retry',
        attempt: 1,
        max_retries: 8,
        retry_delay_ms: expect.any(Number),
        error_status: null,
        error: 'unknown',
        no_response: { waited_ms: 1_000, retry_wait_ms: 1_000 },
        session_id: expect.any(String),
        uuid: expect.any(String),
      },
      {
        type: 'system',
        subtype: 'api_retry',
        attempt: 1,
        max_retries: 3,
        retry_delay_ms: expect.any(Number),
        error_status: 529,
        error: 'overloaded',
        session_id: expect.any(String),
        uuid: expect.any(String),
      },
    ]);
    expect(frames(stdout).at(-1)).toMatchObject({
      type: 'result',
      subtype: 'success',
      result: 'Hello there.',
    });
    // stderr still says it in words.
    expect(stderr.match(/API request failed/g)).toHaveLength(2);
  });
});

describe('errors a retry cannot fix fail at once, naming what to change', () => {
  it.each([
    ['anthropic', 'ANTHROPIC_BASE_URL'],
    ['openai', 'OPENAI_BASE_URL'],
  ])('%s: an unreachable base URL names %s and asks whether the server is running', async (api, variable) => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}${api === 'openai' ? '/v1' : ''}`;
    const env = api === 'openai' ? { ...openaiEnv(), OPENAI_BASE_URL: url } : { ANTHROPIC_BASE_URL: url };
    const args = api === 'openai' ? ['--model', 'gpt-4.1'] : [];
    const { code, stderr } = await yoke(args, env);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `yoke: Cannot reach the server at ${url} (set by ${variable}): connection refused (connect ` +
        `ECONNREFUSED 127.0.0.1:${port}). Is the server running, and is ${variable} right?\n`,
    );
  });

  it.each([
    ['anthropic', 'ANTHROPIC_API_KEY'],
    ['openai', 'OPENAI_API_KEY'],
  ])('%s: a 401 names %s', async (api, variable) => {
    server.reset([{ fault: { type: 'http', status: 401, message: 'invalid x-api-key' } }]);
    const { code, stderr } = await yoke(
      api === 'openai' ? ['--model', 'gpt-4.1'] : [],
      api === 'openai' ? openaiEnv() : {},
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(
      new RegExp(
        `^yoke: The server at \\S+ rejected the key in ${variable} \\(invalid x-api-key\\): set ${variable} to a valid key\\. \\(HTTP 401\\)`,
      ),
    );
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ['anthropic', 'claude-sonnet-5-5'],
    ['openai', 'gpt-4.1'],
  ])('%s: a 404 for the model names it and what to choose instead', async (api, model) => {
    server.reset([{ fault: { type: 'unknown_model' } }]);
    const { code, stderr } = await yoke(
      api === 'openai' ? ['--model', model] : [],
      api === 'openai' ? openaiEnv() : {},
    );
    expect(code).toBe(1);
    expect(stderr).toContain(`does not know the model "${model}"`);
    if (api === 'anthropic') {
      expect(stderr).toContain(
        'aliases: opus → claude-opus-5-5, sonnet → claude-sonnet-5-5, haiku → claude-haiku-5-5',
      );
    } else {
      // Anthropic's aliases mean nothing to an OpenAI-compatible server: its own list does.
      expect(stderr).not.toContain('aliases');
      expect(stderr).toContain(`the server lists the ids it serves at ${server.url}/v1/models`);
    }
    expect(server.requests).toHaveLength(1);
  });

  it('a 200 HTML page is reported at once, not retried as a dropped stream', async () => {
    server.reset([{ fault: { type: 'html_page', title: 'Corporate proxy: sign in' } }, { reply: hello }]);
    const { code, stdout, stderr } = await yoke([]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `yoke: The server at ${server.url} answered with an HTML page instead of an event stream ("Corporate ` +
        'proxy: sign in"). Check ANTHROPIC_BASE_URL: it should be the API\'s address, not a web page or a ' +
        "proxy's login. [request req_mock_0001]\n",
    );
    expect(server.requests).toHaveLength(1);
  });

  it('529 without a fallback suggests --fallback-model', async () => {
    server.reset([{ fault: { type: 'overloaded' }, repeat: 'forever' }]);
    const { code, stderr } = await yoke([]);
    expect(code).toBe(1);
    expect(stderr.trim().split('\n').at(-1)).toBe(
      'yoke: Overloaded (HTTP 529) [request req_mock_0004] — Still overloaded after 4 attempts. Try again ' +
        'later, or pass --fallback-model <model> to switch when this one is overloaded.',
    );
  });

  it('switching to the fallback model is announced on stderr', async () => {
    const scenario: ScenarioInput = [
      { match: { model: 'claude-sonnet-5-5' }, fault: { type: 'overloaded' }, repeat: 'forever' },
      { match: { model: 'claude-haiku-5-5' }, reply: { content: [{ type: 'text', text: 'From haiku.' }] } },
    ];
    server.reset(scenario);
    const { code, stdout, stderr } = await yoke(['--fallback-model', 'haiku']);
    expect(code).toBe(0);
    expect(stdout).toBe('From haiku.\n');
    expect(stderr).toMatch(
      /^yoke: warning: Switched to claude-haiku-5-5 because claude-sonnet-5-5 is overloaded \(Overloaded \(HTTP 529\) .*\)\.$/m,
    );
  });
});

describe('a max_tokens continuation', () => {
  // The first answer is cut; so is the retry with the raised limit; the model then continues.
  const cut = {
    content: [{ type: 'text' as const, text: 'The first half, ' }],
    stopReason: 'max_tokens' as const,
  };
  const scenario = (): ScenarioInput => [
    { reply: cut, repeat: 2 },
    { reply: { content: [{ type: 'text', text: 'and the second half.' }] } },
  ];

  it('prints the whole answer in text mode', async () => {
    server.reset(scenario());
    const { code, stdout } = await yoke([]);
    expect(code).toBe(0);
    expect(stdout).toBe('The first half, and the second half.\n');
  });

  it('gives the whole answer as the json and stream-json result', async () => {
    server.reset(scenario());
    const json = await yoke(['--output-format', 'json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ result: 'The first half, and the second half.' });
    server.reset(scenario());
    const stream = await yoke(['--output-format', 'stream-json', '--verbose']);
    expect(frames(stream.stdout).at(-1)).toMatchObject({
      type: 'result',
      result: 'The first half, and the second half.',
    });
  });
});
