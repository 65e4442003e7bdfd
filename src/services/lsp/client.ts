/**
 * One running language server: the process, its JSON-RPC connection over stdio, the documents
 * synced to it and the diagnostics it pushed. vscode-jsonrpc loads here, on the first start, so a
 * session that never touches a server never pays for it.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { basename } from 'node:path';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type {
  Diagnostic,
  InitializeParams,
  InitializeResult,
  PublishDiagnosticsParams,
  ServerCapabilities,
} from 'vscode-languageserver-protocol';
import type { ResolvedServer } from './resolve';
import { ServerTempDir } from './server-temp-dir';
import { languageIdOf } from './servers';
import type { ConfineServer } from './supervisor';
import { fileUri } from './uri';

export type ClientOptions = {
  env: Readonly<Record<string, string | undefined>>;
  /** Called once when the process ends without `shutdown()` asking it to. */
  onCrash: (reason: string) => void;
  /** Extra options the server's `initialize` gets (e.g. the tsserver to use). */
  initializationOptions?: Record<string, unknown>;
  /** Starts the server inside the sandbox (see LspSupervisorOptions.confine). */
  confine?: ConfineServer;
};

type PushedDiagnostics = { version?: number; diagnostics: Diagnostic[]; seq: number };
type OpenDocument = { version: number; text: string; languageId: string };

/** How long a server may take to answer `initialize` before the start counts as failed. */
const INITIALIZE_TIMEOUT_MS = 60_000;
const STDERR_TAIL = 2_000;
/** How long a failed start waits for the process to exit and say why. */
const EXIT_REASON_WAIT_MS = 1_000;

export class LspClient {
  capabilities: ServerCapabilities = {};
  private readonly documents = new Map<string, OpenDocument>();
  private readonly pushed = new Map<string, PushedDiagnostics>();
  private pushSeq = 0;
  private readonly pushWaiters = new Set<() => void>();
  private readonly progress = new Set<string | number>();
  private readonly idleWaiters = new Set<() => void>();
  private stderrTail = '';
  private stopping = false;
  /** Set once `initialize` succeeded: an exit before that is a failed start, not a crash. */
  private running = false;
  private exited = false;

  private constructor(
    readonly server: ResolvedServer,
    private readonly process: ChildProcess,
    private readonly connection: MessageConnection,
  ) {}

