/**
 * Runs a submitted `/name args` line: finds the command (an unknown name gets the nearest ones)
 * and turns a command that throws into a text outcome, so a failing command never takes the
 * REPL down and the user always sees one readable line.
 */
import { editDistance } from '../lib/edit-distance';
import { parseCommandLine } from './registry';
import type { CommandHost, CommandOutcome } from './types';

/** Undefined when the line is not a command of this session (the UI sends it as a prompt). */
export async function runCommandLine(line: string, host: CommandHost): Promise<CommandOutcome | undefined> {
  const parsed = parseCommandLine(line);
  if (!parsed) return undefined;
  const command = host.commands.find(parsed.name);
  if (!command) {
    // A path typed as a prompt (`/usr/bin/env?`) is not a mistyped command.
    if (parsed.name.includes('.') || line.trim().slice(1).includes('/')) return undefined;
    const names = host.commands.list().flatMap((c) => [c.name, ...(c.aliases ?? [])]);
    const near = names
      .map((n) => ({ n, d: editDistance(parsed.name.toLowerCase(), n) }))
      .filter((x) => x.d <= 2)
      .sort((a, b) => a.d - b.d)
      .slice(0, 3)
      .map((x) => `/${x.n}`);
    const hint = near.length > 0 ? ` Did you mean ${near.join(', ')}?` : ' /help lists the commands.';
    return { kind: 'text', text: `Unknown command /${parsed.name}.${hint}` };
  }
  try {
    return await command.run(parsed.args, host);
  } catch (error) {
    if (host.signal.aborted) return { kind: 'text', text: `/${command.name} was cancelled.` };
    return { kind: 'text', text: `/${command.name} failed: ${(error as Error).message}` };
  }
}
