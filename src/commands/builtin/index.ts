/** The built-in commands, and a session's registry that starts with them. */
import { createCommandRegistry } from '../registry';
import type { Command, CommandRegistry } from '../types';
import { doctorCommand } from './doctor';
import { helpCommand } from './help';
import { mcpCommand } from './mcp';
import { initCommand, memoryCommand } from './memory';
import { modelCommand } from './model';
import { permissionsCommand } from './permissions';
import { reloadPluginsCommand } from './reload-plugins';
import { sandboxCommand } from './sandbox';
import { clearCommand, compactCommand, exitCommand, resumeCommand } from './session-flow';
import { tasksCommand } from './tasks';
import { contextCommand, costCommand, statusCommand } from './usage';

export function builtinCommands(): Command[] {
  return [
    helpCommand,
    clearCommand,
    compactCommand,
    modelCommand,
    costCommand,
    contextCommand,
    statusCommand,
    permissionsCommand,
    sandboxCommand,
    resumeCommand,
    memoryCommand,
    initCommand,
    doctorCommand,
    tasksCommand,
    mcpCommand,
    reloadPluginsCommand,
    exitCommand,
  ];
}

/** A new registry for one session, holding the built-in commands. */
export function createSessionCommands(): CommandRegistry {
  return createCommandRegistry(builtinCommands().map((c) => ({ ...c, source: 'builtin' as const })));
}
