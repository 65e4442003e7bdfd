/**
 * `yoke -p`: one headless run. A text prompt (argument or stdin) runs one turn and prints it in
 * the chosen output format; `--input-format stream-json` hands stdin and stdout to the SDK
 * protocol. Returns the exit code: 0 when the last result succeeded, 1 otherwise, and 128 + the
 * signal's number when a signal or a closed stdout ended the run (cli/shutdown.ts).
 */
import { streamTaskFrames } from '../agents/background/task-frames';
import { withInitialPrompt } from '../agents/main-agent';
import { startWriteJournal } from '../config/write-journal';
import type { SDKMessage, SDKResultMessage } from '../engine/sdk-messages';
import type { AnyTool } from '../tools/tool';
import { preloadBashAfterFirstRequest, preloadBashWhenIdle } from './bash-preload';
import type { CliOptions } from './cli-options';
import type { DebugLog } from './debug-log';
import { CliUsageError } from './errors';
import { createOutputSink } from './output/sink';
import { createSessionEngine, type Env } from './session-setup';
import { Shutdown } from './shutdown';
import { stderr, stdout } from './std-streams';
import { readStdinPrompt } from './stdin';

const NO_PROMPT = 'no prompt given: pass it as an argument or on stdin.';

export type PrintContext = {
  env: Env;
  cwd: string;
  log: DebugLog;
  /** Told each time a reply has been written (see RunHooks). */
  startupComplete?: () => void;
};

export async function runPrint(options: CliOptions, context: PrintContext): Promise<number> {
  if (options.inputFormat === 'stream-json') return runStreamJson(options, context);

  const given = options.prompt ?? (await readStdinPrompt());
  // An `--agent` with an initialPrompt needs no prompt of its own; that is known once it is loaded.
  if (!given.trim() && options.agent === undefined) throw new CliUsageError(NO_PROMPT);

  // From here on a signal ends the run cleanly; before, there is nothing to clean up.
  const shutdown = new Shutdown({ outputs: [stdout] });
  try {
    void startWriteJournal(context.env);
    const { engine, selection, tools, warnings, initialPrompt } = await createSessionEngine(
      options,
      context.env,
      context.cwd,
      context.log,
    );
    for (const warning of warnings) context.log.warn(warning);
    const prompt = withInitialPrompt(initialPrompt, given);
    if (!prompt) {
      await engine.close();
      throw new CliUsageError(`${NO_PROMPT} The agent ${options.agent} has no initialPrompt.`);
    }
    preloadBashAfterFirstRequest(tools);
    context.log.debug(
      `model ${selection.model} via ${selection.providerName}; tools: ${tools.map((t) => t.name).join(', ')}`,
    );
    const sink = await createOutputSink(options.outputFormat, options.verbose, { stdout, stderr });
    try {
      // A signal during the set-up means no turn at all; one during the turn ends it the normal
      // way (an interrupted turn still gets its result).
      if (shutdown.signal.aborted) return shutdown.exitCode(1);
      // A turn's result is held until it is known to be the last: background agents that end
      // after it get a turn of their own, and the final result names what the end stopped.
      let held: SDKResultMessage | undefined;
      const write = (message: SDKMessage) => {
        if (message.type === 'result') {
          context.log.debug(`result: ${message.subtype} after ${message.num_turns} turns`);
          if (held) sink.write(held);
          held = message;
        } else sink.write(message);
        if (message.type === 'assistant' || message.type === 'result') context.startupComplete?.();
      };
      const services = engine.sessionServices;
      // Background agents and shells report as tasks, between turns too (stream-json only).
      const stopTaskFrames =
        services && options.outputFormat === 'stream-json'
          ? streamTaskFrames(services, engine.sessionId, write)
          : undefined;
      for await (const message of engine.submitMessage(prompt, { signal: shutdown.signal })) write(message);
      const { settleBackgroundWork, stoppedTasksLine, withStoppedTasks } = await import(
        '../agents/background/print-wait'
      );
      const stopped = services
        ? await settleBackgroundWork({ engine, services, signal: shutdown.signal, write })
        : [];
      stopTaskFrames?.();
      const line = stoppedTasksLine(stopped);
      if (line) stderr.write(`${line}\n`);
      if (held) sink.write(withStoppedTasks(held, stopped));
    } finally {
      await engine.close();
    }
    return shutdown.exitCode(sink.finish());
  } finally {
    shutdown.dispose();
  }
}

async function runStreamJson(options: CliOptions, context: PrintContext): Promise<number> {
  if (options.prompt !== undefined) {
    context.log.warn(
      'ignoring the prompt argument: with --input-format stream-json the prompt comes on stdin',
    );
  }
  const { runStreamJsonSession } = await import('../sdk/session');
  const shutdown = new Shutdown({ outputs: [stdout] });
  void startWriteJournal(context.env);
  let tools: readonly AnyTool[] = [];
  try {
    const code = await runStreamJsonSession({
      cliOptions: options,
      createEngine: async (sessionOptions) => {
        const setup = await createSessionEngine(sessionOptions, context.env, context.cwd, context.log);
        for (const warning of setup.warnings) context.log.warn(warning);
        tools = setup.tools;
        preloadBashAfterFirstRequest(tools);
        return setup;
      },
      // A session that waits for its host at start has time to spare before the first request.
      whenIdle: () => preloadBashWhenIdle(tools),
      stdin: process.stdin,
      stdout: stdout.writable,
      stderr: stderr.writable,
      env: context.env,
      onReply: context.startupComplete,
      stop: shutdown.signal,
    });
    return shutdown.exitCode(code);
  } finally {
    shutdown.dispose();
  }
}
