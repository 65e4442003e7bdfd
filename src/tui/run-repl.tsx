/**
 * `yoke` without -p: the interactive REPL. Order: terminal modes and Ink → the trust question (first
 * run in an untrusted folder) → the screen, usable at once → the session's engine, built in the
 * background from the same composition root as -p (cli/session-setup.ts) with the dialog as its
 * permission prompt → turns until the user quits → the session id and how to resume it.
 */
import type { ReactNode } from 'react';
import { firstReplTurn } from '../agents/main-agent';
import type { CliOptions } from '../cli/cli-options';
import type { DebugLog } from '../cli/debug-log';
import type { Env } from '../cli/session-setup';
import { createSessionCommands } from '../commands/builtin';
import { findGitRoot } from '../config/git-root';
import { trustFolder } from '../config/project-trust';
import { noopHooks } from '../hooks/types';
import { FileIndex } from '../interactive/file-index';
import { PromptHistory } from '../interactive/prompt-history';
import { TaskBoard } from '../interactive/task-board';
import { TerminalNotifier } from '../interactive/terminal-notifier';
import { contextWindowFor } from '../model/models';
import { type Ink, loadInk } from './ink-runtime';
import { KeyParser } from './input/key-parser';
import { Keyboard } from './input/keyboard';
import { mentionQuery, mentionSuggestion } from './input/mention-completion';
import type { Suggestion } from './input/prompt-input';
import { KeyboardContext } from './input/use-keys';
import { ReplRoot } from './repl-root';
import { signInForMoreScope } from './session/mcp-actions';
import { askProjectServers } from './session/mcp-approval';
import { mentionAttacher } from './session/mention-attachments';
import { openMcpView, openResumePicker, openTasksView } from './session/overlays';
import { PromptRouter } from './session/prompt-router';
import { ReplSession } from './session/repl-session';
import { ScreenExtras } from './session/screen-extras';
import { SessionStarter } from './session/session-starter';
import { startStatusLineFeed } from './session/status-line-feed';
import { sessionTaskSources } from './session/task-sources';
import { withheldUntilTrusted } from './session/trust-check';
import { editInEditor, openFileInEditor } from './terminal/external-editor';
import { captureStderr } from './terminal/stderr-capture';
import { TerminalModes } from './terminal/terminal-modes';
import { sizeUnsizedTerminal } from './terminal/unsized-terminal';
import { styleFor } from './views/ansi';
import { StyleContext } from './views/style-context';
import { TrustDialog } from './views/trust-dialog';

export type ReplContext = { env: Env; cwd: string; log: DebugLog };

