/**
 * The scenario format of the mock model server: an ordered list of scripted turns, validated with
 * zod so that a typo in a test fixture fails with the path of the bad field instead of a confusing
 * mismatch later. See README.md beside this file for the format with examples.
 */
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import * as z from '../../lib/zod';
import type { RecordedRequest } from './recorded-request';

const stopReasonSchema = z.enum([
  'end_turn',
  'max_tokens',
  'stop_sequence',
  'tool_use',
  'pause_turn',
  'refusal',
  'model_context_window_exceeded',
]);

const contentBlockSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), text: z.string() }),
  z.strictObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.optional(z.string()) }),
  z.strictObject({ type: z.literal('redacted_thinking'), data: z.string() }),
  z.strictObject({
    type: z.literal('tool_use'),
    id: z.optional(z.string().check(z.minLength(1))),
    name: z.string().check(z.minLength(1)),
    input: z.record(z.string(), z.unknown()),
  }),
]);

const tokenCount = z.number().check(z.int(), z.nonnegative());

/** Usage overrides, in Yoke's `Usage` field names; fields left out keep their estimated value. */
const usageSchema = z.strictObject({
  inputTokens: z.optional(tokenCount),
  outputTokens: z.optional(tokenCount),
  cacheReadInputTokens: z.optional(tokenCount),
  cacheCreationInputTokens: z.optional(tokenCount),
});

export const scriptedReplySchema = z.strictObject({
  content: z.array(contentBlockSchema),
  /** Defaults to `tool_use` when the content has a tool_use block, else `end_turn`. */
  stopReason: z.optional(stopReasonSchema),
  usage: z.optional(usageSchema),
});

const matchSchema = z.strictObject({
  /** Substring of the tool results in the last message (the answer to the previous tool_use). */
  lastToolResultContains: z.optional(z.string()),
  /** Substring of the text of the most recent user message that has text (tool results excluded). */
  lastUserTextContains: z.optional(z.string()),
  /**
   * Substring of the conversation's first user message with text: it stays the same for the whole
   * conversation, so a parent and each of its workers can follow their own script.
   */
  firstUserTextContains: z.optional(z.string()),
  /** Substring of the system prompt (Anthropic `system`, OpenAI `role: system` messages). */
  systemContains: z.optional(z.string()),
  /** Exact model name of the request. */
  model: z.optional(z.string()),
  api: z.optional(z.enum(['anthropic', 'openai'])),
  /** The request offers a tool with this name. */
  hasTool: z.optional(z.string()),
  /** The request carries an image (true) or none (false), anywhere in its messages. */
  hasImage: z.optional(z.boolean()),
});

const httpStatus = z.number().check(z.int(), z.minimum(400), z.maximum(599));

const faultObjectSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('http'),
    status: httpStatus,
    /** Seconds, sent as the retry-after header. */
    retryAfter: z.optional(z.number().check(z.nonnegative())),
    message: z.optional(z.string()),
  }),
  z.strictObject({
    type: z.literal('overloaded'),
    retryAfter: z.optional(z.number().check(z.nonnegative())),
    message: z.optional(z.string()),
  }),
  z.strictObject({
    type: z.literal('prompt_too_long'),
    status: z.optional(z.union([z.literal(400), z.literal(413)])),
    actualTokens: tokenCount,
    limitTokens: tokenCount,
  }),
  z.strictObject({ type: z.literal('disconnect'), afterEvents: tokenCount }),
  /** Accepts the request and never answers: no status, no headers, the socket held open. */
  z.strictObject({ type: z.literal('silent') }),
  /** Sends `afterEvents` SSE events, then nothing more, the socket held open. */
  z.strictObject({ type: z.literal('stall'), afterEvents: tokenCount }),
  /** A web page where the API should be: a proxy's login page, a captive portal. */
  z.strictObject({
    type: z.literal('html_page'),
    status: z._default(z.number().check(z.int(), z.minimum(200), z.maximum(599)), 200),
    title: z._default(z.string(), 'Sign in to continue'),
  }),
  /** The API's own 404 for a model it does not serve, naming the requested model. */
  z.strictObject({ type: z.literal('unknown_model') }),
  /** After `afterEvents` events (default 1), one event whose data is cut-off JSON; then the end. */
  z.strictObject({ type: z.literal('malformed_chunk'), afterEvents: z.optional(tokenCount) }),
  /**
   * The API's 400 for an image it cannot use: `too_large` names the first image of the request
   * (its path and size, as the real API does), `unreadable` is "Could not process image".
   */
  z.strictObject({
    type: z.literal('media_error'),
    problem: z._default(z.enum(['too_large', 'unreadable']), 'too_large'),
  }),
  z.strictObject({
    type: z.literal('stream_error'),
    errorType: z._default(z.string(), 'overloaded_error'),
    message: z.optional(z.string()),
    /** Events sent before the error; by default the error follows message_start. */
    afterEvents: z.optional(tokenCount),
  }),
]);

/** A bare status code is shorthand for `{ type: 'http', status }`. */
const faultSchema = z.union(
  [
    z.pipe(
      httpStatus,
      z.transform((status: number): z.output<typeof faultObjectSchema> => ({ type: 'http', status })),
    ),
    faultObjectSchema,
  ],
  { error: 'expected an HTTP status code or a fault object with a `type`' },
);

/** In-process only: computes the reply from the recorded request. */
export type ReplyFunction = (request: RecordedRequest) => ScriptedReplyInput;

const replyFunctionSchema = z.custom<ReplyFunction>((value) => typeof value === 'function', {
  message: 'expected a reply object or a function',
});

