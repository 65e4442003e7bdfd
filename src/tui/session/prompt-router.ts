/**
 * Where a submitted line goes: `!command` runs in the shell (shown, and read by the model with
 * the next prompt), `#note` is added to the project memory file, `/command` runs on the session's
 * registry and its outcome is carried out, anything else is a prompt for the model. Every line
 * joins the project's prompt history, and shows in the transcript as typed above what it did.
 */
import { runCommandLine } from '../../commands/dispatch';
import type { CommandHost, CommandOutcome } from '../../commands/types';
import type { QueryEngine } from '../../engine/query-engine';
import { appendMemory, memoryNoteContext } from '../../interactive/memory-append';
import type { PromptHistory } from '../../interactive/prompt-history';
import type { ProtectedPaths } from '../../permissions/protected-paths';
import type { ReplSession } from './repl-session';

/** What the router needs once the engine is ready. */
export type ReadySession = {
  engine: QueryEngine;
  host: CommandHost;
  protectedPaths: ProtectedPaths;
  projectRoot: string;
};

export type PromptRouterDeps = {
  session: ReplSession;
  history: Pick<PromptHistory, 'add'>;
  ready(): ReadySession | undefined;
  exit(): void;
  /** /clear (no id) and /resume <id>: a new engine for a fresh or a resumed conversation. */
  switchSession(resume?: string): Promise<void>;
  pickSession(): void;
  /** A command's live view (/tasks, /mcp); false when the UI cannot open it now. */
  openView(view: Extract<CommandOutcome, { kind: 'view' }>['view']): boolean;
};

export class PromptRouter {
  private commandAbort = new AbortController();

  constructor(private readonly deps: PromptRouterDeps) {}

  /** Esc while a command (not a turn) runs. */
  cancelCommand(): void {
    this.commandAbort.abort();
    this.commandAbort = new AbortController();
  }

  async route(text: string): Promise<void> {
    const { session } = this.deps;
    void this.deps.history.add(text).catch(() => false);
    const ready = this.deps.ready();
    const first = text.trimStart()[0];
    const failure = session.startFailure;
    if (!ready && failure !== undefined) {
      // Nothing can run without an engine; say so rather than wait for a start that is over.
      if (text.trim() === '/exit') this.deps.exit();
      else
        session.transcript.notice(
          'error',
          `Nothing can run: the session did not start (${failure}). Fix that and start Yoke again; /exit or Ctrl+D quits.`,
        );
      return;
    }
    if ((first === '!' || first === '#' || first === '/') && !ready) {
      if (first !== '/' || text.trim() !== '/exit') {
        session.transcript.notice('warning', 'The session is still starting; try again in a moment.');
        return;
      }
    }
    if (first === '!' && ready) {
      // The Bash tool is the engine's (its bundle is loaded once `ready`).
      const { runBangCommand } = await import('../../interactive/bang-command');
      const result = await runBangCommand(
        text.trimStart(),
        ready.engine.userToolContext(this.commandAbort.signal),
      );
      const output = [result.output, result.notes].filter((part) => part !== '').join('\n');
      session.transcript.add({
        kind: 'shell',
        id: `shell-${Date.now()}`,
        command: result.command,
        output,
        exitCode: result.exitCode,
      });
      session.addContext(result.conversationText);
      // `cd` persists as it does in the Bash tool (inside the project; a move out is refused in `notes`).
      if (result.cwd !== undefined) session.moveCwd(result.cwd);
      return;
    }
    if (first === '#' && ready) {
      session.transcript.typed(text.trim());
      const outcome = await appendMemory(text.trimStart(), {
        projectRoot: ready.projectRoot,
        protection: ready.protectedPaths,
        rules: ready.engine.permissionRules,
      });
      if (outcome.ok) {
        session.transcript.notice('info', `Noted in ${outcome.path}${outcome.created ? ' (new file)' : ''}.`);
        // The model reads it with the next prompt, as it reads a `!command`.
        session.addContext(memoryNoteContext(text.trimStart().replace(/^#/, '').trim()));
      } else session.transcript.notice('warning', outcome.reason);
      return;
    }
    if (first === '/') {
      if (!ready) {
        this.deps.exit();
        return;
      }
      const outcome = await runCommandLine(text.trim(), ready.host);
      if (outcome) {
        // What it answers is shown under the command; a prompt it makes is shown as that prompt.
        if (outcome.kind !== 'prompt') session.transcript.typed(text.trim());
        await this.carryOut(outcome);
        return;
      }
    }
    session.submit(text);
  }

  private async carryOut(outcome: CommandOutcome): Promise<void> {
    const { session } = this.deps;
    switch (outcome.kind) {
      case 'text':
        session.transcript.add({ kind: 'command-output', id: `out-${Date.now()}`, text: outcome.text });
        return;
      case 'prompt':
        session.submit(outcome.prompt, outcome.display);
        return;
      case 'compact':
        await session.compact(outcome.instructions);
        return;
      case 'clear':
        await this.deps.switchSession();
        return;
      case 'resume':
        await this.deps.switchSession(outcome.sessionId);
        return;
      case 'pick-session':
        this.deps.pickSession();
        return;
      case 'view':
        if (!this.deps.openView(outcome.view))
          session.transcript.add({ kind: 'command-output', id: `out-${Date.now()}`, text: outcome.text });
        return;
      case 'exit':
        this.deps.exit();
        return;
      case 'none':
        return;
    }
  }
}
