/**
 * A prompt of a resumed conversation, split into what the user did ahead of it. The REPL sends
 * the `!command`s run and the `#notes` written since the last turn before the prompt, in the
 * tags Claude Code keeps them in (`<bash-input>`… and `<user-memory-input>`); a resume shows them
 * as they were shown when they happened, not as tags — and a command's expansion as the command.
 */

import { typedCommand } from '../../session/session-list';
import type { TranscriptItem } from './items';

/** bang-command.ts's `conversationText`: the command, its output, and its errors with the exit code. */
const SHELL =
  /^<bash-input>([\s\S]*?)<\/bash-input>\n<bash-stdout>([\s\S]*?)<\/bash-stdout><bash-stderr>([\s\S]*?)<\/bash-stderr>(?:\n\n|$)/;
/** memory-append.ts's `memoryNoteContext`. */
const NOTE = /^<user-memory-input>([\s\S]*?)<\/user-memory-input>(?:\n\n|$)/;
const EXIT_CODE = /(?:^|\n)Exit code (\d+)$/;

/** The items a past prompt shows as: its `!command`s, its `#notes` and the prompt, in order. */
export function pastPromptItems(text: string, newId: (prefix: string) => string): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  let rest = text;
  for (;;) {
    const shell = SHELL.exec(rest);
    const note = shell ? undefined : NOTE.exec(rest);
    if (shell) {
      const [whole, command = '', stdout = '', stderr = ''] = shell;
      const exit = EXIT_CODE.exec(stderr);
      const errors = exit ? stderr.slice(0, exit.index) : stderr;
      const output = [stdout, errors].filter((part) => part !== '').join('\n');
      items.push({
        kind: 'shell',
        id: newId('shell'),
        command,
        output,
        exitCode: exit ? Number(exit[1]) : 0,
      });
      rest = rest.slice(whole.length);
    } else if (note) {
      items.push({ kind: 'user', id: newId('user'), text: `#${note[1] ?? ''}`, past: true });
      rest = rest.slice(note[0].length);
    } else break;
  }
  // A command's expansion (a skill's body under its header) shows as the `/name args` typed.
  const typed = typedCommand({ message: { content: rest } });
  if (rest.trim()) items.push({ kind: 'user', id: newId('user'), text: typed ?? rest, past: true });
  return items;
}
