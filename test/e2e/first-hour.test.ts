/**
 * A new user's first hour with `yoke -p`: no key at all, a proxy's page where the API should be,
 * Ollama's address without `/v1`, Anthropic's aliases on an OpenAI-compatible server, and the
 * model from ANTHROPIC_MODEL in the settings' `env` — each against a real HTTP server (the mock
 * model server, or a scratch one shaped like the real thing), each one line on stderr, exit 1,
 * and a failed turn still in the transcript.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LocalHttp, listenLocal } from '../../src/testing/local-http';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import { mockEnv, runYoke, tempProject } from './helpers';
import { Terminal, tmuxAvailable } from './tui/tmux';

let server: MockServer;
let home: string;
let cwd: string;

beforeAll(async () => {
  server = await startMockServer({ scenario: [] });
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  home = await tempProject('yoke-home-');
  cwd = await tempProject();
});

const hello = { content: [{ type: 'text' as const, text: 'Hello there.' }] };

/** No key, no base URL, no model from this machine: a fresh user's environment. */
function bareEnv(): Record<string, string | undefined> {
  return {
    ...mockEnv(server.url, home),
    ANTHROPIC_API_KEY: undefined,
    ANTHROPIC_BASE_URL: undefined,
    OPENAI_MODEL: undefined,
  };
}

/** The lines of this run's one transcript. */
async function transcriptLines(): Promise<Record<string, unknown>[]> {
  const projects = await readdir(join(home, 'projects'));
  const folder = join(home, 'projects', projects[0] as string);
  const [file] = (await readdir(folder)).filter((name) => name.endsWith('.jsonl'));
  const text = await readFile(join(folder, file as string), 'utf8');
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('no API key at all', () => {
  it('names both ways in, in one line, and sends nothing', async () => {
    server.reset([{ reply: hello }]);
    const { code, stdout, stderr } = await runYoke(['-p', 'hi'], { cwd, env: bareEnv() });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'yoke: No API key found: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN) for Anthropic, OPENAI_API_KEY ' +
        'for OpenAI, or OPENAI_BASE_URL for a local OpenAI-compatible server (Ollama: ' +
        'http://localhost:11434/v1), which needs no key.\n',
    );
    expect(server.requests).toHaveLength(0);
  });

  it('for an OpenAI model, names OPENAI_API_KEY and the keyless local way', async () => {
    const { code, stderr } = await runYoke(['-p', 'hi', '--model', 'gpt-4.1'], { cwd, env: bareEnv() });
    expect(code).toBe(1);
    expect(stderr).toBe(
      'yoke: No API key found: set OPENAI_API_KEY, or OPENAI_BASE_URL to a local OpenAI-compatible server ' +
        '(Ollama: http://localhost:11434/v1), which needs no key.\n',
    );
  });
});

describe.skipIf(!tmuxAvailable())('no API key at all, in a terminal', { timeout: 60_000 }, () => {
  it.each(['xterm-256color', 'dumb'])(
    'TERM=%s: the interactive start ends with the same line and exit code instead of a UI that waits',
    async (term) => {
      const t = await Terminal.start({ cwd, env: bareEnv(), term, width: 300 });
      try {
        expect(await t.exitCode()).toBe(1);
        // The pane may show the output a moment after the exit code is written.
        const screen = await t.waitFor(
          'yoke: No API key found: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN)',
        );
        expect(screen).not.toContain('Do you trust');
      } finally {
        await t.close();
      }
    },
  );

  it("a key in the user settings' env is enough: the UI starts", async () => {
    await writeFile(
      join(home, 'settings.json'),
      JSON.stringify({ env: { ANTHROPIC_API_KEY: 'sk-ant-e2e' } }),
    );
    const env = { ...bareEnv(), ANTHROPIC_BASE_URL: server.url };
    const t = await Terminal.start({ cwd, env, term: 'dumb', args: ['--trust'] });
    try {
      await t.waitFor(/> $/m, { timeoutMs: 45_000 });
      await t.type('/exit');
      await t.press('Enter');
      expect(await t.exitCode()).toBe(0);
    } finally {
      await t.close();
    }
  });
});