export const scenarioTurnSchema = z
  .strictObject({
    match: z.optional(matchSchema),
    reply: z.optional(
      z.union([scriptedReplySchema, replyFunctionSchema], {
        error: 'expected a reply object with `content`',
      }),
    ),
    /** How many requests this turn answers before it is exhausted. */
    repeat: z._default(
      z.union([z.number().check(z.int(), z.positive()), z.literal('forever')], {
        error: 'expected a positive integer or "forever"',
      }),
      1,
    ),
    fault: z.optional(faultSchema),
    /** Delay before each SSE event (and once before a non-streaming body). */
    chunkDelayMs: z.optional(z.number().check(z.nonnegative())),
  })
  .check(
    z.refine((turn) => turn.reply !== undefined || turn.fault !== undefined, {
      message: 'a turn needs a reply or a fault',
      path: ['reply'],
    }),
  );

/** A model the server lists, with the context length its kind of server reports. */
const servedModelSchema = z.strictObject({
  id: z.string().check(z.minLength(1)),
  /** vLLM: `max_model_len` in `GET /v1/models`. */
  maxModelLen: z.optional(tokenCount),
  /** Ollama: `<arch>.context_length` in `POST /api/show`'s `model_info`. */
  contextLength: z.optional(tokenCount),
});

const scenarioObjectSchema = z.strictObject({
  /** Set to false to accept requests without an API key. */
  requireAuth: z._default(z.boolean(), true),
  /** Models for `GET /v1/models` and Ollama's `POST /api/show`; these requests consume no turn. */
  models: z._default(z.array(servedModelSchema), []),
  /** false: `GET /v1/models` answers 404, as a server without the route does (for what a client says then). */
  listModels: z._default(z.boolean(), true),
  /** Default per-event delay for every turn. */
  chunkDelayMs: z._default(z.number().check(z.nonnegative()), 0),
  turns: z.array(scenarioTurnSchema),
});

/** A bare list of turns is shorthand for `{ turns: [...] }`. */
export const scenarioSchema = z.pipe(
  z.transform((value: unknown) => (Array.isArray(value) ? { turns: value } : value)),
  scenarioObjectSchema,
);

export type Scenario = z.output<typeof scenarioSchema>;
export type ScenarioInput = z.input<typeof scenarioObjectSchema> | z.input<typeof scenarioTurnSchema>[];
export type ScenarioTurn = z.output<typeof scenarioTurnSchema>;
export type ScriptedReply = z.output<typeof scriptedReplySchema>;
export type ScriptedReplyInput = z.input<typeof scriptedReplySchema>;
export type ScriptedContentBlock = z.output<typeof contentBlockSchema>;
export type TurnMatch = z.output<typeof matchSchema>;
export type Fault = z.output<typeof faultSchema>;
export type ServedModel = z.output<typeof servedModelSchema>;

/** A scenario that failed to load or validate; the message is one line naming the bad field. */
export class ScenarioError extends Error {
  override name = 'ScenarioError';
}

type Issue = z.core.$ZodIssue;

/**
 * For a union that failed, the branch that got furthest (deepest path) says what was meant:
 * a reply object with a bad block beats "expected a function".
 */
function bestBranch(branches: Issue[][]): Issue[] | undefined {
  const depth = (issues: Issue[]) => Math.max(...issues.map((i) => i.path.length), 0);
  return branches.reduce<Issue[] | undefined>(
    (best, b) => (!best || depth(b) > depth(best) ? b : best),
    undefined,
  );
}

function flatten(issue: Issue, base: PropertyKey[]): Array<{ path: PropertyKey[]; message: string }> {
  const path = [...base, ...issue.path];
  const branch = issue.code === 'invalid_union' ? bestBranch(issue.errors) : undefined;
  // A branch that failed at its own root says no more than the union's message.
  if (branch?.some((inner) => inner.path.length > 0 || inner.code === 'invalid_union'))
    return branch.flatMap((inner) => flatten(inner, path));
  return [{ path, message: issue.message }];
}

/** Formats zod issues as `turns[0].reply.content[1].name: message; …` on one line. */
export function formatIssues(error: z.core.$ZodError): string {
  return error.issues
    .flatMap((issue) => flatten(issue, []))
    .map(({ path, message }) => {
      const where = path
        .map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`))
        .join('');
      return `${where || '(root)'}: ${message.replaceAll('\n', ' ')}`;
    })
    .join('; ');
}

/** Validates a scenario object; throws ScenarioError. `source` prefixes the message. */
export function parseScenario(value: unknown, source = 'scenario'): Scenario {
  const result = scenarioSchema.safeParse(value);
  if (!result.success) throw new ScenarioError(`${source}: ${formatIssues(result.error)}`);
  return result.data;
}

/** Validates one scripted reply (e.g. the result of a reply function). */
export function parseScriptedReply(value: unknown, source = 'reply'): ScriptedReply {
  const result = scriptedReplySchema.safeParse(value);
  if (!result.success) throw new ScenarioError(`${source}: ${formatIssues(result.error)}`);
  return result.data;
}

/** Reads a `.json` file as JSON and anything else as YAML, then validates it. */
export async function loadScenarioFile(path: string): Promise<Scenario> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ScenarioError(`cannot read scenario file ${path}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = extname(path).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    // YAML errors carry a multi-line code frame; the first line names the position.
    const firstLine = (error as Error).message.split('\n')[0];
    throw new ScenarioError(`${path}: invalid ${extname(path).slice(1) || 'YAML'}: ${firstLine}`);
  }
  return parseScenario(value, path);
}
