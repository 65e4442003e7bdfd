/**
 * The mock model server: a plain node:http server that answers the Anthropic Messages API and
 * the OpenAI chat-completions API from a scripted scenario, with fault injection. Every test and
 * benchmark that needs a model talks to this instead of a real API.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonObject } from '../../lib/json-object';
import { anthropicEvents, anthropicMessage, type OutgoingEvent } from './anthropic-wire';
import { deferredToolsProblem, unloadedDeferredCall } from './deferred-tools';
import { type ErrorResponse, errorResponse, faultResponse, streamErrorMessage } from './errors';
import { readBody, sendHtml, sendJson, sendSse, sleep, untilAborted } from './http-io';
import { infoResponse, infoRoute } from './info-routes';
import { openaiChunks, openaiCompletion, openaiErrorType } from './openai-wire';
import type { ApiKind, RecordedRequest } from './recorded-request';
import { viewRequest } from './recorded-request';
import { estimateTokens, IdSource, type ResolvedReply, resolveReply } from './reply';
import {
  parseScenario,
  parseScriptedReply,
  type Scenario,
  ScenarioError,
  type ScenarioInput,
  type ScenarioTurn,
  type ScriptedReply,
} from './scenario';
import { TurnSelector } from './turn-selector';

export type MockServerOptions = {
  /** A scenario object (validated here), e.g. from `loadScenarioFile` or written inline. */
  scenario: ScenarioInput | Scenario;
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
};

export type MockServer = {
  /** Base URL: the Anthropic SDK's baseURL; OpenAI clients use `${url}/v1`. */
  url: string;
  port: number;
  /** Every request received, in order. `reset()` empties this same array. */
  requests: RecordedRequest[];
  close(): Promise<void>;
  /** Forgets requests and turn usage; optionally switches to a new scenario. */
  reset(scenario?: ScenarioInput | Scenario): void;
};

type Route = { api: ApiKind; kind: 'messages' | 'count_tokens' | 'chat' };

const routes: Record<string, Route> = {
  '/v1/messages': { api: 'anthropic', kind: 'messages' },
  '/v1/messages/count_tokens': { api: 'anthropic', kind: 'count_tokens' },
  '/v1/chat/completions': { api: 'openai', kind: 'chat' },
  '/chat/completions': { api: 'openai', kind: 'chat' },
};

/** Used when a turn only scripts a mid-stream fault: the stream needs some content to cut. */
const interruptedReply: ScriptedReply = {
  content: [{ type: 'text', text: 'This reply is cut short by a scripted fault of the mock server.' }],
};

