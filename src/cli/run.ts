import { Command, CommanderError } from 'commander';
import { reportCliError } from './errors';

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

  program.action(() => {
    program.outputHelp();
  });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are "errors" to commander; their output is already written.
      return error.exitCode;
    }
    return reportCliError(error, argv.includes('--debug'));
  }
}
