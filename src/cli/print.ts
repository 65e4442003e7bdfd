/**
 * `yoke -p`: one headless run. A text prompt (argument or stdin) runs one turn and prints it in
 * the chosen output format; `--input-format stream-json` hands stdin and stdout to the SDK
 * protocol. Returns the exit code: 0 when the last result succeeded, 1 otherwise.
 */
import type { CliOptions } from './cli-options';
import type { DebugLog } from './debug-log';
import { CliUsageError } from './errors';
import { createOutputSink } from './output/sink';
import { createSessionEngine, type Env } from './session-setup';
import { readStdinPrompt } from './stdin';

export type PrintContext = {
  env: Env;
  cwd: string;
  log: DebugLog;
  /** Told each time a reply has been written (see RunHooks). */
  startupComplete?: () => void;
};

export async function runPrint(options: CliOptions, context: PrintContext): Promise<number> {
  if (options.inputFormat === 'stream-json') return runStreamJson(options, context);

  const prompt = options.prompt ?? (await readStdinPrompt());
  if (!prompt.trim()) throw new CliUsageError('no prompt given: pass it as an argument or on stdin.');

  const { engine, selection, tools, warnings } = await createSessionEngine(
    options,
    context.env,
    context.cwd,
    context.log,
  );
  for (const warning of warnings) context.log.warn(warning);
  context.log.debug(
    `model ${selection.model} via ${selection.providerName}; tools: ${tools.map((t) => t.name).join(', ')}`,
  );

  // The streams are looked up on first write: creating process.stdout or process.stderr costs
  // milliseconds, and text or json output writes nothing before the model has answered.
  const sink = await createOutputSink(options.outputFormat, options.verbose, {
    stdout: { write: (text: string) => process.stdout.write(text) },
    stderr: { write: (text: string) => process.stderr.write(text) },
  });
  // Ctrl-C ends the turn the normal way, so the output still gets its result.
  const onSigint = () => engine.interrupt();
  process.once('SIGINT', onSigint);
  try {
    for await (const message of engine.submitMessage(prompt)) {
      if (message.type === 'result')
        context.log.debug(`result: ${message.subtype} after ${message.num_turns} turns`);
      sink.write(message);
      if (message.type === 'assistant' || message.type === 'result') context.startupComplete?.();
    }
  } finally {
    process.off('SIGINT', onSigint);
    await engine.close();
  }
  return sink.finish();
}

async function runStreamJson(options: CliOptions, context: PrintContext): Promise<number> {
  if (options.prompt !== undefined) {
    context.log.warn(
      'ignoring the prompt argument: with --input-format stream-json the prompt comes on stdin',
    );
  }
  const { runStreamJsonSession } = await import('../sdk/session');
  return runStreamJsonSession({
    cliOptions: options,
    createEngine: async (sessionOptions) => {
      const setup = await createSessionEngine(sessionOptions, context.env, context.cwd, context.log);
      for (const warning of setup.warnings) context.log.warn(warning);
      return setup;
    },
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: context.env,
    onReply: context.startupComplete,
  });
}
