/**
 * The MCP servers of one session (session-scoped, principle 9): it starts every configured
 * server at once without making the first request wait, and answers, at any moment, what the
 * model may call (`connectedServers()`), what `system/init` and `mcp_status` report (`statuses()`), and what
 * the model must be told about servers that are not there (`notices()`).
 */
import { isDeepStrictEqual } from 'node:util';
import type { ConfiguredServer, McpServerSource } from './config-sources';
import {
  type McpElicitationAnswer,
  type McpElicitationHandler,
  type McpToolDescriptor,
  mcpToolName,
} from './mcp-types';
import { type ConnectionOptions, McpServerConnection, type McpServerStatus } from './server-connection';
import type { McpSignInHandler } from './step-up';

type Env = Readonly<Record<string, string | undefined>>;

export type McpServerReport = {
  name: string;
  status: McpServerStatus;
  source: McpServerSource;
  transport: 'stdio' | 'http' | 'sse';
  error?: string;
  serverInfo?: { name: string; version: string };
  tools: McpToolDescriptor[];
  prompts: string[];
};

const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** Claude Code's default for a tool call: in practice no limit, the user interrupts instead. */
const DEFAULT_TOOL_TIMEOUT_MS = 100_000_000;
const RESTART_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 16_000];

/** No one to ask (a headless run without a host): the server hears no, not silence. */
const DECLINE: McpElicitationHandler = async (): Promise<McpElicitationAnswer> => ({ action: 'decline' });

/** No one at a keyboard (headless): no sign-in; the call's error says what to run. */
const NO_SIGN_IN: McpSignInHandler = async () => false;

const positiveMs = (value: string | undefined): number | undefined => {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) && n > 0 ? n : undefined;
};

/** Connection options from the session's environment (`MCP_TIMEOUT`, `MCP_TOOL_TIMEOUT`). */
export function connectionOptionsFromEnv(
  env: Env,
  cwd: string,
): Omit<ConnectionOptions, 'onChange' | 'elicit' | 'signIn'> {
  return {
    env,
    cwd,
    connectTimeoutMs: positiveMs(env.MCP_TIMEOUT) ?? DEFAULT_CONNECT_TIMEOUT_MS,
    toolTimeoutMs: positiveMs(env.MCP_TOOL_TIMEOUT) ?? DEFAULT_TOOL_TIMEOUT_MS,
    restartDelaysMs: RESTART_DELAYS_MS,
  };
}

/** What a plugin reload did to the servers, by name (mcp_status and `system/init` then show it). */
export type PluginServerChanges = {
  added: string[];
  removed: string[];
  /** Their configuration changed: the old connection was closed and a new one started. */
  reconnected: string[];
};

export class McpManager {
  /** In the configuration's order; a plugin reload adds and removes plugin servers in place. */
  private connections: McpServerConnection[];
  private readonly listeners = new Set<() => void>();
  private elicitationHandler: McpElicitationHandler = DECLINE;
  private signInHandler: McpSignInHandler = NO_SIGN_IN;
  private readonly connect: (server: ConfiguredServer) => McpServerConnection;

  constructor(
    servers: readonly ConfiguredServer[],
    options: Omit<ConnectionOptions, 'onChange' | 'elicit' | 'signIn'>,
  ) {
    const onChange = () => this.changed();
    // Looked up per question: the host that answers (the SDK's `onElicitation`) is known only
    // after the servers have started connecting.
    const elicit: McpElicitationHandler = (question, signal) => this.elicitationHandler(question, signal);
    const signIn: McpSignInHandler = (server, signal) => this.signInHandler(server, signal);
    this.connect = (server) =>
      new McpServerConnection({ ...server }, { ...options, onChange, elicit, signIn });
    this.connections = servers.map(this.connect);
  }

