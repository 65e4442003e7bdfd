/**
 * Checking a tool call's input and explaining what is wrong in words the model can act on: one
 * line per bad field with what was expected, instead of a raw validator dump.
 */
import type * as z from '../lib/zod';
import type { ToolUseContext } from './context';
import type { AnyTool, ToolInput } from './tool';

export type InputCheck = { ok: true; input: ToolInput } | { ok: false; message: string };

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function fieldName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(input)';
  return path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const field = fieldName(issue.path);
  if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) {
    return `${field}: required field is missing (expected ${issue.expected})`;
  }
  if (issue.code === 'unrecognized_keys') {
    return `${field}: unexpected field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`;
  }
  // zod's own wording is precise ("expected string, received number"); drop its generic prefix.
  return `${field}: ${issue.message.replace(/^Invalid input: /, '')}`;
}

/** Formats zod issues as the is_error text the model gets back. */
export function formatInputIssues(
  toolName: string,
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
): string {
  const lines = issues.map((issue) => `- ${describeIssue(issue, input)}`);
  return `InputValidationError: the input for ${toolName} is invalid:\n${lines.join('\n')}`;
}

/** The is_error text for a tool_use whose streamed input was not valid JSON. */
export function describeMalformedInput(toolName: string, raw: string): string {
  let problem = 'it could not be parsed';
  try {
    JSON.parse(raw);
    problem = 'it is not a JSON object';
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  const shown = raw.length > 500 ? `${raw.slice(0, 500)}… (${raw.length} characters)` : raw;
  return (
    `InputValidationError: the input for ${toolName} was not valid JSON (${problem}). ` +
    `Received: ${shown || '(empty)'}\nSend the input again as one JSON object matching the tool's schema.`
  );
}

/** Schema check, then the tool's own semantic check; returns the parsed input on success. */
export async function checkToolInput(
  tool: AnyTool,
  input: unknown,
  context: ToolUseContext,
): Promise<InputCheck> {
  const parsed = tool.inputSchema.safeParse(input);
  if (!parsed.success)
    return { ok: false, message: formatInputIssues(tool.name, parsed.error.issues, input) };
  const validation = await tool.validateInput(parsed.data, context);
  if (!validation.ok) return { ok: false, message: validation.message };
  return { ok: true, input: parsed.data };
}
