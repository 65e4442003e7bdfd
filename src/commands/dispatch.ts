/**
 * Runs a submitted `/name args` line: finds the command (an unknown name gets the nearest ones)
 * and turns a command that throws into a text outcome, so a failing command never takes the
 * REPL down and the user always sees one readable line.
 */
import { editDistance } from '../lib/edit-distance';
import { parseCommandLine } from './registry';
import type { CommandHost, CommandOutcome, CommandRegistry } from './types';

/** A path typed as a prompt (`/usr/bin/env?`) is not a mistyped command. */
export function looksLikePath(line: string, name: string): boolean {
  return name.includes('.') || line.trim().slice(1).includes('/');
}

/**
 * `Unknown command /x.` with the nearest names, for a typo. A command in a folder or a plugin has
 * its namespace in its name (`frontend:lint`, `formatter:fmt`): typed without it, the commands
 * whose last part it is come first — `/lint` means `/frontend:lint` far more often than `/init`.
 */
export function unknownCommandText(name: string, commands: CommandRegistry): string {
  const names = commands.list().flatMap((c) => [c.name, ...(c.aliases ?? [])]);
  const typed = name.toLowerCase();
  const namespaced = names.filter((n) => n.toLowerCase().endsWith(`:${typed}`));
  const typos = names
    .map((n) => ({ n, d: editDistance(typed, n) }))
    .filter((x) => x.d <= 2 && !namespaced.includes(x.n))
    .sort((a, b) => a.d - b.d)
    .map((x) => x.n);
  const near = [...namespaced, ...typos].slice(0, 3).map((n) => `/${n}`);
  const hint = near.length > 0 ? ` Did you mean ${near.join(', ')}?` : ' /help lists the commands.';
  return `Unknown command /${name}.${hint}`;
}

/** Undefined when the line is not a command of this session (the UI sends it as a prompt). */
export async function runCommandLine(line: string, host: CommandHost): Promise<CommandOutcome | undefined> {
  const parsed = parseCommandLine(line);
  if (!parsed) return undefined;
  const command = host.commands.find(parsed.name);
  if (!command) {
    // An MCP prompt's server may connect after the session started: the engine's input step
    // (process-user-input.ts) resolves it, or says it is unknown.
    if (looksLikePath(line, parsed.name) || parsed.name.startsWith('mcp__')) return undefined;
    return { kind: 'text', text: unknownCommandText(parsed.name, host.commands) };
  }
  try {
    return await command.run(parsed.args, host);
  } catch (error) {
    if (host.signal.aborted) return { kind: 'text', text: `/${command.name} was cancelled.` };
    return { kind: 'text', text: `/${command.name} failed: ${(error as Error).message}` };
  }
}
