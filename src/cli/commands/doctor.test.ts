import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../testing/mock-server';
import { runDoctor } from './doctor';
import { commandWorkspace } from './test-support';

let server: MockServer;
let ws: Awaited<ReturnType<typeof commandWorkspace>>;

beforeAll(async () => {
  server = await startMockServer({ scenario: [] });
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  ws = await commandWorkspace('yoke-doctor-');
  server.reset([]);
});
afterEach(async () => {
  await rm(ws.root, { recursive: true, force: true });
});

async function doctor(args: string[], env: Record<string, string> = {}) {
  const lines: string[] = [];
  const code = await runDoctor(args, {
    cwd: ws.cwd,
    env: { ...ws.env, ...env },
    print: (l) => lines.push(l),
  });
  return { code, report: lines.join('\n') };
}

const apiLine = (report: string) => report.split('\n').find((line) => line.includes(' API '));

describe('yoke doctor', () => {
  it('on a fresh machine without a key, reports what to set and exits 1 instead of failing to start', async () => {
    const { code, report } = await doctor([]);
    expect(code).toBe(1);
    expect(apiLine(report)).toBe(
      '✗ API       anthropic: No API key found: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN) for Anthropic, ' +
        'OPENAI_API_KEY for OpenAI, or OPENAI_BASE_URL for a local OpenAI-compatible server (Ollama: ' +
        'http://localhost:11434/v1), which needs no key.',
    );
    expect(report).toMatch(/^✓ Node\.js /m);
    expect(report).toMatch(/checks need attention\.$/);
    expect(server.requests).toHaveLength(0);
  });

  it('asks the model a run would ask, over HTTP, with the key from the settings env', async () => {
    server.reset([{ reply: { content: [{ type: 'text', text: 'pong' }] } }]);
    const yokeHome = join(ws.root, '.yoke');
    await mkdir(yokeHome, { recursive: true });
    await writeFile(
      join(yokeHome, 'settings.json'),
      JSON.stringify({ env: { ANTHROPIC_API_KEY: 'sk-ant-doctor', ANTHROPIC_BASE_URL: server.url } }),
    );
    const { report } = await doctor(['--model', 'opus']);
    expect(apiLine(report)).toMatch(/^✓ API {7}anthropic answered for claude-opus-5-5 in \d+ ms$/);
    expect(server.requests[0]?.headers['x-api-key']).toBe('sk-ant-doctor');
  });

  it('reports a model choice that cannot work as the API finding', async () => {
    const { code, report } = await doctor(['--provider', 'openai', '--model', 'haiku'], {
      OPENAI_BASE_URL: `${server.url}/v1`,
    });
    expect(code).toBe(1);
    expect(apiLine(report)).toMatch(
      /^✗ API {7}openai: --model haiku: "haiku" is Yoke's alias for Anthropic's/,
    );
    expect(server.requests).toHaveLength(0);
  });

  it('takes no prompt', async () => {
    await expect(doctor(['hello'])).rejects.toThrow('yoke doctor takes no prompt (got "hello").');
  });
});
