/**
 * /memory opens the memory files in the user's editor; /init asks the model to write the
 * project's memory file. Both work on the file `#` appends to (interactive/memory-append.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { yokeHome } from '../../config/paths';
import { projectMemoryFile } from '../../interactive/memory-append';
import { commandHeader } from '../../skills/command-header';
import type { CommandHost, LocalCommand, UiCommand } from '../types';

/** The files /memory offers: the project's file, the user's own, and every file the session loaded. */
function memoryChoices(host: CommandHost): string[] {
  const project = projectMemoryFile(host.projectRoot).path;
  const user = join(yokeHome(host.env), 'AGENTS.md');
  const loaded = host.context().memoryFiles.map((f) => f.path);
  return [...new Set([project, user, ...loaded])];
}

/** The numbered list; the project's or the user's file that does not exist yet says so. */
function listing(host: CommandHost, choices: readonly string[]): string[] {
  const loaded = new Set(host.context().memoryFiles.map((f) => f.path));
  return choices.map(
    (path, i) => `  ${i + 1}. ${path}${loaded.has(path) || existsSync(path) ? '' : ' (not created yet)'}`,
  );
}

// Opens an editor on the terminal: it needs the screen.
export const memoryCommand: UiCommand = {
  kind: 'ui',
  name: 'memory',
  description: 'Edit the memory files in $EDITOR (project, user, or one by number)',
  argumentHint: '[project | user | number]',
  async run(args, host) {
    const choices = memoryChoices(host);
    const files = listing(host, choices);
    let path: string | undefined;
    if (args === '' || args === 'project') path = choices[0];
    else if (args === 'user') path = choices[1];
    else if (/^\d+$/.test(args)) path = choices[Number(args) - 1];
    if (path === undefined)
      return { kind: 'text', text: [`No memory file "${args}". The files:`, ...files].join('\n') };
    const result = await host.openInEditor(path);
    if (result.opened) {
      return {
        kind: 'text',
        text: `Edited ${path}. The change applies from the next conversation (/clear) or resumed session.`,
      };
    }
    return {
      kind: 'text',
      text: [`${result.reason}`, 'Memory files:', ...files].join('\n'),
    };
  },
};

function initPrompt(file: ReturnType<typeof projectMemoryFile>): string {
  const task = file.exists
    ? `Read ${file.name} in the project root and update it: keep what is still true, correct what is not, and add what is missing.`
    : 'Create AGENTS.md in the project root.';
  return [
    `${task} It is the file coding agents read at the start of every session in this repository, so it should hold what an agent cannot cheaply work out on its own:`,
    '- how to build, test (a whole suite and a single test), lint and run the project, with the exact commands;',
    '- the architecture in a few lines: the main folders and how they depend on each other;',
    '- conventions that differ from the defaults of the language or framework, and rules the code review enforces.',
    'Look at the build files, CI configuration, README and existing agent or editor rule files (such as .cursorrules or .github/copilot-instructions.md) before writing; take their facts, not their wording.',
    'Keep it short and specific to this project: no generic advice, no lists of every file, nothing you have not verified in the repository.',
  ].join('\n');
}

export const initCommand: LocalCommand = {
  kind: 'local',
  name: 'init',
  description: 'Ask the model to write AGENTS.md for this project (or update the existing file)',
  async run(_args, host) {
    const file = projectMemoryFile(host.projectRoot);
    return {
      kind: 'prompt',
      // Under the header a prompt command's expansion has: a resume and the picker show it as /init.
      prompt: `${commandHeader({ name: 'init' }, '')}\n${initPrompt(file)}`,
      display: file.exists ? `/init (update ${file.name})` : '/init (write AGENTS.md)',
    };
  },
};