  static async start(server: ResolvedServer, options: ClientOptions): Promise<LspClient> {
    const rpc = await import('vscode-jsonrpc/node');
    const confined = options.confine?.(server.command, server.spec.args, server.root);
    // A temp folder of its own, removed when it exits or Yoke does (server-temp-dir.ts). In the
    // sandbox, the sandbox's own TMPDIR wins, a folder removed with the sandbox's.
    const serverTmp = ServerTempDir.create();
    const child = spawn(confined?.file ?? server.command, confined?.args ?? [...server.spec.args], {
      cwd: server.root,
      env: { ...options.env, TMPDIR: serverTmp.path } as NodeJS.ProcessEnv,
      // The confining wrapper (bwrap) reads its seccomp program from fd 3.
      stdio: confined?.seccomp ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
    });
    serverTmp.attach(child);
    if (confined) {
      const filterPipe = child.stdio[3];
      if (confined.seccomp && filterPipe && 'end' in filterPipe) filterPipe.end(confined.seccomp);
      child.once('close', () => confined.finish());
    }
    const connection = rpc.createMessageConnection(
      new rpc.StreamMessageReader(child.stdout as NodeJS.ReadableStream),
      new rpc.StreamMessageWriter(child.stdin as NodeJS.WritableStream),
    );
    const client = new LspClient(server, child, connection);
    // Why the process ended, when it ends on start: a failed write to it (EPIPE) is only the echo.
    const exitReason = new Promise<string>((resolve) => {
      child.once('error', (error) => resolve(`could not start ${server.command}: ${error.message}`));
      // `close`, not `exit`: by then its stderr has been read to the end.
      child.once('close', (code, signal) =>
        resolve(`${basename(server.command)} exited on start (${signal ?? `code ${code}`})${client.tail()}`),
      );
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      client.stderrTail = (client.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    child.once('error', () => serverTmp.remove());
    child.once('exit', (code, signal) => {
      serverTmp.remove();
      client.exited = true;
      connection.dispose();
      if (client.running && !client.stopping)
        options.onCrash(`exited (${signal ?? `code ${code}`})${client.tail()}`);
    });
    // A broken pipe after a crash is the crash itself, reported on exit.
    child.stdin?.on('error', () => {});
    client.listen(server);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `${server.spec.binary} did not answer initialize within ${INITIALIZE_TIMEOUT_MS / 1000} s`,
            ),
          ),
        INITIALIZE_TIMEOUT_MS,
      );
    });
    const ended = exitReason.then((reason) => Promise.reject(new Error(reason)));
    ended.catch(() => {});
    try {
      const result = await Promise.race([
        connection.sendRequest<InitializeResult>(
          'initialize',
          client.initializeParams(options, confined !== undefined),
        ),
        ended,
        timeout,
      ]);
      client.capabilities = result.capabilities;
      await connection.sendNotification('initialized', {});
      client.running = true;
      return client;
    } catch (error) {
      // The exit usually follows the failed write at once; its reason is the one worth reading.
      const reason = await Promise.race([
        exitReason,
        new Promise<undefined>((r) => setTimeout(() => r(undefined), EXIT_REASON_WAIT_MS)),
      ]);
      client.kill();
      throw reason ? new Error(reason) : error;
    } finally {
      clearTimeout(timer);
    }
  }

  private tail(): string {
    const text = this.stderrTail.trim().split('\n').slice(-3).join(' | ');
    return text ? `: ${text}` : '';
  }

  private listen(server: ResolvedServer): void {
    const c = this.connection;
    const settings = server.spec.configuration?.(server.root, server.python) ?? {};
    c.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
      this.pushSeq += 1;
      const entry: PushedDiagnostics = { diagnostics: params.diagnostics, seq: this.pushSeq };
      if (params.version !== undefined) entry.version = params.version;
      this.pushed.set(params.uri, entry);
      for (const wake of this.pushWaiters) wake();
    });
    c.onRequest('workspace/configuration', (params: { items: Array<{ section?: string }> }) =>
      params.items.map((item) => (item.section ? (settings[item.section] ?? null) : settings)),
    );
    c.onRequest('window/workDoneProgress/create', () => null);
    c.onNotification('$/progress', (params: { token: string | number; value?: { kind?: string } }) => {
      if (params.value?.kind === 'begin') this.progress.add(params.token);
      else if (params.value?.kind === 'end') {
        this.progress.delete(params.token);
        if (this.progress.size === 0) for (const wake of this.idleWaiters) wake();
      }
    });
    c.onRequest('client/registerCapability', () => null);
    c.onRequest('client/unregisterCapability', () => null);
    c.onRequest('window/showMessageRequest', () => null);
    c.onRequest('workspace/workspaceFolders', () => [
      { uri: fileUri(server.root), name: basename(server.root) },
    ]);
    // A server never edits files on its own: every edit goes through a tool and its permission.
    c.onRequest('workspace/applyEdit', () => ({
      applied: false,
      failureReason: 'Yoke applies edits itself',
    }));
    c.onRequest('workspace/diagnostic/refresh', () => null);
    c.onNotification(() => {});
    c.onRequest(() => null);
    c.onError(() => {});
    c.listen();
  }

  /**
   * `confined`: the server runs in the sandbox's own pid namespace, where Yoke's pid names no
   * process, and a server that watches its client's pid (vscode-languageserver checks every 3 s)
   * would take Yoke for dead and exit. There bubblewrap ends the server with Yoke instead.
   */
  private initializeParams(options: ClientOptions, confined: boolean): InitializeParams {
    const { root } = this.server;
    return {
      processId: confined ? null : process.pid,
      clientInfo: { name: 'yoke' },
      rootUri: fileUri(root),
      workspaceFolders: [{ uri: fileUri(root), name: basename(root) }],
      initializationOptions: options.initializationOptions ?? {},
      capabilities: {
        general: { positionEncodings: ['utf-16'] },
        window: { workDoneProgress: true },
        workspace: {
          configuration: true,
          workspaceFolders: true,
          symbol: {},
          workspaceEdit: { documentChanges: true },
        },
        textDocument: {
          synchronization: { didSave: true },
          publishDiagnostics: { versionSupport: true },
          diagnostic: { dynamicRegistration: false },
          definition: { linkSupport: true },
          typeDefinition: { linkSupport: true },
          implementation: { linkSupport: true },
          references: {},
          hover: { contentFormat: ['plaintext', 'markdown'] },
          documentSymbol: { hierarchicalDocumentSymbolSupport: true },
          codeAction: {
            codeActionLiteralSupport: {
              codeActionKind: { valueSet: ['quickfix', 'refactor', 'source'] },
            },
          },
          rename: { prepareSupport: true },
        },
      },
    };
  }

  get alive(): boolean {
    return !this.exited;
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  /**
   * Resolves once no work-done progress is running (a server's initial indexing), or after
   * `timeoutMs`: a server that never ends its progress still answers.
   */
  idle(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.progress.size === 0) return Promise.resolve();
    return this.wait(this.idleWaiters, () => this.progress.size === 0, timeoutMs, signal).then(() => {});
  }

  private wait(
    waiters: Set<() => void>,
    done: () => boolean,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<boolean> {
    return new Promise((resolve) => {
      const finish = (result: boolean) => {
        clearTimeout(timer);
        waiters.delete(check);
        signal?.removeEventListener('abort', onAbort);
        resolve(result);
      };
      const check = () => {
        if (done()) finish(true);
      };
      const onAbort = () => finish(false);
      const timer = setTimeout(() => finish(false), timeoutMs);
      waiters.add(check);
      signal?.addEventListener('abort', onAbort, { once: true });
      check();
    });
  }

  isOpen(uri: string): boolean {
    return this.documents.has(uri);
  }

  openUris(): string[] {
    return [...this.documents.keys()];
  }

  /** Opens the document or sends its new full text; returns the version the server now has. */
  async sync(path: string, text: string): Promise<{ uri: string; version: number; changed: boolean }> {
    const uri = fileUri(path);
    const open = this.documents.get(uri);
    if (!open) {
      const languageId = languageIdOf(this.server.spec, path);
      this.documents.set(uri, { version: 1, text, languageId });
      await this.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId, version: 1, text },
      });
      return { uri, version: 1, changed: true };
    }
    if (open.text === text) return { uri, version: open.version, changed: false };
    open.version += 1;
    open.text = text;
    await this.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: open.version },
      contentChanges: [{ text }],
    });
    return { uri, version: open.version, changed: true };
  }

  async save(uri: string): Promise<void> {
    const open = this.documents.get(uri);
    if (!open) return;
    await this.connection.sendNotification('textDocument/didSave', {
      textDocument: { uri },
      text: open.text,
    });
  }

  async close(uri: string): Promise<void> {
    if (!this.documents.delete(uri)) return;
    this.pushed.delete(uri);
    await this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  /** The push counter now: diagnostics pushed after this mark belong to a later sync. */
  pushMark(): number {
    return this.pushSeq;
  }

  /**
   * The diagnostics pushed for `uri` after `mark` (for `version` when the server says which), or
   * undefined when none came within `timeoutMs`.
   */
  async pushedAfter(
    uri: string,
    mark: number,
    version: number,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Diagnostic[] | undefined> {
    const fresh = () => {
      const entry = this.pushed.get(uri);
      return (
        entry !== undefined && entry.seq > mark && (entry.version === undefined || entry.version === version)
      );
    };
    if (!(await this.wait(this.pushWaiters, fresh, timeoutMs, signal))) return undefined;
    return this.pushed.get(uri)?.diagnostics;
  }

  /** The diagnostics last pushed for `uri`, whatever version they were for. */
  lastPushed(uri: string): Diagnostic[] | undefined {
    return this.pushed.get(uri)?.diagnostics;
  }

  async request<T>(method: string, params: unknown, signal?: AbortSignal): Promise<T> {
    if (this.exited) throw new Error(`${this.server.spec.binary} is not running`);
    try {
      if (!signal) return await this.connection.sendRequest<T>(method, params);
      const rpc = await import('vscode-jsonrpc/node');
      const source = new rpc.CancellationTokenSource();
      const cancel = () => source.cancel();
      signal.addEventListener('abort', cancel, { once: true });
      try {
        return await this.connection.sendRequest<T>(method, params, source.token);
      } finally {
        signal.removeEventListener('abort', cancel);
        source.dispose();
      }
    } catch (error) {
      // The library's words for a dead process ("connection got disposed") say less than these.
      if (this.exited)
        throw new Error(`${this.server.spec.binary} exited while answering ${method}${this.tail()}`);
      throw error;
    }
  }

  /** Asks the server to exit, and kills it when it does not within `graceMs`. */
  async shutdown(graceMs = 2_000): Promise<void> {
    if (this.exited) return;
    this.stopping = true;
    const exited = new Promise<void>((resolve) => this.process.once('exit', () => resolve()));
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    const polite = (async () => {
      await this.connection.sendRequest('shutdown');
      await this.connection.sendNotification('exit');
      await exited;
    })().catch(() => {});
    await Promise.race([polite, grace]);
    clearTimeout(timer);
    if (!this.exited) this.kill();
  }

  private kill(): void {
    this.stopping = true;
    if (!this.exited) this.process.kill('SIGKILL');
  }
}
