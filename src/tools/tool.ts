/**
 * The tool contract (seed 000 §3.3.1). Every tool the model can call — built-in, MCP or
 * synthetic — is a `Tool`; `buildTool` fills the conservative defaults so a definition states
 * only what is special about it.
 */
import * as z from '../lib/zod';
import type { JsonSchemaObject, ToolResultContent } from '../model/types';
import type { ToolAccess, ToolPermissionResult } from '../permissions/types';
import type { Message } from '../session/messages';
import type { ToolUseContext } from './context';

/** How much a tool can change: plan mode and read-only agents get only `read` tools. */
export type ToolTier = 'read' | 'write' | 'exec';

export type ValidationResult = { ok: true } | { ok: false; message: string };

export type ToolProgress = { toolUseId: string; data: Record<string, unknown> };

export type ToolResult<Out> = {
  /** Structured output: `tool_use_result` on the wire, `toolResponse` for hooks. */
  data: Out;
  /** What the model sees; when absent, `mapResultToContent(data)` is used. */
  content?: ToolResultContent;
  /** Report to the model as a failure while still returning data (e.g. a command's non-zero exit). */
  isError?: boolean;
  /** Applied to the context for later tools in the same turn (e.g. Bash's remembered cwd). */
  contextModifier?: (context: ToolUseContext) => ToolUseContext;
  /** Extra messages to append after the tool result (e.g. an image a tool produced). */
  newMessages?: Message[];
};

/** Thrown by a tool to fail the call with a message written for the model. */
export class ToolError extends Error {
  override name = 'ToolError';
  constructor(readonly messageForModel: string) {
    super(messageForModel);
  }
}

export type ToolInput = Record<string, unknown>;

/**
 * Whether a tool can work on this machine, where it needs something beyond Node (a binary, a
 * native module, a wasm file). `unavailable`: the tool is not offered, since every call would
 * fail; `degraded`: offered, but part of it cannot work. `reason` is one line for the user that
 * says what is missing and how to get it.
 */
export type ToolAvailability =
  | { status: 'available' }
  | { status: 'unavailable'; reason: string }
  | { status: 'degraded'; reason: string };

export interface Tool<In extends ToolInput = ToolInput, Out = unknown> {
  readonly name: string;
  /** Legacy names the runner, rules and hooks also accept (e.g. `KillShell` for `TaskStop`). */
  readonly aliases: readonly string[];
  readonly inputSchema: z.ZodMiniType<In>;
  /** The JSON Schema sent to the API (derived from `inputSchema` unless given, as for MCP). */
  readonly inputJsonSchema: JsonSchemaObject;
  readonly tier: ToolTier;
  readonly isMcp: boolean;
  /** What its calls touch as permission rules see them: a command line, a file, a URL (`ToolAccess`). */
  readonly access: ToolAccess;
  /**
   * Plan mode offers it although its tier is above `read`: its read-only calls are how a plan
   * gets made, and the permission decision denies the rest in plan mode (Bash).
   */
  readonly keptInPlanMode: boolean;
  /**
   * A failed call stops the calls running beside it from the same response: later steps usually
   * depend on its effect (a shell command). Other failures leave their siblings running.
   */
  readonly failureCancelsSiblings: boolean;
  /** Results longer than this are saved to a file and the model gets a preview and the path. */
  readonly maxResultSizeChars: number;
  /**
   * The schema may wait behind ToolSearch when the pool's schemas are large: true for MCP tools
   * unless their server's config says `alwaysLoad`. Absent: always sent up front.
   */
  readonly deferrable?: boolean;
  /** The model-facing description. */
  prompt(): string;
  /** A short human label for one call, e.g. "Read src/main.ts". */
  description(input: In): string;
  validateInput(input: In, context: ToolUseContext): Promise<ValidationResult>;
  checkPermissions(input: In, context: ToolUseContext): Promise<ToolPermissionResult>;
  isConcurrencySafe(input: In): boolean | Promise<boolean>;
  isReadOnly(input: In): boolean | Promise<boolean>;
  /**
   * The call may delete or overwrite data that cannot be recovered (an MCP tool's
   * `destructiveHint`): the question about it warns so, and no auto-mode classifier may allow it.
   */
  isDestructive(input: In): boolean;
  /** On user interrupt: `cancel` aborts the call; `block` lets it finish. */
  interruptBehavior(): 'cancel' | 'block';
  isEnabled(): boolean;
  /** Checked when a session assembles its pool (cheap: file lookups, no module loads). */
  availability(env: Readonly<Record<string, string | undefined>>): ToolAvailability;
  /** The compact text an auto-mode classifier judges; security-relevant tools override it. */
  toAutoClassifierInput(input: In): string;
  call(
    input: In,
    context: ToolUseContext,
    onProgress: (progress: ToolProgress) => void,
  ): Promise<ToolResult<Out>>;
  mapResultToContent(output: Out): ToolResultContent;
}

