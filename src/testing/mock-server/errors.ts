/**
 * Error responses of the mock server, shaped like each real API's so that providers classify
 * them exactly as they would in production (status, body type/code, retry-after header).
 */
import { anthropicErrorBody, anthropicErrorType } from './anthropic-wire';
import { openaiErrorBody, openaiErrorType } from './openai-wire';
import type { ApiKind, RequestImage } from './recorded-request';
import type { Fault } from './scenario';

export type ErrorResponse = { status: number; headers: Record<string, string>; body: unknown };

type ErrorOptions = {
  /** Overrides the error type derived from the status (Anthropic `error.type`). */
  anthropicType?: string;
  /** OpenAI `error.code`. */
  openaiCode?: string;
  /** Seconds, sent as the retry-after header. */
  retryAfter?: number;
};

export function errorResponse(
  api: ApiKind,
  status: number,
  message: string,
  options: ErrorOptions = {},
): ErrorResponse {
  const headers: Record<string, string> = {};
  if (options.retryAfter !== undefined) headers['retry-after'] = String(options.retryAfter);
  const body =
    api === 'anthropic'
      ? anthropicErrorBody(options.anthropicType ?? anthropicErrorType(status), message)
      : openaiErrorBody(openaiErrorType(status), message, options.openaiCode ?? null);
  return { status, headers, body };
}

const defaultMessages: Record<number, string> = {
  400: 'Invalid request (mock fault)',
  401: 'Invalid API key (mock fault)',
  403: 'Permission denied (mock fault)',
  404: 'Not found (mock fault)',
  429: 'Rate limit exceeded (mock fault)',
  500: 'Internal server error (mock fault)',
  502: 'Bad gateway (mock fault)',
  503: 'Service unavailable (mock fault)',
};

/** The status an in-stream error type would have had as an HTTP error. */
export function statusForErrorType(errorType: string): number {
  if (errorType === 'overloaded_error') return 529;
  if (errorType === 'rate_limit_error') return 429;
  if (errorType === 'invalid_request_error') return 400;
  return 500;
}

export function streamErrorMessage(fault: { errorType: string; message?: string | undefined }): string {
  if (fault.message !== undefined) return fault.message;
  return fault.errorType === 'overloaded_error' ? 'Overloaded' : `${fault.errorType} (mock fault)`;
}

/**
 * The HTTP error for a fault that replaces the whole response; undefined for faults that act
 * inside a stream. A stream fault on a non-streaming request becomes the equivalent HTTP error.
 */
export function faultResponse(
  api: ApiKind,
  fault: Fault,
  streaming: boolean,
  model: string,
  image?: RequestImage,
): ErrorResponse | undefined {
  switch (fault.type) {
    case 'http':
      return errorResponse(
        api,
        fault.status,
        fault.message ?? defaultMessages[fault.status] ?? 'Mock fault',
        {
          ...(fault.retryAfter !== undefined ? { retryAfter: fault.retryAfter } : {}),
        },
      );
    case 'overloaded':
      return errorResponse(api, 529, fault.message ?? 'Overloaded', {
        anthropicType: 'overloaded_error',
        openaiCode: 'overloaded_error',
        ...(fault.retryAfter !== undefined ? { retryAfter: fault.retryAfter } : {}),
      });
    case 'prompt_too_long':
      if (api === 'anthropic') {
        return errorResponse(
          api,
          fault.status ?? 400,
          `prompt is too long: ${fault.actualTokens} tokens > ${fault.limitTokens} maximum`,
        );
      }
      return errorResponse(
        api,
        fault.status ?? 400,
        `This model's maximum context length is ${fault.limitTokens} tokens. However, your messages ` +
          `resulted in ${fault.actualTokens} tokens. Please reduce the length of the messages.`,
        { openaiCode: 'context_length_exceeded' },
      );
    case 'stream_error':
      if (streaming) return undefined;
      return errorResponse(api, statusForErrorType(fault.errorType), streamErrorMessage(fault), {
        anthropicType: fault.errorType,
      });
    case 'unknown_model':
      return api === 'anthropic'
        ? errorResponse(api, 404, `model: ${model}`, { anthropicType: 'not_found_error' })
        : errorResponse(api, 404, `The model \`${model}\` does not exist or you do not have access to it.`, {
            openaiCode: 'model_not_found',
          });
    case 'malformed_chunk':
      if (streaming) return undefined;
      // Outside a stream there is no chunk to garble; the closest is a 500 the client retries.
      return errorResponse(api, 500, 'Malformed response (mock fault)');
    case 'media_error':
      return mediaErrorResponse(api, fault.problem, image);
    case 'disconnect':
    case 'silent':
    case 'stall':
    case 'html_page':
      return undefined;
  }
}

/** The largest base64 image the Anthropic API takes. */
const ANTHROPIC_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** The 400 each API sends for an image it cannot use, in its own words. */
function mediaErrorResponse(
  api: ApiKind,
  problem: 'too_large' | 'unreadable',
  image: RequestImage | undefined,
): ErrorResponse {
  if (api === 'anthropic') {
    if (problem === 'unreadable') return errorResponse(api, 400, 'Could not process image');
    const where = image ? `${image.path}: ` : '';
    const size = image ? `: ${image.bytes} bytes > ${ANTHROPIC_IMAGE_MAX_BYTES} bytes` : '';
    return errorResponse(api, 400, `${where}image exceeds 5 MB maximum${size}`);
  }
  if (problem === 'unreadable') {
    return errorResponse(
      api,
      400,
      'You uploaded an unsupported image. Please make sure your image is valid.',
      {
        openaiCode: 'invalid_image_format',
      },
    );
  }
  return errorResponse(
    api,
    400,
    `Invalid image${image ? ` at ${image.path}` : ''}: the image is too large${image ? ` (${image.bytes} bytes)` : ''}.`,
    { openaiCode: 'invalid_image' },
  );
}
