import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { SDKMessage } from '../engine/sdk-messages';
import type { UserContentBlock } from '../model/types';
import { SDK_IDENTITY_PROMPT } from './initialize';
import { runStreamJsonSession } from './session';
import type { SessionEngine, StreamJsonEngineExtras } from './types';

// Protocol lines are read loosely here: each assertion states the shape it expects.
// biome-ignore lint/suspicious/noExplicitAny: test lines are arbitrary JSON.
type Line = Record<string, any>;

const promptText = (prompt: string | UserContentBlock[]) =>
  typeof prompt === 'string' ? prompt : prompt.map((b) => (b.type === 'text' ? b.text : '')).join('|');

/**
 * A scripted engine: echoes the prompt; "slow" waits for an interrupt; "fail" ends in an error.
 * Prompts folded into a running turn are held and never read, so they come back after it.
 */
function scriptedEngine(seen: { prompt: string; clientUuid?: string }[]): SessionEngine {
  let folded: { content: string | UserContentBlock[]; clientUuid?: string }[] = [];
  const engine = {
    enqueuePrompt(content: string | UserContentBlock[], options: { clientUuid?: string } = {}) {
      folded.push({ content, ...options });
    },
    takeQueuedPrompts() {
      const taken = folded;
      folded = [];
      return taken;
    },
    queuedPromptIds: () => folded.flatMap((p) => (p.clientUuid ? [p.clientUuid] : [])),
    sessionId: 'sess-1',
    currentModel: 'model-a',
    permissionMode: 'default',
    setModel(model: string) {
      engine.currentModel = model;
    },
    setPermissionMode(mode: string) {
      engine.permissionMode = mode;
    },
    interrupt() {},
    async *submitMessage(
      prompt: string | UserContentBlock[],
      options: { clientUuid?: string; signal?: AbortSignal },
    ) {
      const text = promptText(prompt);
      seen.push({ prompt: text, ...(options.clientUuid ? { clientUuid: options.clientUuid } : {}) });
      yield {
        type: 'system',
        subtype: 'init',
        model: engine.currentModel,
        permissionMode: engine.permissionMode,
      } as never;
      if (text.includes('slow')) {
        yield { type: 'assistant', message: { content: [{ type: 'text', text: 'partial' }] } } as never;
        await new Promise((resolve) => options.signal?.addEventListener('abort', resolve, { once: true }));
        yield {
          type: 'result',
          subtype: 'error_during_execution',
          is_error: true,
          errors: ['interrupted'],
        } as never;
        return;
      }
      if (text.includes('fail')) {
        yield { type: 'result', subtype: 'error_max_turns', is_error: true, errors: ['max'] } as never;
        return;
      }
      yield { type: 'result', subtype: 'success', is_error: false, result: `echo: ${text}` } as SDKMessage;
    },
  };
  return engine as unknown as SessionEngine;
}

