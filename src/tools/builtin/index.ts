/**
 * The built-in tools, made fresh for each session by `createBuiltinTools`: the composition root
 * passes them to `assembleToolPool`. A tool holds no session state (that comes with each call's
 * `context.services`), so the tools without dependencies are shared constants; a tool with
 * dependencies (WebFetch's summarizer, limits and DNS) has its own factory. Tool modules are
 * light (heavy helpers such as the shell parser, turndown or sharp load on first use), so
 * importing them all costs little.
 */

import { rememberSchemaTokens } from '../../model/tokens';
import type { JsonSchemaObject } from '../../model/types';
import type { AnyTool } from '../tool';
import { astEditTool } from './ast-edit';
import { astGrepTool } from './ast-grep';
import { bashTool } from './bash';
import { editTool } from './edit';
import { globTool } from './glob';
import { grepTool } from './grep';
import { lspTool } from './lsp';
import { lspRenameTool } from './lsp-rename';
import { multiEditTool } from './multi-edit';
import { notebookEditTool } from './notebook-edit';
import { enterPlanModeTool, exitPlanModeTool } from './plan-mode';
import { readTool } from './read';
import { resolveTool } from './resolve';
import { skillTool } from './skill';
import { taskOutputTool } from './task-output';
import { taskStopTool } from './task-stop';
import { todoWriteTool } from './todo-write';
import { toolSearchTool } from './tool-search';
import { createWebFetchTool, type WebFetchDependencies } from './web-fetch';
import { writeTool } from './write';

/**
 * In the built CLI, the JSON Schemas these tools send to the API, converted from their zod
 * schemas at build time (scripts/build.mjs): converting them at every start cost a few ms on the
 * way to the first request. Absent under vitest, where each tool converts its own on first use.
 */
declare const YOKE_BUILTIN_TOOL_SCHEMAS: Readonly<Record<string, JsonSchemaObject>>;
/** And each one's `estimateSchemaTokens`, counted by the build too. */
declare const YOKE_BUILTIN_SCHEMA_TOKENS: Readonly<Record<string, number>>;
const prebuiltSchemas =
  typeof YOKE_BUILTIN_TOOL_SCHEMAS === 'undefined' ? undefined : YOKE_BUILTIN_TOOL_SCHEMAS;
const prebuiltSchemaTokens =
  typeof YOKE_BUILTIN_SCHEMA_TOKENS === 'undefined' ? undefined : YOKE_BUILTIN_SCHEMA_TOKENS;

export function applyPrebuiltSchemas(tools: readonly AnyTool[]): void {
  if (!prebuiltSchemas) return;
  for (const tool of tools) {
    const schema = prebuiltSchemas[tool.name];
    // Replaces the converting getter on the tool itself, so the pool keeps the same objects. A
    // shared tool gets the same value again: the schema is a fact of the build, not of a session.
    if (!schema) continue;
    Object.defineProperty(tool, 'inputJsonSchema', { value: schema, enumerable: true });
    const tokens = prebuiltSchemaTokens?.[tool.name];
    if (tokens !== undefined) rememberSchemaTokens(schema, tokens);
  }
}

export type BuiltinToolDeps = {
  webFetch?: WebFetchDependencies;
  /**
   * Someone can answer the model (the interactive UI, an SDK host taking permission prompts):
   * EnterPlanMode and ExitPlanMode ask every time, so without anyone to ask they are left out.
   */
  canAskUser?: boolean;
};

/** Every built-in tool, unfiltered (`assembleToolPool` applies the mode, deny rules and order). */
export function createBuiltinTools(deps: BuiltinToolDeps = {}): AnyTool[] {
  const tools = [
    astEditTool,
    astGrepTool,
    bashTool,
    editTool,
    globTool,
    grepTool,
    lspTool,
    lspRenameTool,
    multiEditTool,
    notebookEditTool,
    readTool,
    resolveTool,
    skillTool,
    taskOutputTool,
    taskStopTool,
    todoWriteTool,
    toolSearchTool,
    createWebFetchTool(deps.webFetch),
    writeTool,
    ...(deps.canAskUser ? [enterPlanModeTool, exitPlanModeTool] : []),
  ];
  applyPrebuiltSchemas(tools);
  return tools;
}
