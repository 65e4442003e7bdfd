/**
 * Structured output (`--json-schema`): a synthetic `StructuredOutput` tool whose input schema is
 * the user's schema. The runner validates the model's call against it, so invalid output goes
 * back to the model as an error to fix; the last valid input becomes `result.structured_output`.
 */
// Classic zod, as the one place in Yoke: mini has no `fromJSONSchema`. The query engine imports
// this module only for a turn with a JSON schema, so classic zod never loads otherwise.
import { z } from 'zod';
import type { JsonSchemaObject } from '../model/types';
import { type AnyTool, buildTool, ToolError } from '../tools/tool';

export const STRUCTURED_OUTPUT_TOOL_NAME = 'StructuredOutput';
export const STRUCTURED_OUTPUT_SUCCESS = 'Structured output provided successfully';

export type StructuredOutputCapture = { value: unknown; provided: boolean };

/** `label` names where the schema came from in errors: `--json-schema`, or an Agent call's `report_schema`. */
export function createStructuredOutputTool(
  schema: Record<string, unknown>,
  capture: StructuredOutputCapture,
  label = '--json-schema',
): AnyTool {
  if (schema.type !== 'object') {
    throw new Error(`${label} must describe a JSON object (its "type" must be "object").`);
  }
  let inputSchema: z.ZodType<Record<string, unknown>>;
  try {
    inputSchema = z.fromJSONSchema(schema) as z.ZodType<Record<string, unknown>>;
  } catch (error) {
    throw new Error(`${label} is not a usable JSON Schema: ${(error as Error).message}`);
  }
  const { $schema: _ignored, ...apiSchema } = schema;
  return buildTool<Record<string, unknown>, Record<string, unknown>>({
    name: STRUCTURED_OUTPUT_TOOL_NAME,
    tier: 'read',
    inputSchema,
    inputJsonSchema: apiSchema as JsonSchemaObject,
    prompt:
      'Return your final answer by calling this tool exactly once, with input that matches its schema. Call it as the last step, after your work is done; do not describe the answer in text instead.',
    description: () => 'Provide structured output',
    isConcurrencySafe: () => true,
    isReadOnly: () => true,
    async call(input) {
      if (input === null || typeof input !== 'object')
        throw new ToolError('The output must be a JSON object.');
      capture.value = input;
      capture.provided = true;
      return { data: input, content: STRUCTURED_OUTPUT_SUCCESS };
    },
  });
}
