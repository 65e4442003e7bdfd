/**
 * The session's language servers (seed 002): one per (server, root), started on the first call
 * that needs it, restarted with backoff after a crash and given up after three in a row, shut
 * down with the session. Session state: it hangs on SessionServices, never in a module.
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, parse, relative } from 'node:path';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import type { LspClient } from './client';
import { DiagnosticsLedger } from './diagnostics-ledger';
import type { SyncedDocument } from './document-diagnostics';
import { type Resolution, type ResolvedServer, resolveServer } from './resolve';
import { SERVER_SPECS, type ServerSpec, specForFile } from './servers';
import { DEFAULT_LSP_SETTINGS, type LspSettings } from './settings';
import { planStart } from './start-guard';

/** New diagnostics a write's check found after the write had returned: told with the next write. */
export type LateFinding = { path: string; diagnostics: Diagnostic[]; dependant: boolean };

export type LspSupervisorOptions = {
  env: Readonly<Record<string, string | undefined>>;
  /** Whether the project folder is trusted: only then do its own binaries run. */
  trusted: boolean;
  settings?: Partial<LspSettings>;
  /** Folders never taken as a root; the home folder and `/` by default. */
  stopAt?: readonly string[];
  /**
   * Runs a server inside the session's shell sandbox when it is on (the composition root passes
   * the sandbox's wrapper): a language server reads the project's configuration and may load its
   * code, so it gets no more than a Bash command would.
   */
  confine?: ConfineServer;
};

/** How a confined server is started instead of its binary; `undefined`: not confined. */
export type ConfinedSpawn = {
  file: string;
  args: string[];
  /** A seccomp program the confining wrapper reads from fd 3. */
  seccomp?: Buffer;
  /** Called once when the server process has ended. */
  finish(): void;
};
export type ConfineServer = (
  command: string,
  args: readonly string[],
  cwd: string,
) => ConfinedSpawn | undefined;

/** No server can serve a file: the reason is one line for the model. */
export class LspUnavailableError extends Error {
  override name = 'LspUnavailableError';
  constructor(
    message: string,
    /** The server crashed MAX_CRASHES times in a row and stays stopped: worth telling the user. */
    readonly stoppedAfterCrashes = false,
  ) {
    super(message);
  }
}

const MAX_CRASHES = 3;
/** A server that ran this long before crashing starts a fresh count. */
const STABLE_MS = 60_000;
/** How long a request waits for a server's initial indexing to end. */
export const INDEXING_WAIT_MS = 30_000;

type ServerEntry = {
  server: ResolvedServer;
  client?: LspClient;
  starting?: Promise<LspClient>;
  startedAt: number;
  crashes: number;
  lastCrash?: string;
  retryAt: number;
};

const backoffMs = (crashes: number) => 500 * 2 ** (crashes - 1);

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

export class LspSupervisor {
  readonly ledger = new DiagnosticsLedger();
  readonly settings: LspSettings;
  /** Findings of checks that outlived their write's wait, oldest first. */
  readonly late: LateFinding[] = [];
  /** The write checks, one after another: a baseline and an update never interleave. */
  private checks: Promise<unknown> = Promise.resolve();
  private readonly servers = new Map<string, ServerEntry>();
  private readonly stopAt: readonly string[];
  /** Folders where no server could start, for `resolveForWrite`. */
  private readonly misses = new Map<string, Resolution>();
  private disposed = false;

  constructor(private readonly options: LspSupervisorOptions) {
    this.settings = { ...DEFAULT_LSP_SETTINGS, ...options.settings };
    this.stopAt = options.stopAt ?? [homedir(), parse(process.cwd()).root];
  }

  /** Runs a write check after those before it. */
  serialize<T>(check: () => Promise<T>): Promise<T> {
    const run = this.checks.then(check, check);
    this.checks = run.catch(() => undefined);
    return run;
  }

