/**
 * The three output formats of `yoke -p`, frame by frame against the key sets of the real CLI's
 * captures (sample-frames.ts), through the built binary and the mock model server.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import { mockEnv, runYoke, tempProject } from './helpers';
import { type Frame, frameKind, missingSampleKeys } from './sample-frames';

let server: MockServer;
let home: string;
let cwd: string;

beforeAll(async () => {
  server = await startMockServer({ scenario: [] });
  home = await tempProject('yoke-home-');
  cwd = await tempProject();
  await writeFile(join(cwd, 'hello.txt'), 'hello from the file\n');
});
afterAll(async () => {
  await server.close();
});

/** Reads hello.txt, then answers "done" (the shape of the samples' read-tool run). */
function readToolScenario() {
  server.reset([
    {
      reply: {
        content: [
          { type: 'text', text: 'Reading the file.' },
          { type: 'tool_use', id: 'toolu_read1', name: 'Read', input: { file_path: 'hello.txt' } },
        ],
      },
    },
    {
      match: { lastToolResultContains: 'hello from the file' },
      reply: { content: [{ type: 'text', text: 'done' }] },
    },
  ]);
}

const yoke = (args: string[]) =>
  runYoke(['-p', 'read hello.txt', ...args], { cwd, env: mockEnv(server.url, home) });

function lines(stdout: string): Frame[] {
  expect(stdout.endsWith('\n')).toBe(true);
  return stdout
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as Frame);
}

describe('--output-format text', () => {
  it('prints only the final assistant text', async () => {
    readToolScenario();
    const { code, stdout, stderr } = await yoke([]);
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: 'done\n', stderr: '' });
  });
});

