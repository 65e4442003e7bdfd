/** /cost, /context and /status from the host's snapshots. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { estimateTextTokens } from '../../model/tokens';
import { createToolResultMessage, createUserMessage } from '../../session/messages';
import { commandText, createTestHost, type TestHost } from '../test-host';

let host: TestHost;
beforeEach(async () => {
  host = await createTestHost();
});
afterEach(() => host.cleanup());

const textOf = (line: string) => commandText(host, line);

describe('/cost', () => {
  it('shows dollars, requests, durations and tokens by model', async () => {
    const usage = {
      inputTokens: 1200,
      outputTokens: 340,
      cacheReadInputTokens: 5000,
      cacheCreationInputTokens: 0,
    };
    host.costSnapshot = {
      usage,
      costUsd: 0.0123,
      apiDurationMs: 4200,
      requests: 3,
      sessionDurationMs: 125_000,
      byModel: {
        'claude-sonnet-5-5': {
          ...usage,
          webSearchRequests: 0,
          costUSD: 0.0123,
          contextWindow: 200_000,
          maxOutputTokens: 64_000,
        },
      },
    };
    const text = await textOf('/cost');
    expect(text).toContain('Total cost:        $0.0123');
    expect(text).toContain('API requests:      3 (4s waiting for the API)');
    expect(text).toContain('Session duration:  2m 5s');
    expect(text).toContain('1,200 in, 340 out, 5,000 cache read, 0 cache write');
    expect(text).toContain('claude-sonnet-5-5: $0.0123');
  });

  it("after a resume, totals the session with its earlier runs and labels this run's lines", async () => {
    host.costSnapshot = {
      ...host.costSnapshot,
      costUsd: 0.01,
      requests: 1,
      sessionDurationMs: 3000,
      earlier: {
        costUsd: 0.25,
        requests: 2,
        usage: { inputTokens: 900, outputTokens: 80, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
      },
    };
    expect(await textOf('/cost')).toBe(
      [
        'Total cost:        $0.2600 for the whole session',
        '  earlier runs:    $0.2500 — 2 API requests; 900 in, 80 out, 0 cache read, 0 cache write',
        '  this run:        $0.0100',
        'API requests:      1 this run (0s waiting for the API)',
        'Session duration:  3s this run',
        'Tokens:            0 in, 0 out, 0 cache read, 0 cache write this run',
      ].join('\n'),
    );
  });
});

describe('/context', () => {
  it('splits the window into system prompt, tools, memory, messages and tool results', async () => {
    const memory = 'Run the tests with npm test. '.repeat(40);
    host.contextSources = {
      systemPrompt: ['You are a coding agent. '.repeat(50), `# Instructions\n${memory}`],
      tools: [{ name: 'Read', description: 'Reads a file. '.repeat(10), input_schema: { type: 'object' } }],
      memoryFiles: [{ path: '/p/AGENTS.md', content: memory }],
      messages: [
        createUserMessage('please read the file'),
        createToolResultMessage({ type: 'tool_result', tool_use_id: 't1', content: 'line\n'.repeat(2000) }),
      ],
      lastRequestInputTokens: 4321,
    };
    const text = await textOf('/context');
    const row = (label: string) => {
      const line = text.split('\n').find((l) => l.trimStart().startsWith(label));
      if (!line) throw new Error(`no ${label} row in\n${text}`);
      return Number((/([\d,]+)\s+[\d.]+%$/.exec(line)?.[1] ?? '').replace(/,/g, ''));
    };
    expect(row('Memory files')).toBe(estimateTextTokens(memory));
    // The memory sits inside the system prompt but is counted once, under its own name.
    expect(row('System prompt')).toBeLessThan(estimateTextTokens('You are a coding agent. '.repeat(50)) + 10);
    expect(row('Tool results')).toBeGreaterThan(row('Messages'));
    expect(row('Tool definitions')).toBeGreaterThan(0);
    expect(text).toContain('the provider counted 4,321 input tokens for the last request');
    expect(text).toContain('/p/AGENTS.md');
    expect(text).toMatch(/^Context: [\d,]+ of 1,000,000 tokens \([\d.]+%\) — claude-sonnet-5-5/);
  });

  it('before the first request says the system prompt is not counted yet, rather than 0', async () => {
    host.contextSources = {
      systemPrompt: [],
      tools: [{ name: 'Read', description: 'Reads a file.', input_schema: { type: 'object' } }],
      memoryFiles: [],
      messages: [],
    };
    const text = await textOf('/context');
    expect(text).toMatch(/^ {2}System prompt +not counted yet: it is built for the first request$/m);
    expect(text).toContain('no request has been made yet');
  });
});

describe('/status', () => {
  it('shows the session, model, mode, folders and settings problems', async () => {
    host.setPermissionMode('acceptEdits');
    host.problems.errors.push('settings /x/.yoke/settings.json: "permissions.allow" must be a list');
    const text = await textOf('/status');
    expect(text).toContain(`Session:          ${host.sessionId}`);
    expect(text).toContain('Permission mode:  acceptEdits');
    expect(text).toContain(
      '(not trusted: project allow rules are ignored, and in the interactive UI its hooks too)',
    );
    expect(text).toContain('error: settings /x/.yoke/settings.json: "permissions.allow" must be a list');
  });
});
