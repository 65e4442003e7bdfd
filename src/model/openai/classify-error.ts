/**
 * Any failure from the OpenAI SDK (or the stream beneath it) → one of Yoke's typed model errors,
 * by the policy both wires share (../failure-policy.ts). This file only reads the SDK's errors,
 * including the shapes of the compatible servers (vLLM, llama.cpp, Ollama).
 */
import { APIConnectionError, APIError } from 'openai';
import type { ClassifyContext } from '../errors';
import { type ApiFailure, classifyFailure, type WireErrors } from '../failure-policy';
import { openAIEndpoint } from './endpoint';

const openAIErrors: WireErrors = {
  isConnectionError: (err) => err instanceof APIConnectionError,
  apiFailure(err): ApiFailure | undefined {
    if (!(err instanceof APIError)) return undefined;
    const codes = [err.type, err.code, err.param]
      .filter((code) => code !== null && code !== undefined && code !== '')
      .map(String);
    return {
      status: err.status,
      codes,
      message: detailOf(err),
      headers: err.headers,
      requestId: err.requestID ?? undefined,
      counts: contextCounts(err),
    };
  },
};

export function classifyOpenAIError(err: unknown, context: ClassifyContext = {}): Error {
  return classifyFailure(err, { ...context, endpoint: context.endpoint ?? openAIEndpoint({}) }, openAIErrors);
}

/** llama.cpp server puts the counts in the error object instead of the message. */
function contextCounts(err: APIError): { actual: number; limit: number } | undefined {
  const body = err.error as { n_prompt_tokens?: unknown; n_ctx?: unknown } | undefined;
  if (typeof body?.n_prompt_tokens !== 'number' || typeof body.n_ctx !== 'number') return undefined;
  return { actual: body.n_prompt_tokens, limit: body.n_ctx };
}

/** The server's own message, without the "429 " prefix the SDK adds (describe() shows status). */
function detailOf(err: APIError): string {
  const body = err.error as { message?: unknown } | undefined;
  if (typeof body?.message === 'string' && body.message) return body.message;
  const stripped =
    err.status === undefined ? err.message : err.message.replace(new RegExp(`^${err.status} `), '');
  return stripped && stripped !== 'status code (no body)' ? stripped : '';
}