function headerRecord(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function hasApiKey(headers: Record<string, string>): boolean {
  return Boolean(headers['x-api-key']) || /^Bearer\s+\S/i.test(headers.authorization ?? '');
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

export async function startMockServer(options: MockServerOptions): Promise<MockServer> {
  let scenario = parseScenario(options.scenario);
  let selector = new TurnSelector(scenario);
  let ids = new IdSource();
  const requests: RecordedRequest[] = [];

  const sendError = (res: ServerResponse, requestHeaders: Record<string, string>, error: ErrorResponse) =>
    sendJson(res, error.status, error.body, { ...requestHeaders, ...error.headers });

  async function handle(req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> {
    const bodyText = await readBody(req);
    const body = parseJson(bodyText);
    const path = new URL(req.url ?? '/', 'http://mock').pathname;
    const route = req.method === 'POST' ? routes[path] : undefined;
    const headers = headerRecord(req);
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      headers,
      body,
      api: route?.api,
      turnIndex: undefined,
      receivedAt: Date.now(),
    };
    requests.push(record);
    const api = route?.api ?? 'anthropic';
    const requestId = ids.next('req_mock_');
    const idHeaders: Record<string, string> =
      api === 'anthropic' ? { 'request-id': requestId } : { 'x-request-id': requestId };

    const info = infoRoute(record.method, path);
    if (info === 'models' && !scenario.listModels) {
      return sendError(res, idHeaders, errorResponse('openai', 404, `mock server: no route for GET ${path}`));
    }
    if (info) {
      if (scenario.requireAuth && !hasApiKey(headers)) {
        return sendError(res, idHeaders, errorResponse('openai', 401, 'mock server: an API key is required'));
      }
      const answer = infoResponse(info, scenario.models, body);
      return sendJson(res, answer.status, answer.body, idHeaders);
    }
    if (!route) {
      return sendError(
        res,
        idHeaders,
        errorResponse(api, 404, `mock server: no route for ${req.method} ${path}`),
      );
    }
    if (scenario.requireAuth && !hasApiKey(headers)) {
      const message =
        api === 'anthropic' ? 'x-api-key header is required' : "You didn't provide an API key (mock server).";
      return sendError(res, idHeaders, errorResponse(api, 401, message, { openaiCode: 'invalid_api_key' }));
    }
    const json = body as { model?: unknown; messages?: unknown; stream?: unknown; stream_options?: unknown };
    if (
      typeof json !== 'object' ||
      json === null ||
      typeof json.model !== 'string' ||
      !Array.isArray(json.messages)
    ) {
      const message = 'mock server: the body must be JSON with a string `model` and a `messages` array';
      return sendError(res, idHeaders, errorResponse(api, 400, message));
    }
    if (route.kind === 'count_tokens') {
      return sendJson(res, 200, { input_tokens: estimateTokens(bodyText) }, idHeaders);
    }

    if (api === 'anthropic') {
      const problem = deferredToolsProblem(json as JsonObject);
      if (problem) return sendError(res, idHeaders, errorResponse(api, 400, problem));
    }

    const view = viewRequest(api, body);
    const selected = selector.next(view);
    if (!selected) {
      const message =
        `mock scenario has no turn for this request (request #${requests.length}, api ${api}, model ` +
        `${view.model}, last user text ${JSON.stringify(view.lastUserText.slice(0, 80))}, last tool result ` +
        `${JSON.stringify(view.lastToolResultText.slice(0, 80))}); ${selector.describe()}`;
      // x-should-retry stops SDK retries so the test fails at once with this message.
      const error = errorResponse(api, 500, message);
      return sendError(res, { ...idHeaders, 'x-should-retry': 'false' }, error);
    }
    record.turnIndex = selected.index;
    const turn: ScenarioTurn = selected.turn;
    const streaming = json.stream === true;
    const delayMs = turn.chunkDelayMs ?? scenario.chunkDelayMs;

    if (turn.fault) {
      const error = faultResponse(api, turn.fault, streaming, json.model, view.firstImage);
      if (error) {
        await sleep(delayMs, signal);
        if (signal.aborted) return;
        return sendError(res, idHeaders, error);
      }
      if (turn.fault.type === 'disconnect' && !streaming) {
        res.socket?.destroy();
        return;
      }
      if (turn.fault.type === 'silent') return untilAborted(signal);
      if (turn.fault.type === 'html_page')
        return sendHtml(res, turn.fault.status, turn.fault.title, idHeaders);
    }

    let scripted: ScriptedReply;
    try {
      scripted =
        typeof turn.reply === 'function'
          ? parseScriptedReply(turn.reply(record), `turns[${selected.index}].reply() result`)
          : (turn.reply ?? interruptedReply);
    } catch (error) {
      const message =
        error instanceof ScenarioError ? error.message : `reply function threw: ${String(error)}`;
      return sendError(res, idHeaders, errorResponse(api, 500, `mock scenario: ${message}`));
    }
    const reply = resolveReply(scripted, ids, api === 'anthropic' ? 'toolu_mock_' : 'call_mock_', bodyText);
    const impossible =
      api === 'anthropic' ? unloadedDeferredCall(json as JsonObject, reply.content) : undefined;
    if (impossible) {
      return sendError(res, { ...idHeaders, 'x-should-retry': 'false' }, errorResponse(api, 400, impossible));
    }

    if (!streaming) {
      await sleep(delayMs, signal);
      if (signal.aborted) return;
      return sendJson(res, 200, renderMessage(api, reply, json.model), idHeaders);
    }
    let events = renderEvents(api, reply, json.model, includeUsage(json.stream_options));
    let disconnectAfter: number | undefined;
    if (turn.fault?.type === 'disconnect') disconnectAfter = turn.fault.afterEvents;
    const stallAfter = turn.fault?.type === 'stall' ? turn.fault.afterEvents : undefined;
    if (turn.fault?.type === 'stream_error') {
      const message = streamErrorMessage(turn.fault);
      const errorEvent: OutgoingEvent =
        api === 'anthropic'
          ? { event: 'error', data: { type: 'error', error: { type: turn.fault.errorType, message } } }
          : {
              data: {
                error: { message, type: openaiErrorType(500), param: null, code: turn.fault.errorType },
              },
            };
      events = [...events.slice(0, turn.fault.afterEvents ?? 1), errorEvent];
    }
    if (turn.fault?.type === 'malformed_chunk') {
      const kept = events.slice(0, turn.fault.afterEvents ?? 1);
      events = [...kept, garbledEvent(api)];
    }
    await sendSse(res, events, {
      headers: idHeaders,
      delayMs,
      signal,
      ...(disconnectAfter !== undefined ? { disconnectAfter } : {}),
      ...(stallAfter !== undefined ? { stallAfter } : {}),
    });
  }

  function renderMessage(api: ApiKind, reply: ResolvedReply, model: string): unknown {
    return api === 'anthropic'
      ? anthropicMessage(reply, ids.next('msg_mock_'), model)
      : openaiCompletion(reply, ids.next('chatcmpl-mock_'), model, Math.floor(Date.now() / 1000));
  }

  function renderEvents(api: ApiKind, reply: ResolvedReply, model: string, usage: boolean): OutgoingEvent[] {
    return api === 'anthropic'
      ? anthropicEvents(reply, ids.next('msg_mock_'), model)
      : openaiChunks(reply, ids.next('chatcmpl-mock_'), model, Math.floor(Date.now() / 1000), usage);
  }

  const server = createServer((req, res) => {
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    handle(req, res, controller.signal).catch((error: unknown) => {
      // A bug in the mock must surface in the test, not hang it.
      if (!res.headersSent)
        sendJson(res, 500, { type: 'error', error: { type: 'api_error', message: String(error) } });
      else res.destroy();
    });
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    requests,
    // Once: a test that closed the server itself must not fail its clean-up by closing it again.
    close: () =>
      (closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      })),
    reset(next) {
      if (next !== undefined) scenario = parseScenario(next);
      selector = new TurnSelector(scenario);
      ids = new IdSource();
      requests.length = 0;
    },
  };
}

/** An event whose data breaks off mid-JSON, as a corrupted transfer would deliver it. */
function garbledEvent(api: ApiKind): OutgoingEvent {
  return api === 'anthropic'
    ? {
        event: 'content_block_delta',
        data: '{"type":"content_block_delta","index":0,"delta":{"type":"text_del',
      }
    : { data: '{"id":"chatcmpl-mock","object":"chat.completion.chunk","choices":[{"index":0,"del' };
}

function includeUsage(streamOptions: unknown): boolean {
  return typeof streamOptions === 'object' && streamOptions !== null && 'include_usage' in streamOptions
    ? (streamOptions as { include_usage: unknown }).include_usage === true
    : false;
}
