/**
 * The commands of one session. A value, not module state: each session (and each test) builds
 * its own, and the commands/skills issue registers user and project commands into it later.
 */
import type { Command, CommandRegistry, PromptCommand } from './types';

/** Names are what follows the slash: letters, digits, `-`, `_`, `:` (plugin namespaces), `.`. */
const NAME = /^[a-z0-9][a-z0-9:._-]*$/;

const enabled = (command: Command) => command.isEnabled?.() ?? true;
const listed = (command: Command) => enabled(command) && (command.kind !== 'prompt' || command.userInvocable);

export function createCommandRegistry(initial: readonly Command[] = []): CommandRegistry {
  let commands: Command[] = [];
  const byName = new Map<string, Command>();

  const keysOf = (command: Command) => [command.name, ...(command.aliases ?? [])].map(normalize);

  const registry: CommandRegistry = {
    list: () => commands.filter(listed),
    find(nameOrAlias) {
      const command = byName.get(normalize(nameOrAlias.replace(/^\//, '')));
      return command && enabled(command) ? command : undefined;
    },
    complete(prefix) {
      const wanted = normalize(prefix.replace(/^\//, ''));
      const ranked: { command: Command; rank: number }[] = [];
      for (const command of commands.filter(listed)) {
        const name = normalize(command.name);
        // The name itself beats an alias, so "/c" lists /clear, /compact, /context, /cost before an alias match.
        const rank = name.startsWith(wanted)
          ? 0
          : (command.aliases ?? []).some((a) => normalize(a).startsWith(wanted))
            ? 1
            : -1;
        if (rank >= 0) ranked.push({ command, rank });
      }
      return ranked
        .sort((a, b) => a.rank - b.rank || a.command.name.localeCompare(b.command.name))
        .map((r) => r.command);
    },
    register(command) {
      const keys = keysOf(command);
      for (const key of keys) {
        if (!NAME.test(key)) {
          throw new Error(
            `Cannot register command "/${key}": a command name uses letters, digits, "-", "_", ":" or "." and starts with a letter or digit.`,
          );
        }
        const taken = byName.get(key);
        if (taken)
          throw new Error(`Cannot register command "/${key}": it is already taken by /${taken.name}.`);
      }
      if (new Set(keys).size !== keys.length)
        throw new Error(`Cannot register command "/${command.name}": its name and aliases repeat.`);
      commands.push(command);
      for (const key of keys) byName.set(key, command);
    },
    setPromptCommands(prompts: readonly PromptCommand[]) {
      for (const old of commands.filter((c) => c.kind === 'prompt'))
        for (const key of keysOf(old)) byName.delete(key);
      commands = commands.filter((c) => c.kind !== 'prompt');
      for (const command of prompts) {
        if (keysOf(command).some((key) => byName.has(key))) continue;
        registry.register(command);
      }
    },
  };
  for (const command of initial) registry.register(command);
  return registry;
}

function normalize(name: string): string {
  return name.trim().toLowerCase();
}

/**
 * Splits a submitted line into the command and its arguments, or undefined when the line is not
 * a slash command (an absolute path like `/usr/bin/env` typed as a prompt is not one either: the
 * caller checks the name against the registry).
 */
export function parseCommandLine(line: string): { name: string; args: string } | undefined {
  const match = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (!match) return undefined;
  return { name: match[1] as string, args: (match[2] ?? '').trim() };
}
