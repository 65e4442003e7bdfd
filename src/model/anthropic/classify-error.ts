/**
 * Any failure of an Anthropic SDK call → one of Yoke's typed model errors, by the policy both
 * wires share (../failure-policy.ts). This file only reads the SDK's errors.
 */
import { APIConnectionError, APIError } from '@anthropic-ai/sdk/error';
import type { ClassifyContext } from '../errors';
import { type ApiFailure, classifyFailure, type WireErrors } from '../failure-policy';
import { anthropicEndpoint } from './client';

const anthropicErrors: WireErrors = {
  isConnectionError: (err) => err instanceof APIConnectionError,
  apiFailure(err): ApiFailure | undefined {
    if (!(err instanceof APIError)) return undefined;
    return {
      status: err.status,
      codes: [err.type, err.errorCode].filter((code): code is string => typeof code === 'string'),
      message: readableMessage(err),
      headers: err.headers,
      requestId: err.requestID ?? undefined,
    };
  },
};

export function classifyAnthropicError(err: unknown, context: ClassifyContext = {}): Error {
  return classifyFailure(
    err,
    { ...context, endpoint: context.endpoint ?? anthropicEndpoint({}) },
    anthropicErrors,
  );
}

/** The API's own sentence; the SDK's `message` is "<status> <JSON of the body>". Empty without one. */
function readableMessage(err: APIError): string {
  if (err.apiMessage) return err.apiMessage;
  const stripped = err.message.replace(/^\d{3}\s+/, '');
  return stripped && !/\(no body\)$|^\(no status code or body\)$/.test(stripped) ? stripped : '';
}