describe('--output-format json', () => {
  it('prints one result object with every field of the sample', async () => {
    readToolScenario();
    const { code, stdout, stderr } = await yoke(['--output-format', 'json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const [result] = lines(stdout);
    expect(result).toMatchObject({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'done',
      num_turns: 2,
      stop_reason: 'end_turn',
      terminal_reason: 'completed',
      permission_denials: [],
      api_error_status: null,
    });
    expect(missingSampleKeys(result!)).toEqual([]);
    expect(result!.total_cost_usd).toBeGreaterThan(0);
  });

  it('prints every message of the run as an array with --verbose', async () => {
    readToolScenario();
    const { code, stdout } = await yoke(['--output-format=json', '--verbose']);
    expect(code).toBe(0);
    const messages = JSON.parse(stdout) as Frame[];
    expect(Array.isArray(messages)).toBe(true);
    expect(messages.map(frameKind)).toEqual([
      'system/init',
      'assistant',
      'assistant',
      'user',
      'assistant',
      'result',
    ]);
    for (const message of messages) expect(missingSampleKeys(message)).toEqual([]);
  });
});

describe('--output-format stream-json', () => {
  it('writes one frame per line with the fields of the samples, and exactly one result', async () => {
    readToolScenario();
    const { code, stdout, stderr } = await yoke(['--output-format', 'stream-json', '--verbose']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const frames = lines(stdout);
    expect(frames.map(frameKind)).toEqual([
      'system/init',
      'assistant',
      'assistant',
      'user',
      'assistant',
      'result',
    ]);
    for (const frame of frames) expect(missingSampleKeys(frame)).toEqual([]);

    const [init, text, toolUse, toolResult, , result] = frames;
    const sessionId = init!.session_id;
    expect(frames.every((f) => f.session_id === sessionId && typeof f.uuid === 'string')).toBe(true);
    expect(new Set(frames.map((f) => f.uuid)).size).toBe(frames.length);
    expect(init).toMatchObject({ cwd, permissionMode: 'default', apiKeySource: 'ANTHROPIC_API_KEY' });
    expect(init!.tools).toContain('Read');
    // Blocks of one response are separate frames sharing the message id.
    expect((text!.message as Frame).id).toBe((toolUse!.message as Frame).id);
    expect(toolUse).toMatchObject({ parent_tool_use_id: null, message: { content: [{ type: 'tool_use' }] } });
    expect(toolResult).toMatchObject({
      parent_tool_use_id: null,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_read1' }] },
      tool_use_result: { type: 'text', file: { content: expect.stringContaining('hello from the file') } },
    });
    expect(result).toMatchObject({ subtype: 'success', result: 'done', num_turns: 2 });
  });

  it('requires --verbose with -p', async () => {
    const { code, stdout, stderr } = await yoke(['--output-format', 'stream-json']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe('yoke: When using --print, --output-format=stream-json requires --verbose.\n');
  });

  it('emits stream_event frames in the real order with --include-partial-messages', async () => {
    readToolScenario();
    const { code, stdout } = await yoke([
      '--output-format=stream-json',
      '--verbose',
      '--include-partial-messages',
    ]);
    expect(code).toBe(0);
    const frames = lines(stdout);
    for (const frame of frames) expect(missingSampleKeys(frame)).toEqual([]);
    const trace: string[] = [];
    for (const frame of frames) {
      const kind = frameKind(frame);
      if (kind !== 'stream_event') {
        const block = ((frame.message as Frame | undefined)?.content as Frame[] | undefined)?.[0];
        trace.push(kind === 'assistant' ? `assistant:${block?.type}` : kind);
        continue;
      }
      const event = frame.event as Frame;
      const name = `${event.type}${event.index === undefined ? '' : `:${event.index}`}`;
      if (trace.at(-1) !== name) trace.push(name); // collapse runs of deltas
    }
    expect(trace).toEqual([
      'system/init',
      'message_start',
      'content_block_start:0',
      'content_block_delta:0',
      'assistant:text',
      'content_block_stop:0',
      'content_block_start:1',
      'content_block_delta:1',
      'assistant:tool_use',
      'content_block_stop:1',
      'message_delta',
      'message_stop',
      'user',
      'message_start',
      'content_block_start:0',
      'content_block_delta:0',
      'assistant:text',
      'content_block_stop:0',
      'message_delta',
      'message_stop',
      'result',
    ]);
    const streamEvents = frames.filter((f) => f.type === 'stream_event');
    const firstId = ((streamEvents[0]!.event as Frame).message as Frame).id;
    expect(streamEvents[1]).toMatchObject({ api_message_id: firstId, parent_tool_use_id: null });
  });

  it('reports a refused tool as permission_denied, an error tool result, and in the result', async () => {
    server.reset([
      {
        reply: {
          content: [
            { type: 'tool_use', id: 'w1', name: 'Write', input: { file_path: 'x.txt', content: 'x' } },
          ],
        },
      },
      {
        match: { lastToolResultContains: 'Write' },
        reply: { content: [{ type: 'text', text: 'not allowed' }] },
      },
    ]);
    const { code, stdout } = await yoke(['--output-format', 'stream-json', '--verbose']);
    expect(code).toBe(0);
    const frames = lines(stdout);
    expect(frames.map(frameKind)).toEqual([
      'system/init',
      'assistant',
      'system/permission_denied',
      'user',
      'assistant',
      'result',
    ]);
    for (const frame of frames) expect(missingSampleKeys(frame)).toEqual([]);
    expect(frames[2]).toMatchObject({ tool_name: 'Write', tool_use_id: 'w1' });
    expect(frames[3]).toMatchObject({
      message: { content: [{ type: 'tool_result', is_error: true }] },
      tool_use_result: expect.stringMatching(/^Error: Permission for Write/),
    });
    expect(frames[5]!.permission_denials).toEqual([
      { tool_name: 'Write', tool_use_id: 'w1', tool_input: { file_path: 'x.txt', content: 'x' } },
    ]);
  });
});

describe('error results', () => {
  const loop = () =>
    server.reset([
      {
        reply: { content: [{ type: 'tool_use', name: 'Glob', input: { pattern: '*.txt' } }] },
        repeat: 'forever',
      },
    ]);

  it('text: one stderr line and exit 1', async () => {
    loop();
    const { code, stdout, stderr } = await yoke(['--max-turns', '1']);
    expect({ code, stdout, stderr }).toEqual({
      code: 1,
      stdout: '',
      stderr: 'yoke: Reached maximum number of turns (1)\n',
    });
  });

  it('json: the error result on stdout and exit 1', async () => {
    loop();
    const { code, stdout } = await yoke(['--max-turns=1', '--output-format=json']);
    expect(code).toBe(1);
    const [result] = lines(stdout);
    expect(result).toMatchObject({
      subtype: 'error_max_turns',
      is_error: true,
      errors: ['Reached maximum number of turns (1)'],
      terminal_reason: 'max_turns',
    });
    expect(missingSampleKeys({ ...result!, result: '' })).toEqual([]);
  });

  it('stream-json: an API error ends in an error result line and exit 1', async () => {
    server.reset([{ fault: { type: 'http', status: 400, message: 'bad request body' } }]);
    const { code, stdout } = await yoke(['--output-format=stream-json', '--verbose']);
    expect(code).toBe(1);
    const frames = lines(stdout);
    expect(frames.filter((f) => f.type === 'result')).toHaveLength(1);
    expect(frames.at(-1)).toMatchObject({ type: 'result', is_error: true, api_error_status: 400 });
    expect((frames.at(-1)!.errors as string[])[0]).toContain('bad request body');
  });
});
