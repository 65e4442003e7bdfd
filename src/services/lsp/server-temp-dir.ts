/**
 * A language server's own temp folder, given to it as TMPDIR: typescript-language-server makes a
 * folder there at every start (`<32 hex digits>/tscancellation*`, tsserver's cancellation pipe)
 * and never removes it, so run with the user's TMPDIR it litters /tmp with one folder per start.
 * The folder goes when the server exits; and should Yoke end first — a forced exit (a second
 * Ctrl-C, the shutdown deadline), an uncaught error — its exit handler kills the servers still
 * running and removes their folders. Like the shells' process groups, these belong to the OS
 * process, not to a session: the exit handler has to find them whatever session made them.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const live = new Set<ServerTempDir>();
let exitHookInstalled = false;

export class ServerTempDir {
  private server: ChildProcess | undefined;

  private constructor(readonly path: string) {}

  static create(): ServerTempDir {
    const dir = new ServerTempDir(mkdtempSync(join(tmpdir(), 'yoke-lsp-tmp-')));
    live.add(dir);
    installExitHook();
    return dir;
  }

  /** The server using the folder: killed by the exit handler if it still runs then. */
  attach(server: ChildProcess): void {
    this.server = server;
  }

  /** Removes the folder; safe to call more than once. */
  remove(): void {
    live.delete(this);
    rmSync(this.path, { recursive: true, force: true });
  }

  /** At Yoke's exit (synchronous): the server first, so it cannot write there again. */
  killAndRemove(): void {
    const server = this.server;
    if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    this.remove();
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const dir of [...live]) {
      try {
        dir.killAndRemove();
      } catch {
        // Gone already, or not ours to remove any more: nothing else to do at exit.
      }
    }
  });
}
