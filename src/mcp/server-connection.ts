/**
 * One MCP server over its whole life in a session: connecting (with a deadline), the tools,
 * resources and prompts it lists, `tools/list_changed`, and what happens when it goes away — a
 * server that drops is restarted (stdio) or reconnected (HTTP/SSE) with backoff, and its status
 * says so meanwhile instead of its tools silently vanishing.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ConfiguredServer } from './config-sources';
import { expandServerConfig } from './expand-env';
import type { McpCallToolResult, McpElicitationHandler, McpToolDescriptor } from './mcp-types';
import { SignInRequiredError } from './oauth-provider';
import { type SessionAuthProvider, sessionAuthProvider } from './oauth-session';
import { stderrLastWords } from './stderr-words';
import { type McpSignInHandler, withScopeStepUp } from './step-up';
import { openTransport } from './transports';

type Env = Readonly<Record<string, string | undefined>>;

/** `system/init.mcp_servers[].status` values (compat-surface §6). */
export type McpServerStatus = 'connected' | 'pending' | 'failed' | 'needs-auth' | 'disabled';

export type McpResourceEntry = { uri: string; name: string; mimeType?: string; description?: string };

export type ConnectionOptions = {
  env: Env;
  cwd: string;
  /** How long `initialize` may take (`MCP_TIMEOUT`). */
  connectTimeoutMs: number;
  /** A tool call's limit when the server's config sets none (`MCP_TOOL_TIMEOUT`). */
  toolTimeoutMs: number;
  /** Delays before each restart of a dropped server; when they run out the server stays failed. */
  restartDelaysMs: readonly number[];
  /** Called whenever status, tools, resources or prompts change. */
  onChange(): void;
  /** Answers a server's `elicitation/create` (the session's host, or a refusal). */
  elicit: McpElicitationHandler;
  /** Signs a user in for more scope when a call needs it (the REPL); false when no one can (headless). */
  signIn: McpSignInHandler;
};

const CLIENT_INFO = { name: 'yoke', version: YOKE_VERSION };

/** A prompt a server lists: what a slash command needs to describe and call it. */
export type McpPromptInfo = {
  name: string;
  description?: string;
  arguments: { name: string; required: boolean }[];
};

export class McpServerConnection {
  private currentStatus: McpServerStatus;
  private reason: string | undefined;
  private client: Client | undefined;
  /** The OAuth provider of the current connection, when the server uses OAuth. */
  private auth: SessionAuthProvider | undefined;
  private generation = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private restarts = 0;
  private closed = false;
  private settled: Promise<void> = Promise.resolve();
  /** The tools as last listed; a new array on every change (tools/mcp keys its cache on it). */
  descriptors: McpToolDescriptor[] = [];
  prompts: string[] = [];
  /** The prompts as listed: their descriptions and arguments (for slash commands). */
  promptInfo: McpPromptInfo[] = [];
  hasResources = false;
  serverInfo: { name: string; version: string } | undefined;

  constructor(
    readonly server: ConfiguredServer,
    private readonly options: ConnectionOptions,
  ) {
    this.currentStatus = server.disabledReason ? 'disabled' : 'pending';
    this.reason = server.disabledReason;
  }

  get name(): string {
    return this.server.name;
  }

  get status(): McpServerStatus {
    return this.currentStatus;
  }

  /** Why it is not connected (failed, needs-auth, disabled), as one line. */
  get error(): string | undefined {
    return this.reason;
  }

  /** Resolves once the attempt in progress (if any) has connected or failed; never rejects. */
  whenSettled(): Promise<void> {
    return this.settled;
  }

  /** Starts connecting unless disabled; returns at once (see `whenSettled`). */
  start(): void {
    if (this.currentStatus === 'disabled' || this.closed) return;
    this.settled = this.connect();
  }

  /** Drops the connection and connects again (the SDK's `mcp_reconnect`, `/mcp`). */
  async reconnect(): Promise<void> {
    if (this.closed) return;
    this.restarts = 0;
    await this.disconnect();
    this.server.disabledReason = undefined;
    this.setState('pending', undefined);
    this.settled = this.connect();
    await this.settled;
  }

  /** Turns the server off for this session, or back on (the SDK's `mcp_toggle`). */
  async setEnabled(enabled: boolean): Promise<void> {
    if (enabled) {
      if (this.currentStatus === 'disabled') await this.reconnect();
      return;
    }
    await this.disconnect();
    this.setState('disabled', 'turned off for this session');
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.disconnect();
  }

