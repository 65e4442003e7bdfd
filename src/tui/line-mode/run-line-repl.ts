/**
 * The REPL for terminals that cannot move the cursor (TERM=dumb, no TERM: Emacs' shell, some
 * IDE consoles, a serial line). The same session as the full UI (ReplSession, the prompt router,
 * the slash commands, the engine from cli/session-setup.ts), shown line by line: a `> ` prompt read
 * in the terminal's own line editing, streamed text appended, one line per tool, and every
 * question — trust, permissions, the resume picker — asked as a line. A permission question that
 * gets an empty or unclear answer is a "no", so it stays safe with any input. Ctrl+C interrupts a
 * running turn (twice on an idle prompt quits); Ctrl+D quits.
 */
import { createInterface } from 'node:readline';
import { firstReplTurn } from '../../agents/main-agent';
import type { CliOptions } from '../../cli/cli-options';
import type { DebugLog } from '../../cli/debug-log';
import type { Env } from '../../cli/session-setup';
import { createSessionCommands } from '../../commands/builtin';
import { findGitRoot } from '../../config/git-root';
import { trustFolder } from '../../config/project-trust';
import { PromptHistory } from '../../interactive/prompt-history';
import { describePickerSession, listPickerSessions } from '../../interactive/session-picker';
import { contextWindowFor } from '../../model/models';
import { signInForMoreScope } from '../session/mcp-actions';
import { mentionAttacher } from '../session/mention-attachments';
import { PromptRouter } from '../session/prompt-router';
import { ReplSession } from '../session/repl-session';
import { SessionStarter } from '../session/session-starter';
import { withheldUntilTrusted } from '../session/trust-check';
import { plainStyle } from '../views/ansi';
import { statusText } from '../views/status-text';
import { LineInput } from './line-input';
import { askServersAsLines } from './line-mcp-approval';
import { askPermission } from './line-permission';
import { LinePrinter } from './line-printer';

export type LineReplContext = { env: Env; cwd: string; log: DebugLog };

