/**
 * The built-in tools, registered once per process. Tool modules are light (heavy helpers such as
 * the shell parser, turndown or sharp load on first use), so importing them all costs little.
 */
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

export function coreTools(): AnyTool[] {
  return [
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
}

let registered = false;

export function registerCoreTools(): void {
  if (registered) return;
  registerBuiltinTools(coreTools());
  registered = true;
}
