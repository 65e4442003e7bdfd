/**
 * `yoke -p`: one prompt, headless. Prints the final assistant text to stdout; exit code 0 on
 * success, 1 when the turn ended in an error.
 */
import type { SDKResultMessage } from '../engine/sdk-messages';
import type { PermissionMode } from '../permissions/types';

export type PrintOptions = {
  prompt: string;
  model?: string;
  provider?: string;
  fallbackModel?: string;
  maxTurns?: number;
  maxBudgetUsd?: number;
  permissionMode: PermissionMode;
  systemPrompt?: string;
  appendSystemPrompt?: string;
  jsonSchema?: string;
  cwd: string;
  env: Record<string, string | undefined>;
};

export async function runPrint(options: PrintOptions): Promise<number> {
  const [
    { selectModel },
    { QueryEngine },
    { assembleToolPool },
    { registerCoreTools },
    { createBasicCanUseTool },
  ] = await Promise.all([
    import('../model/select'),
    import('../engine/query-engine'),
    import('../tools/registry'),
    import('../tools/builtin'),
    import('../permissions/basic-can-use-tool'),
  ]);
  const selection = await selectModel({
    model: options.model,
    provider: options.provider,
    fallbackModel: options.fallbackModel,
    env: options.env,
  });
  registerCoreTools();
  const permissionContext = { mode: options.permissionMode, rules: [], additionalDirectories: [] };
  const engine: InstanceType<typeof QueryEngine> = new QueryEngine({
    cwd: options.cwd,
    provider: selection.provider,
    model: selection.model,
    fallback: selection.fallbackModel
      ? { provider: selection.provider, model: selection.fallbackModel }
      : undefined,
    tools: assembleToolPool(permissionContext),
    canUseTool: createBasicCanUseTool(() => engine.permissionMode),
    permissionContext,
    customSystemPrompt: options.systemPrompt,
    appendSystemPrompt: options.appendSystemPrompt,
    maxTurns: options.maxTurns,
    maxBudgetUsd: options.maxBudgetUsd,
    jsonSchema: options.jsonSchema ? parseJsonSchema(options.jsonSchema) : undefined,
    env: options.env,
  });

  let result: SDKResultMessage | undefined;
  for await (const message of engine.submitMessage(options.prompt)) {
    if (message.type === 'result') result = message;
  }
  if (!result) throw new Error('The turn ended without a result.');
  if (result.subtype !== 'success' || result.is_error) {
    const errors = 'errors' in result ? result.errors : [];
    process.stderr.write(`yoke: ${errors.join('; ') || 'the turn failed'}\n`);
    return 1;
  }
  const text = result.result;
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  return 0;
}

function parseJsonSchema(text: string): Record<string, unknown> {
  try {
    const schema = JSON.parse(text) as unknown;
    if (schema && typeof schema === 'object' && !Array.isArray(schema))
      return schema as Record<string, unknown>;
  } catch {
    // fall through to the one-line error below
  }
  throw new Error('--json-schema must be a JSON object.');
}
