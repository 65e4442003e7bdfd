/**
 * The control-message envelopes of the stream-json protocol (agent-sdk-protocol.md §4, §5.8).
 * Both sides send requests and answer the other's with exactly one `control_response`.
 */
import type { JsonObject } from './ndjson';

export type ControlRequest = {
  type: 'control_request';
  request_id: string;
  request: { subtype: string } & JsonObject;
};

export type ControlResponse = {
  type: 'control_response';
  response:
    | { subtype: 'success'; request_id: string; response?: JsonObject }
    | { subtype: 'error'; request_id: string; error: string; error_code?: string };
};

export type ControlCancelRequest = { type: 'control_cancel_request'; request_id: string };

export function successResponse(requestId: string, payload: JsonObject = {}): ControlResponse {
  return {
    type: 'control_response',
    response: { subtype: 'success', request_id: requestId, response: payload },
  };
}

/** `errorCode`: a machine-readable reason some refusals carry (`reload_plugins_busy`). */
export function errorResponse(requestId: string, error: string, errorCode?: string): ControlResponse {
  return {
    type: 'control_response',
    response: {
      subtype: 'error',
      request_id: requestId,
      error,
      ...(errorCode ? { error_code: errorCode } : {}),
    },
  };
}

/** Narrows an input line to a control request; a request without an id cannot be answered. */
export function asControlRequest(message: JsonObject): ControlRequest | undefined {
  const request = message.request as JsonObject | undefined;
  if (typeof message.request_id !== 'string' || !request || typeof request.subtype !== 'string')
    return undefined;
  return message as unknown as ControlRequest;
}

export function asControlResponse(message: JsonObject): ControlResponse['response'] | undefined {
  const response = message.response as JsonObject | undefined;
  if (!response || typeof response.request_id !== 'string') return undefined;
  if (response.subtype !== 'success' && response.subtype !== 'error') return undefined;
  return response as ControlResponse['response'];
}