  /** Resolves once every write check so far has finished (tests and `status` wait on it). */
  async settled(): Promise<void> {
    await this.checks;
  }

  /** Cheap and synchronous: whether any known server handles files like this one. */
  handles(path: string): boolean {
    return specForFile(path) !== undefined;
  }

  async resolve(path: string): Promise<Resolution | undefined> {
    const spec = specForFile(path);
    if (!spec) return undefined;
    return resolveServer(spec, dirname(path), {
      trusted: this.options.trusted,
      env: this.options.env,
      stopAt: this.stopAt,
    });
  }

  /**
   * `resolve` for the write path, which runs on every write: a folder found to have no server
   * stays so until a root marker is written or `reload` (no lookups per write there).
   */
  async resolveForWrite(path: string): Promise<Resolution | undefined> {
    const spec = specForFile(path);
    if (!spec) return undefined;
    const key = `${spec.id}\0${dirname(path)}`;
    const known = this.misses.get(key);
    if (known) return known;
    const resolution = await this.resolve(path);
    if (resolution && resolution.kind !== 'ready') this.misses.set(key, resolution);
    return resolution;
  }

  /** Whether the server stopped after crashing MAX_CRASHES times in a row (until `reload`). */
  isStopped(server: ResolvedServer): boolean {
    const entry = this.servers.get(`${server.spec.id}\0${server.root}`);
    return entry !== undefined && !entry.starting && !entry.client?.alive && entry.crashes >= MAX_CRASHES;
  }

  /** A written file that is a root marker may make a server available where none was. */
  noteWritten(path: string): void {
    const name = basename(path);
    if (SERVER_SPECS.some((spec) => spec.markers.includes(name))) this.misses.clear();
  }

  /** The running server for a file, started (and indexed) if need be; throws why there is none. */
  async clientFor(path: string, signal?: AbortSignal): Promise<LspClient> {
    const resolution = await this.resolve(path);
    if (!resolution)
      throw new LspUnavailableError(
        `no language server handles ${parse(path).ext || 'files without an extension'} files`,
      );
    if (resolution.kind !== 'ready')
      throw new LspUnavailableError(`no ${resolution.spec.id} server: ${resolution.reason}`);
    return this.acquire(resolution, signal);
  }

  /** The server already running for a file, if any: never starts one. */
  async runningFor(path: string): Promise<LspClient | undefined> {
    const spec = specForFile(path);
    if (!spec) return undefined;
    for (const entry of this.servers.values()) {
      if (entry.server.spec !== spec || !entry.client?.alive) continue;
      if (!relative(entry.server.root, path).startsWith('..')) return entry.client;
    }
    return undefined;
  }

  private async acquire(server: ResolvedServer, signal?: AbortSignal): Promise<LspClient> {
    if (this.disposed) throw new LspUnavailableError('the session has ended');
    const key = `${server.spec.id}\0${server.root}`;
    let entry = this.servers.get(key);
    if (!entry) {
      entry = { server, startedAt: 0, crashes: 0, retryAt: 0 };
      this.servers.set(key, entry);
    }
    if (entry.client?.alive) return entry.client;
    if (!entry.starting) {
      if (entry.crashes >= MAX_CRASHES)
        throw new LspUnavailableError(
          `${server.spec.binary} for ${server.root} crashed ${entry.crashes} times in a row (last: ${entry.lastCrash}); it is not restarted until \`lsp\` action \`reload\``,
          true,
        );
      entry.starting = this.start(entry, signal);
      const clear = () => {
        if (entry) entry.starting = undefined;
      };
      entry.starting.then(clear, clear);
    }
    return entry.starting;
  }