  /** A prompt's messages as text (`prompts/get`): each text part, and the text of embedded resources. */
  async getPrompt(name: string, args: Record<string, string>, signal: AbortSignal): Promise<string> {
    const client = this.requireClient();
    const result = await this.stepUp(() => client.getPrompt({ name, arguments: args }, { signal }), signal);
    return result.messages
      .map((message) => {
        const content = message.content as { type: string; text?: string; resource?: { text?: string } };
        if (content.type === 'text') return content.text ?? '';
        if (content.type === 'resource') return content.resource?.text ?? '';
        return `[${content.type} content]`;
      })
      .join('\n\n');
  }

  async callTool(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<McpCallToolResult> {
    const client = this.requireClient();
    const timeout = this.server.config.timeout ?? this.options.toolTimeoutMs;
    const result = await this.stepUp(
      () =>
        client.callTool({ name: tool, arguments: args }, undefined, {
          signal,
          timeout,
          resetTimeoutOnProgress: true,
        }),
      signal,
    );
    return result as McpCallToolResult;
  }

  async listResources(signal: AbortSignal): Promise<McpResourceEntry[]> {
    if (!this.hasResources) return [];
    const client = this.requireClient();
    const out: McpResourceEntry[] = [];
    let cursor: string | undefined;
    do {
      const params = cursor ? { cursor } : undefined;
      const page = await this.stepUp(() => client.listResources(params, { signal }), signal);
      for (const r of page.resources) {
        out.push({
          uri: r.uri,
          name: r.name,
          ...(r.mimeType ? { mimeType: r.mimeType } : {}),
          ...(r.description ? { description: r.description } : {}),
        });
      }
      cursor = page.nextCursor;
    } while (cursor);
    return out;
  }

  async readResource(uri: string, signal: AbortSignal) {
    const client = this.requireClient();
    return (await this.stepUp(() => client.readResource({ uri }, { signal }), signal)).contents;
  }

  /** A request refused for want of scope is stepped up (step-up.ts) and sent again. */
  private stepUp<T>(request: () => Promise<T>, signal: AbortSignal): Promise<T> {
    return withScopeStepUp(this.name, this.auth, request, this.options.signIn, signal);
  }

  private requireClient(): Client {
    if (this.client && this.currentStatus === 'connected') return this.client;
    throw new Error(
      `MCP server "${this.name}" is ${this.currentStatus}${this.reason ? `: ${this.reason}` : ''}`,
    );
  }

  private setState(status: McpServerStatus, reason: string | undefined): void {
    this.currentStatus = status;
    this.reason = reason;
    if (status !== 'connected') {
      this.descriptors = [];
      this.prompts = [];
      this.promptInfo = [];
      this.hasResources = false;
    }
    this.options.onChange();
  }

  private async connect(): Promise<void> {
    const generation = ++this.generation;
    const expanded = expandServerConfig(this.server.config, this.options.env);
    if (!expanded.ok) {
      this.setState(
        'failed',
        `unset variable${expanded.missing.length > 1 ? 's' : ''} ${expanded.missing.join(', ')} in its config; set ${expanded.missing.length > 1 ? 'them' : 'it'} or give a \${VAR:-default}`,
      );
      return;
    }
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { ElicitRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
    // Form questions only; an accepted answer gets the schema's defaults for what it leaves out.
    const client = new Client(CLIENT_INFO, {
      capabilities: { elicitation: { form: { applyDefaults: true } } },
    });
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      const { params } = request;
      return this.options.elicit(
        {
          server: this.name,
          message: params.message,
          mode: params.mode === 'url' ? 'url' : 'form',
          ...('requestedSchema' in params ? { requestedSchema: params.requestedSchema } : {}),
          ...('url' in params ? { url: params.url, elicitationId: params.elicitationId } : {}),
        },
        extra.signal,
      );
    });
    // Held while connecting too, so closing the session ends a server stuck in its handshake.
    this.client = client;
    let opened: Awaited<ReturnType<typeof openTransport>> | undefined;
    try {
      const auth = await sessionAuthProvider(this.name, expanded.config, this.options.env);
      this.auth = auth;
      opened = await openTransport(expanded.config, {
        env: this.options.env,
        cwd: this.options.cwd,
        ...(auth ? { authProvider: auth } : {}),
      });
      await withDeadline(
        client.connect(opened.transport),
        this.options.connectTimeoutMs,
        () =>
          `it did not finish starting within ${duration(this.options.connectTimeoutMs)} (raise MCP_TIMEOUT if it is just slow)`,
      );
      if (generation !== this.generation || this.closed) {
        await client.close();
        return;
      }
      await this.refreshLists(client);
      client.onclose = () => this.dropped(generation, opened?.stderrTail() ?? '');
      const { ToolListChangedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        if (generation === this.generation)
          void this.refreshLists(client).then(
            () => this.options.onChange(),
            () => {},
          );
      });
      const info = client.getServerVersion();
      this.serverInfo = info ? { name: info.name, version: info.version } : undefined;
      this.restarts = 0;
      this.setState('connected', undefined);
    } catch (error) {
      await client.close().catch(() => {});
      if (generation !== this.generation || this.closed) return;
      this.client = undefined;
      const needsAuth = await isUnauthorized(error);
      this.setState(
        needsAuth ? 'needs-auth' : 'failed',
        needsAuth && error instanceof SignInRequiredError
          ? error.message
          : needsAuth
            ? `the server asks for authorization (HTTP 401); sign in with \`yoke mcp login ${this.name}\` (or /mcp in the interactive UI), or give a token with -H "Authorization: Bearer …" in its config`
            : failureReason(error, opened?.stderrTail() ?? ''),
      );
    }
  }

  private async refreshLists(client: Client): Promise<void> {
    const capabilities = client.getServerCapabilities() ?? {};
    const descriptors: McpToolDescriptor[] = [];
    if (capabilities.tools) {
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined);
        descriptors.push(...(page.tools as McpToolDescriptor[]));
        cursor = page.nextCursor;
      } while (cursor);
    }
    this.promptInfo = capabilities.prompts
      ? (await client.listPrompts()).prompts.map((p) => ({
          name: p.name,
          ...(p.description ? { description: p.description } : {}),
          arguments: (p.arguments ?? []).map((a) => ({ name: a.name, required: a.required === true })),
        }))
      : [];
    this.prompts = this.promptInfo.map((p) => p.name);
    this.hasResources = capabilities.resources !== undefined;
    this.descriptors = descriptors;
  }

  /** The connection went away without us closing it: say so, then try again after a pause. */
  private dropped(generation: number, stderrTail: string): void {
    if (generation !== this.generation || this.closed) return;
    this.client = undefined;
    const attempt = this.restarts;
    const delay = this.options.restartDelaysMs[attempt];
    const how = this.server.config.type === 'stdio' ? 'restarted' : 'reconnected';
    const lastLine = stderrLastWords(stderrTail);
    const what = `the server ${this.server.config.type === 'stdio' ? 'exited' : 'closed the connection'}${lastLine ? ` (${lastLine})` : ''}`;
    if (delay === undefined) {
      this.setState(
        'failed',
        `${what}; gave up after ${attempt} tries, reconnect it with /mcp or mcp_reconnect`,
      );
      return;
    }
    this.setState('failed', `${what}; it is being ${how}`);
    this.restarts = attempt + 1;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.closed || generation !== this.generation) return;
      this.currentStatus = 'pending';
      this.settled = this.connect();
    }, delay);
    this.restartTimer.unref();
  }

  private async disconnect(): Promise<void> {
    this.generation++;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => {});
  }
}

