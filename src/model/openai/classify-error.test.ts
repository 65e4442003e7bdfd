import { describe, expect, it } from 'vitest';
import {
  AbortedError,
  AuthError,
  ConnectionError,
  InvalidRequestError,
  MediaError,
  type ModelError,
  ModelNotFoundError,
  OverloadedError,
  PromptTooLongError,
  RateLimitError,
  ServerError,
} from '../errors';
import { classifyOpenAIError } from './classify-error';
import { chunk, run } from './scripted-fetch.fixture';

const errorBody = (message: string, extra: Record<string, unknown> = {}) => ({
  error: { message, type: 'invalid_request_error', param: null, code: null, ...extra },
});

async function failWith(status: number, body: unknown, headers?: Record<string, string>) {
  const { error, events } = await run({ kind: 'error', status, body, ...(headers ? { headers } : {}) });
  expect(events).toEqual([]);
  return error;
}

describe('classifyOpenAIError through the SDK', () => {
  it.each([401, 403])('%i is an AuthError with status, request id and a readable message', async (status) => {
    const error = await failWith(status, errorBody('Incorrect API key provided: sk-bad.'));
    expect(error).toBeInstanceOf(AuthError);
    const e = error as AuthError;
    expect(e.status).toBe(status);
    expect(e.requestId).toBe('req_err');
    expect(e.retryable).toBe(false);
    expect(e.message).toContain('the key in OPENAI_API_KEY (Incorrect API key provided: sk-bad)');
    expect(e.describe()).toMatch(
      new RegExp(`^The OpenAI API .* \\(HTTP ${status}\\) \\[request req_err\\]$`),
    );
  });

  it('401 from a keyless local server says to set OPENAI_API_KEY', async () => {
    const { error } = await run(
      { kind: 'error', status: 401, body: errorBody('Unauthorized') },
      { provider: { apiKey: undefined, baseURL: 'http://127.0.0.1:8000/v1' } },
    );
    expect(error).toBeInstanceOf(AuthError);
    expect((error as Error).message).toBe(
      'The server at http://127.0.0.1:8000/v1 wants an API key (Unauthorized): set OPENAI_API_KEY.',
    );
  });

  it.each([
    [
      'OpenAI',
      { code: 'model_not_found' },
      'The model `gpt-test` does not exist or you do not have access to it.',
    ],
    ['vLLM', { type: 'NotFoundError', code: 404 }, 'The model `gpt-test` does not exist.'],
    ['Ollama', { type: 'api_error' }, 'model "gpt-test" not found, try pulling it first'],
  ])(
    'a %s 404 for the model names it and where the server lists its models',
    async (_server, extra, message) => {
      const error = await failWith(404, errorBody(message, extra));
      expect(error).toBeInstanceOf(ModelNotFoundError);
      const text = (error as Error).message;
      expect(text).toMatch(/does not know the model "gpt-test" /);
      // The aliases are Anthropic's models; they would only lead to another unknown id here.
      expect(text).not.toContain('aliases');
      expect(text).toMatch(/the server lists the ids it serves at \S+\/models \(Ollama: `ollama list`\)\.$/);
    },
  );

  it('a 404 that is not about a model points at the base URL and names the one to try', async () => {
    const { error } = await run(
      { kind: 'error', status: 404, body: '404 page not found' },
      { provider: { baseURL: 'http://127.0.0.1:11434' } },
    );
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as Error).message).toMatch(
      /has no such endpoint \(404 page not found\)\. Check OPENAI_BASE_URL\. An OpenAI-compatible base URL usually ends in \/v1: try http:\/\/127\.0\.0\.1:11434\/v1\.$/,
    );
  });

  it('429 is a RateLimitError honouring retry-after-ms before retry-after', async () => {
    const precise = await failWith(429, errorBody('Rate limit reached'), {
      'retry-after-ms': '1500',
      'retry-after': '9',
    });
    expect(precise).toBeInstanceOf(RateLimitError);
    expect((precise as RateLimitError).retryAfterMs).toBe(1500);
    expect((precise as RateLimitError).retryable).toBe(true);
    const seconds = await failWith(429, errorBody('Rate limit reached'), { 'retry-after': '7' });
    expect((seconds as RateLimitError).retryAfterMs).toBe(7000);
    const none = await failWith(429, errorBody('Rate limit reached'));
    expect((none as RateLimitError).retryAfterMs).toBeUndefined();
  });

  it('429 insufficient_quota is not retried', async () => {
    const error = await failWith(
      429,
      errorBody('You exceeded your current quota', { code: 'insufficient_quota' }),
    );
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).retryable).toBe(false);
  });

  it('529, and 503 saying overloaded, are OverloadedError; a plain 503 is a ServerError', async () => {
    expect(await failWith(529, errorBody('Overloaded'))).toBeInstanceOf(OverloadedError);
    const busy = await failWith(
      503,
      errorBody('The engine is currently overloaded, please try again later'),
      {
        'retry-after': '2',
      },
    );
    expect(busy).toBeInstanceOf(OverloadedError);
    expect((busy as OverloadedError).retryAfterMs).toBe(2000);
    const down = await failWith(503, errorBody('Service unavailable'));
    expect(down).toBeInstanceOf(ServerError);
    expect(down).not.toBeInstanceOf(OverloadedError);
  });

  it('400 context_length_exceeded is PromptTooLongError with the counts', async () => {
    const message =
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.";
    const error = await failWith(400, errorBody(message, { code: 'context_length_exceeded' }));
    expect(error).toBeInstanceOf(PromptTooLongError);
    expect((error as PromptTooLongError).actualTokens).toBe(130512);
    expect((error as PromptTooLongError).limitTokens).toBe(128000);
    expect((error as PromptTooLongError).status).toBe(400);
  });

  it('recognises vLLM and llama.cpp context overflows', async () => {
    const vllm = await failWith(
      400,
      errorBody(
        "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion).",
      ),
    );
    expect(vllm).toBeInstanceOf(PromptTooLongError);
    expect((vllm as PromptTooLongError).actualTokens).toBe(5000);
    expect((vllm as PromptTooLongError).limitTokens).toBe(4096);
    const llama = await failWith(400, {
      error: {
        code: 400,
        message: 'the request exceeds the available context size, try increasing it',
        type: 'exceed_context_size_error',
        n_prompt_tokens: 9000,
        n_ctx: 8192,
      },
    });
    expect(llama).toBeInstanceOf(PromptTooLongError);
    expect((llama as PromptTooLongError).actualTokens).toBe(9000);
    expect((llama as PromptTooLongError).limitTokens).toBe(8192);
  });

  it('413 is PromptTooLongError even without counts', async () => {
    const error = await failWith(413, 'Request Entity Too Large');
    expect(error).toBeInstanceOf(PromptTooLongError);
    expect((error as PromptTooLongError).actualTokens).toBeUndefined();
    expect((error as PromptTooLongError).message).toContain('Request Entity Too Large');
  });

  it('an image-related 400 is a MediaError', async () => {
    const error = await failWith(400, errorBody('Invalid image data', { code: 'invalid_image_format' }));
    expect(error).toBeInstanceOf(MediaError);
    const local = await failWith(400, errorBody('image input is not supported by this model'));
    expect(local).toBeInstanceOf(MediaError);
  });

  it('other 4xx are InvalidRequestError, 5xx are ServerError', async () => {
    const bad = await failWith(400, errorBody("Invalid value for 'tool_choice'."));
    expect(bad).toBeInstanceOf(InvalidRequestError);
    expect(bad).not.toBeInstanceOf(MediaError);
    expect(await failWith(404, errorBody('The model `gpt-nope` does not exist'))).toBeInstanceOf(
      InvalidRequestError,
    );
    expect(await failWith(422, errorBody('Unprocessable'))).toBeInstanceOf(InvalidRequestError);
    const server = await failWith(500, '');
    expect(server).toBeInstanceOf(ServerError);
    expect((server as ServerError).retryable).toBe(true);
    expect((server as ServerError).message).toBe('The OpenAI API returned HTTP 500 without a message.');
  });

  it('a refused connection is a ConnectionError before any event', async () => {
    const { error } = await run({
      kind: 'network',
      error: new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:11434') }),
    });
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).midStream).toBe(false);
    expect((error as ConnectionError).message).toContain('ECONNREFUSED');
  });

  it('a request that gets no answer within the first-byte wait is a retryable ConnectionError', async () => {
    const timeouts = { connectMs: 5_000, firstByteMs: 20, idleMs: 5_000 };
    const { error } = await run({ kind: 'stall' }, { provider: { timeouts } });
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).retryable).toBe(true);
    expect((error as ConnectionError).deadline?.phase).toBe('first_byte');
    expect((error as ConnectionError).message).toMatch(
      /^No answer from the OpenAI API: connected, but nothing came back within 20 ms$/,
    );
  });

  it('an error object inside the stream becomes a typed error', async () => {
    const { error, events } = await run({
      kind: 'sse',
      chunks: [chunk({ content: 'Hi' }), { error: { message: 'Model overloaded', type: 'server_error' } }],
    });
    expect(events.map((e) => e.type)).toContain('text_delta');
    expect(error).toBeInstanceOf(OverloadedError);
    expect((error as OverloadedError).requestId).toBe('req_123');
    const other = await run({ kind: 'sse', chunks: [{ error: { message: 'boom', type: 'server_error' } }] });
    expect(other.error).toBeInstanceOf(ServerError);
  });
});

describe('classifyOpenAIError directly', () => {
  it('passes typed errors through and maps abort errors', () => {
    const typed = new ServerError('x');
    expect(classifyOpenAIError(typed)).toBe(typed);
    expect(classifyOpenAIError(new DOMException('aborted', 'AbortError'))).toBeInstanceOf(AbortedError);
  });

  it('marks unknown transport failures as mid-stream when told so', () => {
    const error = classifyOpenAIError(new TypeError('terminated'), { midStream: true, requestId: 'r1' });
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).midStream).toBe(true);
    expect((error as ModelError).requestId).toBe('r1');
  });

  it('an unreadable chunk is a broken transfer, retried like a dropped connection', () => {
    const error = classifyOpenAIError(new SyntaxError('Unexpected token'), { midStream: true });
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).midStream).toBe(true);
    expect((error as ConnectionError).retryable).toBe(true);
  });
});
