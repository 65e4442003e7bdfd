/**
 * An Agent SDK session against the built CLI and the mock model server, driven one prompt at a
 * time: `turn(text)` sends a prompt and resolves with its result, and every `system/init` is kept
 * for the test to read. For the reload tests (sdk-reload*.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Options, query, type SDKMessage, type SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import { afterEach } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import type { ScenarioInput } from '../../src/testing/mock-server/scenario';
import { sdkEnv, tempProject, YOKE_BIN } from './helpers';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A prompt stream the test feeds one user message at a time. */
function promptQueue() {
  const waiting: Array<(message: IteratorResult<SDKUserMessage>) => void> = [];
  const ready: IteratorResult<SDKUserMessage>[] = [];
  const put = (item: IteratorResult<SDKUserMessage>) => {
    const take = waiting.shift();
    if (take) take(item);
    else ready.push(item);
  };
  return {
    say: (text: string) =>
      put({
        done: false,
        value: {
          type: 'user',
          message: { role: 'user', content: text },
          parent_tool_use_id: null,
          session_id: '',
        },
      }),
    end: () => put({ done: true, value: undefined }),
    stream: {
      [Symbol.asyncIterator]: () => ({
        next: () =>
          new Promise<IteratorResult<SDKUserMessage>>((resolve) => {
            const item = ready.shift();
            if (item) resolve(item);
            else waiting.push(resolve);
          }),
      }),
    },
  };
}

export const say = (text: string) => ({ reply: { content: [{ type: 'text' as const, text }] } });
export const call = (name: string, input: Record<string, unknown>) => ({
  reply: { content: [{ type: 'tool_use' as const, id: `t-${name}`, name, input }] },
});

/**
 * A turn that stays running until the test says so: the model's Bash call reads a FIFO, which
 * `open()` writes to. `started` resolves once the model has made that call.
 */
export async function bashGate() {
  const cwd = await tempProject();
  const fifo = join(cwd, 'gate');
  execFileSync('mkfifo', [fifo]);
  let bashStarted: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    bashStarted = resolve;
  });
  return {
    cwd,
    started,
    call: call('Bash', { command: `cat ${fifo}` }),
    onToolCall: (name: string) => {
      if (name === 'Bash') bashStarted();
    },
    open: () => writeFile(fifo, 'open\n'),
  };
}

type InitMessage = Extract<SDKMessage, { type: 'system'; subtype: 'init' }>;

export async function sdkSession(
  input: {
    scenario?: ScenarioInput;
    onToolCall?: (name: string) => void;
    cwd?: string;
    home?: string;
    /** More of the SDK's options (plugins, hooks, …). */
    options?: Options;
  } = {},
) {
  server = await startMockServer({ scenario: input.scenario ?? [say('first'), say('second')] });
  const cwd = input.cwd ?? (await tempProject());
  const prompts = promptQueue();
  const q = query({
    prompt: prompts.stream,
    options: {
      pathToClaudeCodeExecutable: YOKE_BIN,
      cwd,
      env: sdkEnv(server.url, input.home ?? (await tempProject('yoke-home-'))),
      allowedTools: ['Bash(cat:*)'],
      ...input.options,
    },
  });
  // Each turn's `result` settles the wait of the prompt that started it.
  const pending: Array<(result: SDKMessage) => void> = [];
  /** Each turn's `system/init`, in order. */
  const inits: InitMessage[] = [];
  const drained = (async () => {
    for await (const message of q) {
      if (message.type === 'result') pending.shift()?.(message);
      if (message.type === 'system' && message.subtype === 'init') inits.push(message);
      if (message.type !== 'assistant' || message.parent_tool_use_id !== null) continue;
      for (const block of message.message.content)
        if (block.type === 'tool_use') input.onToolCall?.(block.name);
    }
  })();
  /** Sends a prompt and waits for its result. */
  const turn = (text: string) =>
    new Promise<SDKMessage>((resolve) => {
      pending.push(resolve);
      prompts.say(text);
    });
  const live = () => {
    if (!server) throw new Error('the session has ended');
    return server;
  };
  /** The body of the model request at `index`, as the mock server received it. */
  const request = (index: number) => (live().requests[index]?.body ?? {}) as { tools?: { name: string }[] };
  const requestText = (index: number) => JSON.stringify(live().requests[index]?.body ?? 'no request');
  const finish = () => {
    prompts.end();
    return drained;
  };
  return {
    q,
    cwd,
    turn,
    request,
    requestText,
    finish,
    inits,
    slashCommands: () => inits.map((init) => init.slash_commands),
  };
}