const duration = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`);

/** `work`, or an error saying `why()` once `ms` have passed without it settling. */
export async function withDeadline<T>(work: Promise<T>, ms: number, why: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(why())), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function isUnauthorized(error: unknown): Promise<boolean> {
  const { UnauthorizedError } = await import('@modelcontextprotocol/sdk/client/auth.js');
  if (error instanceof UnauthorizedError || error instanceof SignInRequiredError) return true;
  // The HTTP transports carry the status as `code` (StreamableHTTPError, SseError).
  if ((error as { code?: unknown })?.code === 401) return true;
  return /\b401\b/.test(String((error as Error)?.message));
}

/** The network error codes a first `url` typo or a stopped server gives, in words with the fix. */
function unreachable(cause: { code?: string; message?: string; hostname?: string }): string {
  if (cause.code === 'ECONNREFUSED')
    return 'connection refused (ECONNREFUSED): is the server running, on that port?';
  if (cause.code === 'ENOTFOUND')
    return `no such host${cause.hostname ? ` ${cause.hostname}` : ''} (ENOTFOUND): check the url`;
  return cause.code ?? cause.message ?? 'unknown network error';
}

/** One line: what went wrong, with the server's own last words when it wrote any. */
function failureReason(error: unknown, stderrTail: string): string {
  const err = error as NodeJS.ErrnoException;
  let reason = err?.message ?? String(error);
  if (err?.code === 'ENOENT' && 'path' in err) reason = `command not found: ${String(err.path)}`;
  if (/Connection closed/i.test(reason)) reason = 'the server exited before it finished starting';
  // fetch says only "fetch failed"; the cause says why (ECONNREFUSED, ENOTFOUND, a TLS problem).
  const cause = (err as { cause?: { code?: string; message?: string; hostname?: string } })?.cause;
  if (reason === 'fetch failed' && cause) reason = `could not reach the server: ${unreachable(cause)}`;
  const lastLine = stderrLastWords(stderrTail);
  return lastLine ? `${reason} (stderr: ${lastLine})` : reason;
}
