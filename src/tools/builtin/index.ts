/**
 * The built-in tools, registered once per process. Tool modules are light (heavy helpers such as
 * the shell parser, turndown or sharp load on first use), so importing them all costs little.
 */

import type { JsonSchemaObject } from '../../model/types';
import { registerBuiltinTools } from '../registry';
import type { AnyTool } from '../tool';
import { bashTool } from './bash';
import { editTool } from './edit';
import { globTool } from './glob';
import { grepTool } from './grep';
import { multiEditTool } from './multi-edit';
import { notebookEditTool } from './notebook-edit';
import { readTool } from './read';
import { taskOutputTool } from './task-output';
import { taskStopTool } from './task-stop';
import { todoWriteTool } from './todo-write';
import { webFetchTool } from './web-fetch';
import { writeTool } from './write';

/**
 * In the built CLI, the JSON Schemas these tools send to the API, converted from their zod
 * schemas at build time (scripts/build.mjs): converting them at every start cost a few ms on the
 * way to the first request. Absent under vitest, where each tool converts its own on first use.
 */
declare const YOKE_BUILTIN_TOOL_SCHEMAS: Readonly<Record<string, JsonSchemaObject>>;
const prebuiltSchemas =
  typeof YOKE_BUILTIN_TOOL_SCHEMAS === 'undefined' ? undefined : YOKE_BUILTIN_TOOL_SCHEMAS;
let prebuiltApplied = false;

function applyPrebuiltSchemas(tools: readonly AnyTool[]): void {
  if (prebuiltApplied || !prebuiltSchemas) return;
  prebuiltApplied = true;
  for (const tool of tools) {
    const schema = prebuiltSchemas[tool.name];
    // Replaces the converting getter on the tool itself, so the pool keeps the same objects.
    if (schema) Object.defineProperty(tool, 'inputJsonSchema', { value: schema, enumerable: true });
  }
}

export function coreTools(): AnyTool[] {
  const tools = [
    bashTool,
    editTool,
    globTool,
    grepTool,
    multiEditTool,
    notebookEditTool,
    readTool,
    taskOutputTool,
    taskStopTool,
    todoWriteTool,
    webFetchTool,
    writeTool,
  ];
  applyPrebuiltSchemas(tools);
  return tools;
}

let registered = false;

export function registerCoreTools(): void {
  if (registered) return;
  registerBuiltinTools(coreTools());
  registered = true;
}
