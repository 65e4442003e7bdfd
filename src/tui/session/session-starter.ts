/**
 * Builds (and rebuilds, for /clear and /resume) the REPL's engine from the same composition root
 * as -p (cli/session-setup.ts), with the dialog as its permission prompt, and what hangs off it:
 * the command host and the facts the prompt router needs.
 */

import type { CliOptions } from '../../cli/cli-options';
import type { DebugLog } from '../../cli/debug-log';
import type { Env, SessionSetup } from '../../cli/session-setup';
import type { CommandRegistry, EditorResult } from '../../commands/types';
import { findGitRoot } from '../../config/git-root';
import { yieldToInput } from '../../lib/yield-to-input';
import { startIcuOffThread } from './icu-warmup';
import { collectStartupGarbage, loadFetchClasses, loadSegmenter, warmToolSchemas } from './idle-warmup';
import type { ReadySession } from './prompt-router';
import type { ReplSession } from './repl-session';

export type StarterDeps = {
  options: CliOptions;
  env: Env;
  cwd: string;
  log: DebugLog;
  session: ReplSession;
  commands: CommandRegistry;
  openInEditor(path: string): Promise<EditorResult>;
  /** The terminal's width now. */
  columns(): number | undefined;
  /** performance.now() when the session started. */
  startedAt: number;
  /** After each engine start (the first, /clear, /resume): what hangs off the engine restarts. */
  onStarted?(ready: ReadySession & { setup: SessionSetup }): void;
};

/**
 * The line a resumed conversation opens with, whichever way it was resumed: the picker or /resume
 * (`change`), `--resume <id>` or `--continue` (the options). None for a new conversation.
 */
export function resumeNotice(
  change: { resume?: string } | undefined,
  options: Pick<CliOptions, 'resume' | 'continue' | 'forkSession'>,
  sessionId: string | undefined,
): string | undefined {
  if (change) return change.resume ? `Resumed session ${change.resume}.` : undefined;
  if (options.resume === undefined && !options.continue) return undefined;
  return options.forkSession
    ? `Forked the session into a new one, ${sessionId}.`
    : `Resumed session ${sessionId}.`;
}

export class SessionStarter {
  private current: (ReadySession & { setup: SessionSetup }) | undefined;
  private readonly stop = new AbortController();

  constructor(private readonly deps: StarterDeps) {}

  ready = (): ReadySession | undefined => this.current;

  get setup(): SessionSetup | undefined {
    return this.current?.setup;
  }

  /** Starts the first engine (options as given) or a new one: fresh, or resuming `resume`. */
  async start(change?: { resume?: string }): Promise<void> {
    const { deps } = this;
    const options: CliOptions = change
      ? { ...deps.options, resume: change.resume, continue: false, forkSession: false, sessionId: undefined }
      : deps.options;
    const previous = this.current;
    // The engine's bundle loads here, after the first frame (scripts/build.mjs: `engine`).
    const [{ createSessionEngine }, { createCommandHost }] = await Promise.all([
      import('../../cli/session-setup'),
      import('./command-host'),
    ]);
    const setup = await createSessionEngine(
      // The REPL shows an answer as it streams: it needs the engine's stream events (which -p
      // prints only with --include-partial-messages).
      // A keystroke typed as a turn starts is handled between the start's steps (yield-to-input.ts).
      {
        ...options,
        includePartialMessages: true,
        // A tool call's clock starts when it really starts, not when the model asked for it.
        toolStartFrames: true,
        permissionPrompt: deps.session.permissionPrompt,
        letInputIn: yieldToInput,
      },
      deps.env,
      deps.cwd,
      deps.log,
    );
    if (previous) await previous.engine.close('clear');
    // This conversation's custom commands and skills, beside the built-ins.
    deps.commands.setPromptCommands(setup.commands.promptCommands);
    const host = createCommandHost({
      options,
      env: deps.env,
      cwd: deps.cwd,
      setup,
      commands: deps.commands,
      session: deps.session,
      openInEditor: deps.openInEditor,
      columns: deps.columns,
      signal: this.stop.signal,
      startedAt: deps.startedAt,
    });
    this.current = {
      setup,
      engine: setup.engine,
      host,
      protectedPaths: setup.protectedPaths,
      projectRoot: findGitRoot(deps.cwd) ?? deps.cwd,
    };
    for (const warning of setup.warnings) deps.session.transcript.notice('warning', warning);
    deps.session.attach(setup.engine, setup.earlierSpend?.costUsd);
    // In the same frame as the resumed conversation it follows: a screen that shows the
    // conversation and the ready status line shows the line too.
    const resumed = resumeNotice(change, deps.options, setup.engine.sessionId);
    if (resumed) deps.session.transcript.notice('info', resumed);
    deps.onStarted?.(this.current);
    const idle = () => !deps.session.getStatus().running;
    // ICU starts on another thread meanwhile (once per process: /clear and /resume need not).
    const icu = previous ? undefined : startIcuOffThread(this.stop.signal);
    void warmToolSchemas(setup.tools, this.stop.signal)
      .then(() => loadFetchClasses(this.stop.signal))
      // Not after the segmenter, which waits for ICU's worker (100–300 ms, more on a busy
      // machine): the collection would fall among the first keys typed.
      .then(() => (previous ? false : collectStartupGarbage(idle, this.stop.signal)))
      .then(() => loadSegmenter(this.stop.signal, icu));
  }

  /** /clear (no id) and /resume <id>: a new engine, once no turn runs; says what happened. */
  async switchTo(resume?: string): Promise<void> {
    const { session } = this.deps;
    if (session.getStatus().running) {
      session.transcript.notice('warning', 'Wait for the running turn to end (or press Esc) first.');
      return;
    }
    // A resume says so as it starts (resumeNotice).
    await this.start(resume ? { resume } : {}).then(
      () => {
        if (!resume) session.transcript.notice('info', 'Started a new conversation.');
      },
      (error: Error) => session.transcript.notice('error', error.message),
    );
  }

  close(): void {
    this.stop.abort();
  }
}