export async function runRepl(
  options: CliOptions,
  context: ReplContext,
  inkLoading: Promise<Ink> = loadInk(context.env),
): Promise<number> {
  const { env, cwd, log } = context;
  const stdin = process.stdin;
  const stdout = process.stdout;
  sizeUnsizedTerminal(stdout);
  const ink = await inkLoading;
  const style = styleFor(env);
  const keyboard = new Keyboard();
  const parser = new KeyParser();
  const modes = new TerminalModes(stdin, stdout);
  stdin.setEncoding('utf8');
  const onData = (chunk: string) => {
    for (const event of parser.push(chunk)) keyboard.dispatch(event);
  };
  stdin.on('data', onData);
  modes.enable();
  // Ink's frame throttle is a debounce: a frame asked for within its window waits for the window's
  // end, so at 200 fps every other key echoed 5 ms late. The streaming transcript is throttled
  // on its own (app.tsx) and the spinner ticks at 4 Hz, so the window can be the shortest, 1 ms.
  const renderOptions = { stdout, stdin, exitOnCtrlC: false, maxFps: 1000 } as const;
  let releaseStderr = () => {};
  const wrap = (node: ReactNode) => (
    <StyleContext.Provider value={style}>
      <KeyboardContext.Provider value={keyboard}>{node}</KeyboardContext.Provider>
    </StyleContext.Provider>
  );

  try {
    const withheld = await withheldUntilTrusted(options, env, cwd);
    if (withheld) {
      const trusted = await new Promise<boolean>((resolve) => {
        const instance = ink.render(
          wrap(
            <TrustDialog
              folder={cwd}
              withheld={withheld}
              onAnswer={(answer) => {
                // The dialog is live-region, not scrollback: Ink leaves its last frame on screen
                // at unmount, so that frame is made empty (a frame still in Ink's throttle is then
                // empty too) and erased, and the REPL starts where the dialog stood.
                instance.rerender(wrap(null));
                instance.clear();
                instance.unmount();
                resolve(answer);
              }}
            />,
          ),
          renderOptions,
        );
      });
      if (!trusted) {
        stdout.write(
          'Not trusted: nothing was run. Start Yoke again to be asked again, or use "yoke trust".\n',
        );
        return 1;
      }
      const recorded = await trustFolder(cwd, env).catch((error: Error) => ({
        folder: cwd,
        problem: error.message,
      }));
      if (recorded.problem) stdout.write(`yoke: ${recorded.problem}\n`);
    }

    let exit: () => void = () => {};
    const exited = new Promise<void>((resolve) => {
      exit = resolve;
    });
    const stopping = new AbortController();
    // The engine's hooks (its Notification hooks fire too), once it is ready.
    const notify = (reason: 'turn_end' | 'permission_prompt', message: string): void =>
      new TerminalNotifier({
        env,
        write: (bytes) => stdout.write(bytes),
        hooks: starter.ready()?.engine.hookRunner ?? noopHooks,
        signal: stopping.signal,
      }).waiting(reason, message, keyboard.focusReported ? keyboard.focused : undefined);
    const session = new ReplSession({
      onTurnEnd: () => notify('turn_end', 'The turn ended'),
      onPermissionWaiting: () => notify('permission_prompt', 'Yoke is waiting for your permission'),
      attachMentions: (prompt, signal) => attachMentions(prompt, signal),
    });
    session.transcript.notice('info', `${style.bold('Yoke')} ${YOKE_VERSION} · ${cwd}`);
    // From here on the screen is the frame writer's: what goes to stderr is shown in the transcript.
    releaseStderr = captureStderr(process.stderr, (line) => session.transcript.notice(line.level, line.text));
    const projectRoot = findGitRoot(cwd) ?? cwd;
    const history = new PromptHistory({ env, projectRoot });
    // Oldest first, for the input line's Up/Down. Loaded in the background once the first frame is
    // out; a prompt sent now joins it at once, so Up finds it however long the file write takes.
    let recalled: string[] = [];
    const remember = (text: string) => {
      recalled = [...recalled.filter((entry) => entry !== text), text];
    };
    const recallHistory = () =>
      void history.recall().then(
        (entries) => {
          const sent = recalled;
          recalled = [];
          for (const entry of [...entries].reverse()) remember(entry);
          for (const entry of sent) remember(entry);
        },
        () => {},
      );
    const commands = createSessionCommands();
    const extras = new ScreenExtras();
    // The editor gets the terminal as a shell would after Ctrl+Z: the frame is erased while the
    // frame writer knows where it is, and drawn afresh where the editor left the cursor — an
    // editor that printed a line and failed (`$EDITOR` not found) had moved the box under it.
    const handOver = {
      before: () => {
        instance.clear();
        modes.disable();
      },
      after: () => {
        modes.enable();
        stdout.emit('resize');
      },
    };
    let stopStatusLine: () => void = () => {};
    let stopShellCount: () => void = () => {};
    let mcpAsked = false;
    const starter: SessionStarter = new SessionStarter({
      options,
      env,
      cwd,
      log,
      session,
      commands,
      startedAt: performance.now(),
      openInEditor: async (path) => openFileInEditor(path, env, handOver),
      columns: () => stdout.columns,
      onStarted: ({ host, setup }) => {
        // Also a manager a plugin reload makes later (a session that started with no MCP server).
        setup.whenMcp((manager) => signInForMoreScope(manager, session, env, cwd));
        // Asked once per run (the answers are remembered, so a new conversation has none waiting).
        if (setup.mcp && !mcpAsked) {
          mcpAsked = true;
          askProjectServers({ extras, manager: setup.mcp, session, env, cwd });
        }
        // The status line's shell count follows the shells as they start and end, not only when
        // something else redraws the screen (a shell that ended while the user read said "running").
        stopShellCount();
        const shells = setup.engine.sessionServices?.shells;
        const countShells = () =>
          extras.setBackgroundShells(
            shells?.list().filter((shell) => shell.status === 'running').length ?? 0,
          );
        countShells();
        stopShellCount = shells?.subscribe(countShells) ?? (() => {});
        stopStatusLine();
        stopStatusLine = () => {};
        void startStatusLineFeed({
          env,
          session,
          host,
          settings: setup.settings.loaded,
          contextWindow: (model) =>
            setup.engine.sessionServices?.models.contextWindow(model) ?? contextWindowFor(model),
          show: (line) => extras.setStatusLine(line),
        }).then((stop) => {
          stopStatusLine = stop;
        });
      },
    });
    const attachMentions = mentionAttacher(starter.ready);
    const tasks = new TaskBoard(() => sessionTaskSources(starter.ready()?.engine.sessionServices));
    const files = new FileIndex({
      projectRoot,
      env,
      rules: () => starter.ready()?.engine.permissionRules ?? [],
      copies: () => starter.ready()?.engine.sessionServices?.copies,
      ...(env.HOME ? { home: env.HOME } : {}),
    });
    // Listed after the first render, in the background; completion uses what is there.
    setImmediate(() => void files.refresh(stopping.signal).catch(() => {}));
    const switchSession = (resume?: string) => starter.switchTo(resume);
    const router = new PromptRouter({
      session,
      history: {
        add: (text) => {
          remember(text);
          return history.add(text);
        },
      },
      ready: starter.ready,
      exit: () => exit(),
      switchSession,
      pickSession: () =>
        openResumePicker(extras, {
          env,
          cwd,
          ...(session.sessionId ? { excludeSessionId: session.sessionId } : {}),
          cancelMeans: 'to go back',
          onPick: (picked) => void switchSession(picked.sessionId),
          onCancel: () => {},
        }),
      openView: (view) => {
        if (view === 'tasks') openTasksView(extras, tasks);
        else {
          const manager = starter.setup?.mcp;
          if (!manager) return false;
          openMcpView(extras, manager, env, cwd);
        }
        return true;
      },
    });

    const actions = {
      submit: (text: string) => {
        void router.route(text);
      },
      exit: () => exit(),
      suspend: () => {
        // Erased while the frame writer knows where the frame is: the shell's lines then follow
        // the transcript, and after `fg` the frame is drawn afresh where the shell left the cursor.
        instance.clear();
        modes.disable();
        process.once('SIGCONT', () => {
          modes.enable();
          // Laid out and drawn again as after a resize (the terminal may have been resized too).
          stdout.emit('resize');
        });
        process.kill(process.pid, 'SIGTSTP');
      },
      editExternally: (text: string) => {
        const outcome = editInEditor(text, env, handOver);
        if ('problem' in outcome) {
          session.transcript.notice('warning', outcome.problem);
          return undefined;
        }
        return outcome.text;
      },
      complete: async (token: string, wholeText: string): Promise<readonly Suggestion[]> => {
        if (token.startsWith('@')) {
          return files.complete(mentionQuery(token), 6).map(mentionSuggestion);
        }
        if (wholeText.startsWith('/') && !wholeText.includes(' ')) {
          return commands.complete(wholeText.slice(1)).map((c) => ({
            value: `/${c.name} `,
            label: `/${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ''}`,
            description: c.description,
            submits: true,
          }));
        }
        return [];
      },
    };

    const instance = ink.render(
      wrap(
        <ReplRoot
          extras={extras}
          session={session}
          cwd={cwd}
          actions={actions}
          history={() => recalled}
          contextWindow={(model) => contextWindowFor(model)}
        />,
      ),
      renderOptions,
    );
    recallHistory();
    for (const signal of ['SIGTERM', 'SIGHUP'] as const) process.once(signal, () => exit());

    const begin = (change?: { resume?: string }) =>
      starter.start(change).then(
        () => {
          const first = firstReplTurn(
            starter.setup?.initialPrompt,
            options.prompt,
            Boolean(change?.resume ?? options.resume ?? options.continue),
          );
          if (first) actions.submit(first);
        },
        (error: Error) => session.startFailed(error.message),
      );
    // `yoke --resume` without an id: the engine starts once the user has picked (or cancelled).
    if (options.resumePicker) {
      openResumePicker(extras, {
        env,
        cwd,
        cancelMeans: 'to start a new conversation',
        onPick: (picked) => void begin({ resume: picked.sessionId }),
        onCancel: () => void begin(),
      });
    } else void begin();

    await exited;
    instance.unmount();
    releaseStderr();
    modes.disable();
    starter.close();
    stopStatusLine();
    stopShellCount();
    stopping.abort();
    await session.close();
    const id = session.sessionId;
    if (id && options.sessionPersistence)
      stdout.write(`\nSession ${id}\nResume it with: yoke --resume ${id}\n`);
    return session.startFailure === undefined ? 0 : 1;
  } finally {
    releaseStderr();
    stdin.off('data', onData);
    modes.disable();
    stdin.pause();
  }
}