describe("a proxy's page where the API should answer", () => {
  it('a 403 page is reported by its title as the proxy, not as a refused key; the turn stays in the transcript', async () => {
    server.reset([{ fault: { type: 'html_page', status: 403, title: 'Access denied | Corp Firewall' } }]);
    const { code, stdout, stderr } = await runYoke(['-p', 'remember the word avocado'], {
      cwd,
      env: mockEnv(server.url, home),
    });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `yoke: The server at ${server.url} answered with a web page ("Access denied | Corp Firewall") instead ` +
        "of the API's answer. Check ANTHROPIC_BASE_URL: it should be the API's address, not a web page or a " +
        "proxy's login. (HTTP 403) [request req_mock_0001]\n",
    );
    expect(server.requests).toHaveLength(1);
    const users = (await transcriptLines()).filter((line) => line.type === 'user');
    expect(users.some((line) => JSON.stringify(line).includes('remember the word avocado'))).toBe(true);
    // Once the way is clear, --continue carries the prompt that failed on to the model.
    server.reset([{ reply: hello }]);
    const next = await runYoke(['-p', 'and now?', '--continue'], { cwd, env: mockEnv(server.url, home) });
    expect(next.stdout).toBe('Hello there.\n');
    expect(JSON.stringify(server.requests[0]?.body)).toContain('remember the word avocado');
  });
});

describe('Ollama at its root address instead of /v1', () => {
  let ollama: LocalHttp;
  beforeAll(async () => {
    // Ollama serves the OpenAI-compatible API only under /v1; elsewhere Go's plain-text 404.
    ollama = await listenLocal((req, res) => {
      req.resume();
      // Its chat path; and /v1/messages answered as chat too (an Anthropic client sent to it).
      if (req.url === '/v1/chat/completions' || req.url === '/v1/messages') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(
          'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi from Ollama."},"finish_reason":null}]}\n\n' +
            'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n' +
            'data: [DONE]\n\n',
        );
        return;
      }
      res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found');
    });
  });
  afterAll(async () => {
    await ollama.close();
  });

  it('names the address to try, and that address works without a key', async () => {
    const root = ollama.base.replace('127.0.0.1', 'localhost');
    const env = { ...bareEnv(), OPENAI_BASE_URL: root };
    const args = ['-p', 'hi', '--model', 'qwen2.5-coder'];
    const wrong = await runYoke(args, { cwd, env });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim().split('\n').at(-1)).toBe(
      `yoke: The server at ${root} has no such endpoint (404 page not found). Check OPENAI_BASE_URL. An ` +
        `OpenAI-compatible base URL usually ends in /v1: try ${root}/v1. (HTTP 404)`,
    );
    const right = await runYoke(args, { cwd, env: { ...env, OPENAI_BASE_URL: `${root}/v1` } });
    expect(right.stdout).toBe('Hi from Ollama.\n');
    expect(right.code).toBe(0);
  });

  it("an endpoint's whole address pasted as the base URL, or Ollama's /api: the hint names the base that works", async () => {
    const env = { ...bareEnv() };
    const args = ['-p', 'hi', '--model', 'qwen2.5-coder'];
    const pasted = `${ollama.base}/v1/chat/completions`;
    const wrong = await runYoke(args, { cwd, env: { ...env, OPENAI_BASE_URL: pasted } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim().split('\n').at(-1)).toBe(
      `yoke: The server at ${pasted} has no such endpoint (404 page not found). Check OPENAI_BASE_URL. An ` +
        `OpenAI-compatible base URL usually ends in /v1, without the endpoint's path: try ${ollama.base}/v1. (HTTP 404)`,
    );
    const api = await runYoke(args, { cwd, env: { ...env, OPENAI_BASE_URL: `${ollama.base}/api` } });
    expect(api.stderr.trim().split('\n').at(-1)).toContain(
      `try ${ollama.base}/v1 (Ollama serves its OpenAI API there, beside /api) or ${ollama.base}/api/v1.`,
    );
    const right = await runYoke(args, { cwd, env: { ...env, OPENAI_BASE_URL: `${ollama.base}/v1` } });
    expect(right.stdout).toBe('Hi from Ollama.\n');
  });

  it('given to ANTHROPIC_BASE_URL, names OPENAI_BASE_URL as the variable meant', async () => {
    // Its chunks carry no Messages API event: retried (an empty stream may be a hiccup) until the
    // total wait, here short, is spent; every line says what the address likely is.
    await writeFile(join(home, 'settings.json'), JSON.stringify({ apiTimeouts: { totalMs: 1_500 } }));
    const env = { ...bareEnv(), ANTHROPIC_API_KEY: 'sk-ant-e2e', ANTHROPIC_BASE_URL: ollama.base };
    const { code, stderr } = await runYoke(['-p', 'hi'], { cwd, env });
    expect(code).toBe(1);
    // On a slow machine the bound may cut an attempt still in flight: the error is then the
    // timeout's, which names the same hint after "Before that:". Either way the hint is there.
    expect(stderr).toContain(
      `The server at ${ollama.base} answered with an event stream that holds no Anthropic Messages API ` +
        'event. If it is an OpenAI-compatible server (Ollama, vLLM, llama.cpp), set ' +
        `OPENAI_BASE_URL=${ollama.base}/v1 instead of ANTHROPIC_BASE_URL.`,
    );
  });
});