function start(
  options: {
    cliOptions?: Record<string, unknown>;
    env?: Record<string, string>;
    engineError?: string;
    stop?: AbortSignal;
  } = {},
) {
  const stdin = new PassThrough();
  const lines: Line[] = [];
  let stderr = '';
  const waiters: { test: (l: Line) => boolean; resolve: (l: Line) => void }[] = [];
  let buffered = '';
  const stdout = new Writable({
    write(chunk, _encoding, done) {
      buffered += String(chunk);
      for (let i = buffered.indexOf('\n'); i >= 0; i = buffered.indexOf('\n')) {
        const line = JSON.parse(buffered.slice(0, i)) as Line;
        buffered = buffered.slice(i + 1);
        lines.push(line);
        for (const w of waiters.filter((w) => w.test(line))) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
      done();
    },
  });
  const stderrStream = new Writable({
    write(chunk, _e, done) {
      stderr += String(chunk);
      done();
    },
  });
  const seen: { prompt: string; clientUuid?: string }[] = [];
  const created: StreamJsonEngineExtras[] = [];
  const done = runStreamJsonSession({
    cliOptions: options.cliOptions ?? {},
    createEngine: async (engineOptions) => {
      created.push(engineOptions);
      if (options.engineError) throw new Error(options.engineError);
      return { engine: scriptedEngine(seen) };
    },
    stdin,
    stdout,
    stderr: stderrStream,
    env: options.env ?? {},
    ...(options.stop ? { stop: options.stop } : {}),
  });
  return {
    send: (message: Line) => stdin.write(`${JSON.stringify(message)}\n`),
    sendRaw: (text: string) => stdin.write(text),
    end: () => stdin.end(),
    waitFor: (test: (l: Line) => boolean) =>
      new Promise<Line>((resolve) => {
        const found = lines.find(test);
        if (found) resolve(found);
        else waiters.push({ test, resolve });
      }),
    lines,
    seen,
    created,
    stderr: () => stderr,
    done,
  };
}

const user = (text: string, extra: Line = {}) => ({
  type: 'user',
  session_id: '',
  message: { role: 'user', content: [{ type: 'text', text }] },
  parent_tool_use_id: null,
  ...extra,
});
const control = (id: string, request: Line) => ({ type: 'control_request', request_id: id, request });
const summary = (l: Line) =>
  l.type === 'control_response'
    ? `response:${l.response.request_id}`
    : l.subtype === 'session_state_changed'
      ? `state:${l.state}`
      : `${l.type}${l.subtype ? `/${l.subtype}` : ''}`;

describe('runStreamJsonSession', () => {
  it('answers initialize, runs the turn, and exits 0 at EOF', async () => {
    const s = start();
    s.send(control('init-1', { subtype: 'initialize', systemPrompt: [''] }));
    s.send(user('hello', { uuid: 'u-1' }));
    await s.waitFor((l) => l.type === 'result');
    s.end();
    expect(await s.done).toBe(0);
    expect(s.lines.map(summary)).toEqual([
      'response:init-1',
      'state:running',
      'system/init',
      'result/success',
      'state:idle',
    ]);
    expect(s.created[0]?.systemPromptOverride).toBe(SDK_IDENTITY_PROMPT);
    expect(s.seen).toEqual([{ prompt: 'hello', clientUuid: 'u-1' }]);
    expect(s.lines[0]?.response.response).toMatchObject({ commands: [], models: expect.any(Array) });
    // Which models take effort, and which levels: what the SDK's supportedModels() reports.
    const answer = s.lines[0]?.response.response as { models: Record<string, unknown>[] } | undefined;
    const models = answer?.models ?? [];
    expect(models.find((m) => m.value === 'claude-opus-4-5')).toMatchObject({
      supportsEffort: true,
      supportedEffortLevels: ['low', 'medium', 'high'],
    });
    expect(models.find((m) => m.value === 'claude-sonnet-4-5')).toMatchObject({ supportsEffort: false });
    expect(models.find((m) => m.value === 'claude-sonnet-4-5')).not.toHaveProperty('supportedEffortLevels');
  });

  it('runs several turns in order; shouldQuery:false content rides with the next turn', async () => {
    const s = start();
    s.send(user('first'));
    s.send(user('note', { shouldQuery: false }));
    s.send(user('second'));
    s.end();
    expect(await s.done).toBe(0);
    expect(s.seen.map((t) => t.prompt)).toEqual(['first', 'note|second']);
    expect(s.lines.filter((l) => l.type === 'result').map((l) => l.result)).toEqual([
      'echo: first',
      'echo: note|second',
    ]);
    // Without initialize the engine is built with Yoke's own prompt.
    expect(s.created[0]?.systemPromptOverride).toBeUndefined();
  });

  it('interrupt mid-turn: the receipt comes first, then the aborted result; exit 1', async () => {
    const s = start();
    s.send(user('be slow'));
    await s.waitFor((l) => l.type === 'assistant');
    s.send(control('int-1', { subtype: 'interrupt' }));
    await s.waitFor((l) => l.type === 'result');
    s.end();
    expect(await s.done).toBe(1);
    const order = s.lines.map(summary);
    expect(order.slice(order.indexOf('assistant'))).toEqual([
      'assistant',
      'response:int-1',
      'result/error_during_execution',
      'state:idle',
    ]);
    expect(s.lines.find((l) => l.type === 'control_response')?.response.response).toEqual({
      still_queued: [],
    });
  });

  it("hands a priority 'next' prompt to the running turn; one the turn did not read runs next", async () => {
    const s = start();
    s.send(user('be slow'));
    await s.waitFor((l) => l.type === 'assistant');
    s.send(user('also this', { priority: 'next', uuid: 'u-2' }));
    s.send(user('later', { uuid: 'u-3' }));
    s.send(control('int-1', { subtype: 'interrupt' }));
    const receipt = await s.waitFor((l) => l.type === 'control_response');
    expect(receipt.response.response).toEqual({ still_queued: ['u-2', 'u-3'] });
    await s.waitFor((l) => l.type === 'result' && l.result === 'echo: later');
    s.end();
    await s.done;
    expect(s.seen).toEqual([
      { prompt: 'be slow' },
      { prompt: 'also this', clientUuid: 'u-2' },
      { prompt: 'later', clientUuid: 'u-3' },
    ]);
  });

  it('interrupt with cancel_queued also cancels a prompt held by the running turn', async () => {
    const s = start();
    s.send(user('be slow'));
    await s.waitFor((l) => l.type === 'assistant');
    s.send(user('also this', { priority: 'next', uuid: 'u-2' }));
    s.send(control('int-1', { subtype: 'interrupt', cancel_queued: true }));
    const receipt = await s.waitFor((l) => l.type === 'control_response');
    expect(receipt.response.response).toEqual({ still_queued: [], cancelled: ['u-2'] });
    await s.waitFor((l) => l.type === 'result');
    s.end();
    await s.done;
    expect(s.seen.map((t) => t.prompt)).toEqual(['be slow']);
  });

  it('a stop (a signal) interrupts the running turn, drops the queued ones and stops reading stdin', async () => {
    const stop = new AbortController();
    const s = start({ stop: stop.signal });
    s.send(user('be slow'));
    await s.waitFor((l) => l.type === 'assistant');
    s.send(user('queued behind it'));
    // Lines are handled in order: once this is answered, the queued turn is in the queue.
    s.send(control('m', { subtype: 'set_model', model: 'model-b' }));
    await s.waitFor((l) => l.type === 'control_response');
    stop.abort();
    // stdin is never ended by the host here: the session ends by itself.
    expect(await s.done).toBe(1);
    expect(s.seen.map((t) => t.prompt)).toEqual(['be slow']);
    const order = s.lines.map(summary);
    expect(order.slice(order.indexOf('assistant'))).toEqual([
      'assistant',
      'response:m',
      'result/error_during_execution',
      'state:idle',
    ]);
  });

  it('the end of stdin is not a stop: queued turns still run', async () => {
    const s = start();
    s.send(user('first'));
    s.send(user('second'));
    s.end();
    expect(await s.done).toBe(0);
    expect(s.seen.map((t) => t.prompt)).toEqual(['first', 'second']);
  });

  it('answers control requests while a turn runs, and refuses unknown subtypes', async () => {
    const s = start();
    s.send(user('be slow'));
    await s.waitFor((l) => l.type === 'assistant');
    s.send(control('m', { subtype: 'set_model', model: 'model-b' }));
    s.send(control('p', { subtype: 'set_permission_mode', mode: 'plan' }));
    s.send(control('x', { subtype: 'rewind_files', user_message_id: 'u' }));
    const refused = await s.waitFor((l) => l.type === 'control_response' && l.response.request_id === 'x');
    expect(refused.response).toEqual({
      subtype: 'error',
      request_id: 'x',
      error: 'Unsupported control request subtype: rewind_files',
    });
    expect(s.lines.find((l) => l.response?.request_id === 'm')?.response.response).toEqual({
      model: 'model-b',
    });
    expect(s.lines.find((l) => l.response?.request_id === 'p')?.response.response).toEqual({ mode: 'plan' });
    s.send(control('i', { subtype: 'interrupt' }));
    s.send(user('again'));
    s.end();
    expect(await s.done).toBe(0);
    const inits = s.lines.filter((l) => l.subtype === 'init');
    expect(inits[1]).toMatchObject({ model: 'model-b', permissionMode: 'plan' });
  });

  it('survives malformed lines and unknown types, saying so on stderr', async () => {
    const s = start();
    s.sendRaw('this is not json\n\n');
    s.send({ type: 'mystery' });
    s.send({ type: 'keep_alive' });
    s.send({
      type: 'control_response',
      response: { subtype: 'success', request_id: 'never-asked', response: {} },
    });
    s.send(user('still here'));
    s.end();
    expect(await s.done).toBe(0);
    expect(s.stderr()).toContain('ignored a stdin line that is not valid JSON');
    expect(s.stderr()).toContain('unknown type "mystery"');
    expect(s.lines.find((l) => l.type === 'result')?.result).toBe('echo: still here');
  });

  it('exits 1 when the last result was an error; interrupt with no turn is a plain success', async () => {
    const s = start();
    s.send(control('i', { subtype: 'interrupt' }));
    s.send(user('fail please'));
    s.end();
    expect(await s.done).toBe(1);
    expect(s.lines.find((l) => l.response?.request_id === 'i')?.response.response).toEqual({});
  });

  it('tags state frames sdk_host_only when the host reads session state', async () => {
    const s = start({ env: { CLAUDE_CODE_SDK_READS_SESSION_STATE: '1' } });
    s.send(user('hi'));
    s.end();
    await s.done;
    const states = s.lines.filter((l) => l.subtype === 'session_state_changed');
    expect(states.map((l) => [l.state, l.sdk_host_only, l.session_id])).toEqual([
      ['running', true, 'sess-1'],
      ['idle', true, 'sess-1'],
    ]);
  });

  it('does not answer a request the host withdrew with control_cancel_request', async () => {
    const s = start();
    // Both arrive before the engine exists, so the initialize answer is still being prepared.
    s.send(control('init-1', { subtype: 'initialize' }));
    s.send({ type: 'control_cancel_request', request_id: 'init-1' });
    s.send(user('hi'));
    s.end();
    expect(await s.done).toBe(0);
    expect(s.lines.some((l) => l.type === 'control_response')).toBe(false);
  });

  it('hands the stdio permission prompt and hook callbacks to the engine only when asked for', async () => {
    const s = start({ cliOptions: { permissionPromptTool: 'stdio' } });
    s.send(
      control('init', { subtype: 'initialize', hooks: { PreToolUse: [{ hookCallbackIds: ['hook_0'] }] } }),
    );
    s.end();
    await s.done;
    expect(typeof s.created[0]?.permissionPrompt).toBe('function');
    expect(s.created[0]?.sdkHooks?.matchers).toEqual([{ event: 'PreToolUse', callbackIds: ['hook_0'] }]);
    const plain = start();
    plain.send(user('hi'));
    plain.end();
    await plain.done;
    expect(plain.created[0]?.permissionPrompt).toBeUndefined();
    expect(plain.created[0]?.sdkHooks).toBeUndefined();
  });

  it('ends with exit 1 and the reason on stderr when no engine can be built', async () => {
    const s = start({ engineError: 'no API key: set ANTHROPIC_API_KEY' });
    s.send(control('init', { subtype: 'initialize' }));
    s.send(user('hi'));
    expect(await s.done).toBe(1);
    expect(s.stderr()).toBe('yoke: no API key: set ANTHROPIC_API_KEY\n');
    expect(s.lines.map(summary)).toEqual(['response:init']);
    expect(s.lines[0]?.response).toMatchObject({
      subtype: 'error',
      error: 'no API key: set ANTHROPIC_API_KEY',
    });
  });
});