/** A tool of unknown input/output types, as registries and runners hold them. */
// biome-ignore lint/suspicious/noExplicitAny: the variance of In/Out makes `unknown` unusable for a heterogeneous pool.
export type AnyTool = Tool<any, any>;

export type ToolDefinition<In extends ToolInput, Out> = Pick<
  Tool<In, Out>,
  'name' | 'inputSchema' | 'tier'
> & {
  prompt: string | (() => string);
  call: Tool<In, Out>['call'];
} & Partial<Omit<Tool<In, Out>, 'name' | 'inputSchema' | 'tier' | 'prompt' | 'call'>>;

export const DEFAULT_MAX_RESULT_SIZE_CHARS = 100_000;

/** Turns a zod schema into the JSON Schema the API gets: closed objects, no meta noise. */
export function toInputJsonSchema(schema: z.ZodMiniType): JsonSchemaObject {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  stripSafeIntegerBounds(json);
  if (json.type !== 'object') throw new Error('A tool input schema must be an object schema.');
  json.additionalProperties = false;
  return json as JsonSchemaObject;
}

// zod emits ±Number.MAX_SAFE_INTEGER for `.int()`; it is noise in every request.
function stripSafeIntegerBounds(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) stripSafeIntegerBounds(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if (record.maximum === Number.MAX_SAFE_INTEGER) delete record.maximum;
  if (record.minimum === Number.MIN_SAFE_INTEGER) delete record.minimum;
  for (const value of Object.values(record)) stripSafeIntegerBounds(value);
}

function defaultMapResult(output: unknown): ToolResultContent {
  if (typeof output === 'string') return output;
  return JSON.stringify(output, null, 2);
}

/**
 * Builds a tool from a definition, with safe defaults: not concurrent, not read-only, blocking,
 * touching nothing the permission rules know (`access: 'none'`), hidden in plan mode above `read`.
 */
export function buildTool<In extends ToolInput, Out>(def: ToolDefinition<In, Out>): Tool<In, Out> {
  const { prompt, ...rest } = def;
  let jsonSchema = def.inputJsonSchema;
  return {
    aliases: [],
    isMcp: false,
    access: 'none',
    keptInPlanMode: false,
    failureCancelsSiblings: false,
    maxResultSizeChars: DEFAULT_MAX_RESULT_SIZE_CHARS,
    description: () => def.name,
    validateInput: async () => ({ ok: true }),
    checkPermissions: async () => ({ behavior: 'passthrough' }),
    isConcurrencySafe: () => false,
    isReadOnly: () => false,
    isDestructive: () => false,
    interruptBehavior: () => 'block',
    isEnabled: () => true,
    availability: () => ({ status: 'available' }),
    toAutoClassifierInput: () => '',
    mapResultToContent: defaultMapResult,
    ...rest,
    prompt: typeof prompt === 'string' ? () => prompt : prompt,
    get inputJsonSchema() {
      jsonSchema ??= toInputJsonSchema(def.inputSchema);
      return jsonSchema;
    },
  };
}
