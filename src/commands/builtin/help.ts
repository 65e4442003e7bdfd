/** /help: the session's commands (built-in and, later, the user's), the input prefixes and the keys. */
import { wrapWords } from '../../lib/wrap-words';
import type { Command, LocalCommand } from '../types';

const INPUT_HINTS = [
  '!command   run a shell command; its output joins the conversation',
  '#text      add a line to the project memory file (AGENTS.md or CLAUDE.md)',
  '@path      attach a file to the prompt (Tab completes paths)',
];

/** The interactive UI's keys, as the README's interactive section lists them; each fits 80 columns. */
const KEY_HINTS = [
  ['Enter', 'send; \\+Enter, Ctrl+J, Shift+Enter or Alt+Enter: a new line'],
  ['Esc', 'interrupt the running turn'],
  ['Ctrl+C', 'clear the line; on an empty line twice: quit (so does Ctrl+D)'],
  ['Up/Down', 'move in the prompt, then through earlier ones (Ctrl+R searches)'],
  ['Tab', 'complete an @path or a /command'],
  ['Shift+Tab', 'cycle the mode: default, accept edits, plan'],
  ['Ctrl+O', 'show tool output in full'],
  ['Ctrl+T', 'show the todo list'],
  ['Ctrl+G', 'edit the prompt in $VISUAL or $EDITOR'],
  ['Ctrl+Z', 'suspend (fg brings Yoke back)'],
].map(([key, what]) => `${(key as string).padEnd(11)}${what}`);

/** The widest usage that shares its line with the description. */
const USAGE_COLUMN = 24;

export const helpCommand: LocalCommand = {
  kind: 'local',
  name: 'help',
  description: 'List the commands, input shortcuts and keys',
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
    // One long usage (/permissions has many arguments) must not push every description off to the
    // right, where an 80-column terminal wraps each of them: such a usage gets a line of its own.
    const width = Math.min(USAGE_COLUMN, Math.max(...commands.map((c) => usage(c).length)));
    // In a terminal, a description wider than its room wraps under itself, not under the names.
    const columns = host.textColumns?.() ?? Number.POSITIVE_INFINITY;
    const room = columns - width - 4;
    const under = ' '.repeat(width + 4);
    const lines = ['Commands:'];
    for (const command of commands) {
      const shown = usage(command);
      const [first = '', ...rest] = wrapWords(command.description, Math.max(room, 20));
      if (shown.length <= width) lines.push(`  ${shown.padEnd(width)}  ${first}`);
      else {
        const [usageFirst, ...usageRest] = wrapWords(shown, Math.max(columns - 4, 20));
        lines.push(`  ${usageFirst}`, ...usageRest.map((line) => `    ${line}`), `${under}${first}`);
      }
      for (const line of rest) lines.push(`${under}${line}`);
    }
    lines.push('', 'Input:', ...INPUT_HINTS.map((h) => `  ${h}`));
    lines.push('', 'Keys:', ...KEY_HINTS.map((h) => `  ${h}`));
    return { kind: 'text', text: lines.join('\n') };
  },
};

function usage(command: Command): string {
  return command.argumentHint ? `/${command.name} ${command.argumentHint}` : `/${command.name}`;
}