describe('model names', () => {
  it('an Anthropic alias on an OpenAI-compatible server stops before any request', async () => {
    server.reset([{ reply: hello }]);
    const env = { ...bareEnv(), OPENAI_API_KEY: 'sk-e2e', OPENAI_BASE_URL: `${server.url}/v1` };
    const { code, stderr } = await runYoke(['-p', 'hi', '--provider', 'openai', '--model', 'sonnet'], {
      cwd,
      env,
    });
    expect(code).toBe(1);
    expect(stderr).toBe(
      `yoke: --model sonnet: "sonnet" is Yoke's alias for Anthropic's claude-sonnet-5-5, which an ` +
        'OpenAI-compatible server does not serve by that name. Pass the id the server serves (--model ' +
        '<id>), or --provider anthropic.\n',
    );
    expect(server.requests).toHaveLength(0);
  });

  it("takes ANTHROPIC_MODEL from the settings' env over the model setting", async () => {
    server.reset([{ reply: hello }]);
    await writeFile(
      join(home, 'settings.json'),
      JSON.stringify({ model: 'haiku', env: { ANTHROPIC_MODEL: 'opus' } }),
    );
    const { code, stdout } = await runYoke(['-p', 'hi'], { cwd, env: mockEnv(server.url, home) });
    expect(stdout).toBe('Hello there.\n');
    expect(code).toBe(0);
    expect(server.requests[0]?.body).toMatchObject({ model: 'claude-opus-5-5' });
  });
});

describe('the first permission rules', () => {
  const runTests = [
    { reply: { content: [{ type: 'tool_use' as const, name: 'Bash', input: { command: 'npm test' } }] } },
    { reply: hello },
  ];

  it('a misspelt tool name in --allowedTools is named with the tool meant; the call is still refused', async () => {
    server.reset(runTests);
    const { code, stderr } = await runYoke(['-p', 'run the tests', '--allowedTools', 'Bsah(npm test)'], {
      cwd,
      env: mockEnv(server.url, home),
    });
    expect(code).toBe(0);
    expect(stderr).toContain(
      'yoke: warning: --allowedTools: allow rule "Bsah(npm test)" names no tool Yoke has (did you mean ' +
        'Bash?); it allows nothing',
    );
    expect(stderr).toContain('To allow it, add "Bash(npm test)" to permissions.allow');
  });

  it('a rule the shell split at its space stops before any request, showing it quoted', async () => {
    server.reset(runTests);
    const { code, stderr } = await runYoke(['-p', 'run the tests', '--allowedTools', 'Bash(npm', 'test)'], {
      cwd,
      env: mockEnv(server.url, home),
    });
    expect(code).toBe(1);
    expect(stderr).toBe(
      'yoke: --allowedTools "Bash(npm" is cut off at a space: the shell split the rule into words. Quote it ' +
        'as one argument: --allowedTools "Bash(npm test)".\n',
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe('help for the first commands', () => {
  it('`yoke mcp add --help` shows how to add a server; `yoke --help` lists doctor', async () => {
    const add = await runYoke(['mcp', 'add', '--help'], { cwd, env: mockEnv(server.url, home) });
    expect({ code: add.code, stderr: add.stderr }).toEqual({ code: 0, stderr: '' });
    expect(add.stdout).toMatch(
      /^Usage: yoke mcp add \[-s local\|project\|user\] \[-t stdio\|http\|sse\] .* <name> <command-or-url> \[args\.\.\.\]\n/,
    );
    const help = await runYoke(['--help'], { cwd, env: mockEnv(server.url, home) });
    expect(help.stdout).toMatch(
      /^ {2}yoke doctor \[--model m\] \[--provider p\] +check Node\.js, ripgrep, git, the model API and key, settings, tools, the sandbox$/m,
    );
    expect(help.stdout).toMatch(/^ {2}ANTHROPIC_MODEL +the Anthropic model without --model/m);
  });
});