  /**
   * The plugins' servers after a plugin reload: a server of a plugin that is gone is closed, a new
   * one starts, one whose configuration changed is closed and started again, and one that is the
   * same keeps its connection (and its tools, with no restart the user would notice). A name that
   * a user, project or `--mcp-config` server holds stays theirs, as at start. Resolves once every
   * plugin server has finished its first attempt, so the answer can say how each one did.
   */
  async replacePluginServers(servers: readonly ConfiguredServer[]): Promise<PluginServerChanges> {
    const held = new Set(this.connections.filter((c) => c.server.source !== 'plugin').map((c) => c.name));
    const wanted = new Map(servers.filter((s) => !held.has(s.name)).map((s) => [s.name, s]));
    const changes: PluginServerChanges = { added: [], removed: [], reconnected: [] };
    const closing: Promise<void>[] = [];
    const started: McpServerConnection[] = [];
    const next: McpServerConnection[] = [];
    for (const connection of this.connections) {
      if (connection.server.source !== 'plugin') {
        next.push(connection);
        continue;
      }
      const server = wanted.get(connection.name);
      wanted.delete(connection.name);
      if (server && sameServer(server, connection.server)) {
        next.push(connection);
        continue;
      }
      closing.push(connection.close());
      if (!server) {
        changes.removed.push(connection.name);
        continue;
      }
      changes.reconnected.push(connection.name);
      const fresh = this.connect(server);
      started.push(fresh);
      next.push(fresh);
    }
    for (const server of wanted.values()) {
      changes.added.push(server.name);
      const fresh = this.connect(server);
      started.push(fresh);
      next.push(fresh);
    }
    this.connections = next.sort((a, b) => (a.name < b.name ? -1 : 1));
    // The old process is gone before its successor starts: a server that holds a lock or a port
    // would otherwise refuse the new one.
    await Promise.all(closing);
    for (const connection of started) connection.start();
    if (closing.length > 0 || started.length > 0) this.changed();
    await Promise.all(
      this.connections.filter((c) => c.server.source === 'plugin').map((c) => c.whenSettled()),
    );
    return changes;
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  /**
   * Who signs a user in when a call needs more scope (the REPL sets one); until then, and
   * headless, the call fails with a line saying to run `yoke mcp login`.
   */
  setSignInHandler(handler: McpSignInHandler): void {
    this.signInHandler = handler;
  }

  /** Who answers the servers' questions from now on; until this is called they are declined. */
  setElicitationHandler(handler: McpElicitationHandler): void {
    this.elicitationHandler = handler;
  }

  get size(): number {
    return this.connections.length;
  }

  /** Starts every enabled server in parallel and returns at once. */
  start(): void {
    for (const connection of this.connections) connection.start();
  }

  /** Resolves when no server is still in its first connection attempt (for `yoke mcp list`, tests). */
  async whenSettled(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.whenSettled()));
  }

  /** Calls `listener` after any server's status, tools or lists change; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  connection(name: string): McpServerConnection | undefined {
    return this.connections.find((connection) => connection.name === name);
  }

  /** The servers whose tools the model may call now (tools/mcp/server-tools.ts wraps them). */
  connectedServers(): McpServerConnection[] {
    return this.connections.filter((c) => c.status === 'connected');
  }

  /** Connected servers that offer resources (what ListMcpResourcesTool/ReadMcpResourceTool reach). */
  resourceServers(): McpServerConnection[] {
    return this.connections.filter((c) => c.status === 'connected' && c.hasResources);
  }

  /** The prompts of connected servers under their command names, `mcp__<server>__<prompt>`. */
  promptCommands(): string[] {
    return this.connections.flatMap((c) => c.prompts.map((prompt) => mcpToolName(c.name, prompt)));
  }

  statuses(): McpServerReport[] {
    return this.connections.map((c) => ({
      name: c.name,
      status: c.status,
      source: c.server.source,
      transport: c.server.config.type,
      ...(c.error ? { error: c.error } : {}),
      ...(c.serverInfo && c.status === 'connected' ? { serverInfo: c.serverInfo } : {}),
      tools: c.descriptors,
      prompts: c.prompts,
    }));
  }

  /**
   * What the model must know about servers whose tools it cannot call, one line each, so it never
   * calls tools that silently do not exist and can tell the user what to fix.
   */
  notices(): string[] {
    return this.connections.flatMap((c): string[] => {
      const tools = `${mcpToolName(c.name, '')}*`;
      switch (c.status) {
        case 'connected':
          return [];
        case 'pending':
          return [`MCP server "${c.name}" is still connecting; its tools (${tools}) join at the next turn.`];
        case 'disabled':
          return [
            `MCP server "${c.name}" is configured but not started (${c.error}); its tools (${tools}) are not available.`,
          ];
        default:
          return [
            `MCP server "${c.name}" is not available: ${c.error}. Its tools (${tools}) cannot be called; tell the user if they need it (\`yoke mcp get ${c.name}\` shows its config).`,
          ];
      }
    });
  }

  async reconnect(name: string): Promise<void> {
    await this.require(name).reconnect();
  }

  async setEnabled(name: string, enabled: boolean): Promise<void> {
    await this.require(name).setEnabled(enabled);
  }

  async close(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.close()));
  }

  private require(name: string): McpServerConnection {
    const connection = this.connection(name);
    if (!connection) {
      const known = this.connections.map((c) => c.name);
      throw new Error(
        `No MCP server named "${name}"${known.length > 0 ? `; configured: ${known.join(', ')}` : ''}`,
      );
    }
    return connection;
  }
}

/** The same server as far as a running connection is concerned: its configuration and whether it may start. */
function sameServer(a: ConfiguredServer, b: ConfiguredServer): boolean {
  return a.disabledReason === b.disabledReason && isDeepStrictEqual(a.config, b.config);
}
