/** /help: the session's commands (built-in and, later, the user's) and the input prefixes. */
import type { Command, LocalCommand } from '../types';

const INPUT_HINTS = [
  '!command   run a shell command; its output joins the conversation',
  '#text      add a line to the project memory file (AGENTS.md or CLAUDE.md)',
  '@path      attach a file to the prompt (Tab completes paths)',
];

export const helpCommand: LocalCommand = {
  kind: 'local',
  name: 'help',
  description: 'List the commands and input shortcuts',
  async run(args, host) {
    const wanted = args.replace(/^\//, '');
    if (wanted !== '') {
      const command = host.commands.find(wanted);
      if (!command) return { kind: 'text', text: `/${wanted} is not a command. /help lists them.` };
      const aliases = command.aliases?.length
        ? `\nAliases: ${command.aliases.map((a) => `/${a}`).join(', ')}`
        : '';
      return { kind: 'text', text: `${usage(command)}\n${command.description}${aliases}` };
    }
    const commands = [...host.commands.list()].sort((a, b) => a.name.localeCompare(b.name));
    const width = Math.max(...commands.map((c) => usage(c).length));
    const lines = ['Commands:'];
    for (const command of commands) lines.push(`  ${usage(command).padEnd(width)}  ${command.description}`);
    lines.push('', 'Input:', ...INPUT_HINTS.map((h) => `  ${h}`));
    return { kind: 'text', text: lines.join('\n') };
  },
};

function usage(command: Command): string {
  return command.argumentHint ? `/${command.name} ${command.argumentHint}` : `/${command.name}`;
}
