import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { PERMISSION_MODES, type PermissionMode } from '../permissions/types';
import { reportCliError } from './errors';
import { readStdinPrompt } from './stdin';

type PrintFlags = {
  print?: boolean;
  model?: string;
  provider?: string;
  fallbackModel?: string;
  maxTurns?: number;
  maxBudgetUsd?: number;
  permissionMode?: PermissionMode;
  systemPrompt?: string;
  appendSystemPrompt?: string;
  jsonSchema?: string;
};

function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of at least 1.');
  return n;
}

function parsePositiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a number above 0.');
  return n;
}

function parsePermissionMode(value: string): PermissionMode {
  if ((PERMISSION_MODES as readonly string[]).includes(value)) return value as PermissionMode;
  throw new InvalidArgumentError(`expected one of ${PERMISSION_MODES.join(', ')}.`);
}

/** Parses argv and runs the chosen command. Returns the process exit code. */
export async function run(argv: string[]): Promise<number> {
  const program = new Command()
    .name('yoke')
    .description('Yoke: a coding agent for your terminal.')
    .version(`${YOKE_VERSION} (Yoke)`, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show this help')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => process.stdout.write(s),
      writeErr: (s) => process.stderr.write(s),
    });

  program
    .command('mock-server', { hidden: true })
    .description('run the scripted mock model server (for tests and benchmarks)')
    .requiredOption('--scenario <file>', 'scenario file (JSON or YAML)')
    .option('--port <port>', 'port to listen on (0 picks a free one)', '0')
    .option('--host <host>', 'interface to bind', '127.0.0.1')
    .action(async (opts: { scenario: string; port: string; host: string }) => {
      const { runMockServerCli } = await import('../testing/mock-server/cli');
      await runMockServerCli(opts);
    });

  program
    .argument('[prompt]', 'what to ask; read from stdin when omitted with -p')
    .option('-p, --print', 'answer one prompt without the interactive UI, then exit')
    .option('--model <model>', 'model id or alias (opus, sonnet, haiku)')
    .option('--provider <provider>', 'model API: anthropic or openai (OpenAI-compatible servers)')
    .option('--fallback-model <model>', 'model to switch to when the main one is overloaded')
    .option('--max-turns <n>', 'stop after this many agentic turns', parsePositiveInt)
    .option('--max-budget-usd <usd>', 'stop once the session has cost this much', parsePositiveNumber)
    .option(
      '--permission-mode <mode>',
      `permission mode: ${PERMISSION_MODES.join(', ')}`,
      parsePermissionMode,
    )
    .option('--system-prompt <text>', "replace Yoke's system prompt")
    .option('--append-system-prompt <text>', 'append to the system prompt')
    .option('--json-schema <schema>', 'make the final answer a JSON object matching this JSON Schema')
    .option('--debug', 'print stack traces for errors')
    .action(async (prompt: string | undefined, opts: PrintFlags) => {
      if (!opts.print) {
        process.stderr.write(
          'yoke: the interactive UI is not available yet; use -p "<prompt>" for a headless run.\n',
        );
        exitCode = 1;
        return;
      }
      const text = prompt ?? (await readStdinPrompt());
      if (!text.trim()) {
        process.stderr.write('yoke: no prompt given: pass it as an argument or on stdin.\n');
        exitCode = 1;
        return;
      }
      const { runPrint } = await import('./print');
      exitCode = await runPrint({
        prompt: text,
        model: opts.model,
        provider: opts.provider,
        fallbackModel: opts.fallbackModel,
        maxTurns: opts.maxTurns,
        maxBudgetUsd: opts.maxBudgetUsd,
        permissionMode: opts.permissionMode ?? 'default',
        systemPrompt: opts.systemPrompt,
        appendSystemPrompt: opts.appendSystemPrompt,
        jsonSchema: opts.jsonSchema,
        cwd: process.cwd(),
        env: process.env,
      });
    });

  let exitCode = 0;
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are "errors" to commander; their output is already written.
      return error.exitCode;
    }
    return reportCliError(error, argv.includes('--debug'));
  }
}