export async function runLineRepl(options: CliOptions, context: LineReplContext): Promise<number> {
  const { env, cwd, log } = context;
  const out = (text: string) => process.stdout.write(text);
  const input = new LineInput(createInterface({ input: process.stdin, terminal: false }));
  try {
    const withheld = await withheldUntilTrusted(options, env, cwd);
    if (withheld) {
      out(`Do you trust the files in this folder?\n${cwd}\n`);
      out(
        "Yoke will read and run what this folder's settings ask for: hooks, environment variables, a base URL, allow rules, a permission mode and WebFetch hosts.\n",
      );
      for (const line of withheld) out(`  - ${line}\n`);
      const answer = await input.ask('Trust it? [y/N] ');
      if (!/^y(es)?$/i.test(answer?.trim() ?? '')) {
        out('Not trusted: nothing was run. Start Yoke again to be asked again, or use "yoke trust".\n');
        return 1;
      }
      const recorded = await trustFolder(cwd, env).catch((error: Error) => ({ problem: error.message }));
      if (recorded.problem) out(`yoke: ${recorded.problem}\n`);
    }

    let printer: LinePrinter | undefined;
    const session = new ReplSession({
      onMessage: (message) => printer?.onMessage(message),
      onPermissionWaiting: () => void answerPermissions(),
      attachMentions: (prompt, signal) => attachMentions(prompt, signal),
    });
    printer = new LinePrinter(session.transcript, () => session.getStatus().cwd || cwd, out);
    const linePrinter = printer;
    out(`Yoke ${YOKE_VERSION} · ${cwd} (line mode: TERM=${env.TERM || 'unset'})\n`);
    const projectRoot = findGitRoot(cwd) ?? cwd;
    const history = new PromptHistory({ env, projectRoot });
    const commands = createSessionCommands();
    const starter: SessionStarter = new SessionStarter({
      options,
      env,
      cwd,
      log,
      session,
      commands,
      startedAt: performance.now(),
      openInEditor: async () => ({
        opened: false,
        reason: 'the line mode cannot hand the terminal to an editor',
      }),
      // Printed indented by 2, as in the full UI: the same room for a command's table.
      columns: () => process.stdout.columns,
    });
    const attachMentions = mentionAttacher(starter.ready);

    let answering = false;
    const answerPermissions = async () => {
      if (answering) return;
      answering = true;
      try {
        for (
          let pending = session.getStatus().permission;
          pending;
          pending = session.getStatus().permission
        ) {
          linePrinter.endLine();
          await askPermission(pending, input, out, cwd);
        }
      } finally {
        answering = false;
      }
    };

    const pickSession = async (cancelMeans: string): Promise<string | undefined> => {
      const sessions = await listPickerSessions({
        env,
        cwd,
        ...(session.sessionId ? { excludeSessionId: session.sessionId } : {}),
        limit: 20,
      });
      if (sessions.length === 0) {
        out('No other sessions in this folder yet.\n');
        return undefined;
      }
      sessions.forEach((s, i) => {
        out(`  ${String(i + 1).padStart(2)}. ${describePickerSession(s)}\n`);
      });
      const answer = (await input.ask(`Resume which (1-${sessions.length}; Enter ${cancelMeans})? `))?.trim();
      return sessions[Number(answer) - 1]?.sessionId;
    };

    let exit: () => void = () => {};
    const exited = new Promise<void>((resolve) => {
      exit = resolve;
    });
    const router = new PromptRouter({
      session,
      history: { add: (text) => history.add(text) },
      ready: starter.ready,
      exit: () => exit(),
      switchSession: (resume) => starter.switchTo(resume),
      pickSession: () => void pickSession('to go back').then((id) => (id ? starter.switchTo(id) : undefined)),
      openView: () => false,
    });

    const status = () => {
      const s = session.getStatus();
      return statusText(
        {
          model: s.model,
          mode: s.mode,
          contextTokens: s.contextTokens,
          contextWindow: contextWindowFor(s.model),
          costUsd: s.costUsd,
          backgroundShells:
            starter
              .ready()
              ?.engine.sessionServices?.shells.list()
              .filter((shell) => shell.status === 'running').length ?? 0,
          verbose: false,
          ...(s.cwd && s.cwd !== cwd ? { cwd: s.cwd } : {}),
        },
        plainStyle,
      );
    };
    const prompt = () => {
      linePrinter.endLine();
      out(`\n[${status()}]\n> `);
    };

    let wasRunning = false;
    session.subscribe(() => {
      const running = session.getStatus().running;
      if (wasRunning && !running) {
        linePrinter.flush();
        prompt();
      }
      wasRunning = running;
    });

    // Ctrl+C: the terminal sends SIGINT (the line mode leaves the terminal in its own line mode).
    let interruptedAt = 0;
    const onInterrupt = () => {
      if (session.interrupt()) return;
      router.cancelCommand();
      if (Date.now() - interruptedAt < 2000) exit();
      else {
        interruptedAt = Date.now();
        out('\n(Ctrl+C again to quit)\n> ');
      }
    };
    process.on('SIGINT', onInterrupt);
    for (const signal of ['SIGTERM', 'SIGHUP'] as const) process.once(signal, () => exit());

    const begin = (change?: { resume?: string }) =>
      starter.start(change).then(
        async () => {
          const manager = starter.setup?.mcp;
          if (manager) {
            signInForMoreScope(manager, session, env, cwd);
            await askServersAsLines({ manager, session, env, cwd }, input, out);
          }
          linePrinter.flush();
          const first = firstReplTurn(
            starter.setup?.initialPrompt,
            options.prompt,
            Boolean(change?.resume ?? options.resume ?? options.continue),
          );
          if (first) {
            out(`> ${first}\n`);
            void router.route(first);
          } else prompt();
        },
        (error: Error) => {
          session.startFailed(error.message);
          prompt();
        },
      );
    if (options.resumePicker) {
      const id = await pickSession('for a new conversation');
      void begin(id ? { resume: id } : undefined);
    } else void begin();

    void (async () => {
      for (;;) {
        const line = await input.next();
        if (line === undefined) break;
        if (line.trim() === '') {
          if (!session.getStatus().running) out('> ');
          continue;
        }
        await router.route(line);
        if (!session.getStatus().running && !session.getStatus().permission) {
          linePrinter.flush();
          prompt();
        }
      }
      exit();
    })();

    await exited;
    process.off('SIGINT', onInterrupt);
    starter.close();
    await session.close();
    linePrinter.flush();
    linePrinter.dispose();
    const id = session.sessionId;
    if (id && options.sessionPersistence) out(`\nSession ${id}\nResume it with: yoke --resume ${id}\n`);
    return session.startFailure === undefined ? 0 : 1;
  } finally {
    input.close();
  }
}
