/**
 * argv → `CliOptions`: the pre-pass, commander, then validation. Throws `CliUsageError` for a bad
 * flag or value, and commander's `CommanderError` after printing help or the version.
 */
import { flagTable, prepassArgv } from './argv-prepass';
import { type CliOptions, toCliOptions } from './cli-options';
import { CliUsageError } from './errors';
import { buildProgram } from './program';
import { strayWordsProblem } from './stray-words';

export type ParsedArgs = { options: CliOptions; warnings: string[] };

export function parseCliArgs(argv: readonly string[]): ParsedArgs {
  let parsed: { prompt: string | undefined; raw: Record<string, unknown> } | undefined;
  const program = buildProgram({
    onRoot: (prompt, raw) => {
      parsed = { prompt, raw };
    },
    onMockServer: async () => {},
  });
  const { args, warnings } = prepassArgv(argv, flagTable(program));
  const stray = strayWordsProblem(args);
  if (stray !== undefined) throw new CliUsageError(stray);
  program.parse(args, { from: 'user' });
  if (!parsed) throw new Error('The command line did not reach the main command.');
  return { options: toCliOptions(parsed.prompt, parsed.raw), warnings };
}