  private async start(entry: ServerEntry, signal?: AbortSignal): Promise<LspClient> {
    await sleep(entry.retryAt - Date.now(), signal);
    const { server } = entry;
    const plan = await planStart(server, this.options.trusted);
    if (!plan.ok) throw new LspUnavailableError(`${server.spec.binary} not started: ${plan.reason}`);
    let client: LspClient;
    try {
      // The client and its JSON-RPC library load with the first server a session starts.
      const { LspClient } = await import('./client');
      client = await LspClient.start(server, {
        env: this.options.env,
        initializationOptions: plan.initializationOptions,
        ...(this.options.confine ? { confine: this.options.confine } : {}),
        onCrash: (reason) => {
          if (entry.client === client) entry.client = undefined;
          this.recordCrash(entry, reason);
        },
      });
    } catch (error) {
      this.recordCrash(entry, (error as Error).message);
      throw new LspUnavailableError(this.crashReport(entry), entry.crashes >= MAX_CRASHES);
    }
    if (this.disposed) {
      await client.shutdown();
      throw new LspUnavailableError('the session has ended');
    }
    entry.client = client;
    entry.startedAt = Date.now();
    return client;
  }

  private recordCrash(entry: ServerEntry, reason: string): void {
    if (entry.startedAt > 0 && Date.now() - entry.startedAt > STABLE_MS) entry.crashes = 0;
    entry.crashes += 1;
    entry.lastCrash = reason;
    entry.retryAt = Date.now() + backoffMs(entry.crashes);
  }

  private crashReport(entry: ServerEntry): string {
    const { binary } = entry.server.spec;
    const head = `${binary} for ${entry.server.root} failed: ${entry.lastCrash}`;
    return entry.crashes >= MAX_CRASHES
      ? `${head}. It crashed ${entry.crashes} times in a row and is not restarted until \`lsp\` action \`reload\`.`
      : `${head}. Crash ${entry.crashes} of ${MAX_CRASHES}; the next call restarts it.`;
  }

  /**
   * Syncs the file's current disk content to the server (didOpen or a full didChange) and saves
   * it; returns the version the server now holds.
   */
  async syncFromDisk(client: LspClient, path: string, text?: string): Promise<SyncedDocument> {
    const content = text ?? (await readFile(path, 'utf8'));
    const pushMark = client.pushMark();
    const synced = await client.sync(path, content);
    if (synced.changed) await client.save(synced.uri);
    return { ...synced, pushMark };
  }

  /** One line per server started in this session, for the `status` action. */
  status(): string[] {
    const lines: string[] = [];
    for (const entry of this.servers.values()) {
      const { spec, root, command, via } = entry.server;
      const state = entry.client?.alive
        ? `running (pid ${entry.client.pid}, ${entry.client.openUris().length} open files)`
        : entry.starting
          ? 'starting'
          : entry.crashes >= MAX_CRASHES
            ? `stopped after ${entry.crashes} crashes in a row (last: ${entry.lastCrash}); \`reload\` restarts it`
            : entry.crashes > 0
              ? `crashed ${entry.crashes}× (last: ${entry.lastCrash}); restarts on the next call`
              : 'stopped';
      lines.push(
        `${spec.id} — root ${root} — ${state} — ${command} (from ${via === 'PATH' ? 'PATH' : 'the project'})`,
      );
    }
    return lines;
  }

  /** Restarts the servers for `path`'s root (all when absent), clearing their crash counts. */
  async reload(path?: string): Promise<string[]> {
    const spec: ServerSpec | undefined = path ? specForFile(path) : undefined;
    this.misses.clear();
    const reloaded: string[] = [];
    for (const [key, entry] of this.servers) {
      if (path && (entry.server.spec !== spec || relative(entry.server.root, path).startsWith('..')))
        continue;
      this.servers.delete(key);
      await entry.client?.shutdown();
      reloaded.push(`${entry.server.spec.id} — root ${entry.server.root}`);
    }
    return reloaded;
  }

  /** Stops every server; safe to call more than once. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const entries = [...this.servers.values()];
    this.servers.clear();
    await Promise.all(
      entries.map(async (entry) => {
        const client = entry.client ?? (await entry.starting?.catch(() => undefined));
        await client?.shutdown();
      }),
    );
  }
}
