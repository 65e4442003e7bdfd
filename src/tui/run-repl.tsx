/**
 * `yoke` without -p: the interactive REPL. Order: terminal modes and Ink → the trust question (first
 * run in an untrusted folder) → the screen, usable at once → the session's engine, built in the
 * background from the same composition root as -p (cli/session-setup.ts) with the dialog as its
 * permission prompt → turns until the user quits → the session id and how to resume it.
 */
import type { ReactNode } from 'react';
import type { CliOptions } from '../cli/cli-options';
import type { DebugLog } from '../cli/debug-log';
import { loadSessionSettings } from '../cli/session-settings';
import { createSessionEngine, type Env } from '../cli/session-setup';
import { ignoredProjectSettings } from '../cli/session-trust';
import { projectTrust, trustFolder } from '../config/project-trust';
import { contextWindowFor } from '../model/models';
import { App } from './app';
import { loadInk } from './ink-runtime';
import { KeyParser } from './input/key-parser';
import { Keyboard } from './input/keyboard';
import type { Suggestion } from './input/prompt-input';
import { KeyboardContext } from './input/use-keys';
import { ReplSession } from './session/repl-session';
import { editInEditor } from './terminal/external-editor';
import { TerminalModes } from './terminal/terminal-modes';
import { styleFor } from './views/ansi';
import { StyleContext } from './views/style-context';
import { TrustDialog } from './views/trust-dialog';

export type ReplContext = { env: Env; cwd: string; log: DebugLog };

export async function runRepl(options: CliOptions, context: ReplContext): Promise<number> {
  const { env, cwd, log } = context;
  const stdin = process.stdin;
  const stdout = process.stdout;
  const ink = await loadInk();
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
  const renderOptions = { stdout, stdin, exitOnCtrlC: false } as const;
  const wrap = (node: ReactNode) => (
    <StyleContext.Provider value={style}>
      <KeyboardContext.Provider value={keyboard}>{node}</KeyboardContext.Provider>
    </StyleContext.Provider>
  );

  try {
    if (!options.trust && !(await projectTrust(cwd, env)).trusted) {
      const settings = await loadSessionSettings(options, env, cwd);
      const withheld = ignoredProjectSettings({
        sources: settings.loaded.sources,
        trusted: false,
        interactive: true,
        explicitMode: false,
        cwd,
      });
      const trusted = await new Promise<boolean>((resolve) => {
        const instance = ink.render(
          wrap(
            <TrustDialog
              folder={cwd}
              withheld={withheld}
              onAnswer={(answer) => {
                // Unmounted once answered, so the REPL's own render starts on a clean line.
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
    const session = new ReplSession({
      onTurnEnd: () => {
        if (!keyboard.focused) stdout.write('\x07\x1b]9;Yoke: the turn ended\x07');
      },
      onPermissionWaiting: () => {
        if (!keyboard.focused) stdout.write('\x07\x1b]9;Yoke is waiting for your permission\x07');
      },
    });
    session.transcript.notice('info', `${style.bold('Yoke')} ${YOKE_VERSION} · ${cwd}`);
    const history: string[] = [];

    const actions = {
      submit: (text: string) => {
        history.push(text);
        if (text.trim() === '/exit' || text.trim() === '/quit') {
          exit();
          return;
        }
        if (text.trim().startsWith('/compact')) {
          void session.compact(text.trim().slice('/compact'.length).trim() || undefined);
          return;
        }
        session.submit(text);
      },
      exit: () => exit(),
      suspend: () => {
        modes.disable();
        process.once('SIGCONT', () => {
          modes.enable();
          instance.clear();
        });
        process.kill(process.pid, 'SIGTSTP');
      },
      editExternally: (text: string) => {
        const outcome = editInEditor(text, env, {
          before: () => modes.disable(),
          after: () => modes.enable(),
        });
        if ('problem' in outcome) {
          session.transcript.notice('warning', outcome.problem);
          return undefined;
        }
        return outcome.text;
      },
      complete: async (_token: string): Promise<readonly Suggestion[]> => [],
    };

    const instance = ink.render(
      wrap(
        <App
          session={session}
          cwd={cwd}
          actions={actions}
          history={() => history}
          contextWindow={(model) => contextWindowFor(model)}
          backgroundShells={() => 0}
        />,
      ),
      renderOptions,
    );
    for (const signal of ['SIGTERM', 'SIGHUP'] as const) process.once(signal, () => exit());

    createSessionEngine({ ...options, permissionPrompt: session.permissionPrompt }, env, cwd, log).then(
      (setup) => {
        for (const warning of setup.warnings) session.transcript.notice('warning', warning);
        session.attach(setup.engine);
        if (options.prompt?.trim()) actions.submit(options.prompt);
      },
      (error: Error) => {
        session.transcript.notice('error', `The session could not start: ${error.message}`);
      },
    );

    await exited;
    instance.unmount();
    modes.disable();
    await session.close();
    const id = session.sessionId;
    if (id && options.sessionPersistence)
      stdout.write(`\nSession ${id}\nResume it with: yoke --resume ${id}\n`);
    return 0;
  } finally {
    stdin.off('data', onData);
    modes.disable();
    stdin.pause();
  }
}
