/**
 * The header a prompt command's expansion starts with (Claude Code's tags), which is how a
 * transcript, a resume and the session picker show it as the command typed. Its own module:
 * `/init` builds one in the REPL's command table, which must not load the expansion's code.
 */
import type { PromptCommandSpec } from './types';

export function commandHeader(spec: Pick<PromptCommandSpec, 'name'>, args: string): string {
  return `<command-message>${spec.name}</command-message>\n<command-name>/${spec.name}</command-name>\n<command-args>${args}</command-args>`;
}
