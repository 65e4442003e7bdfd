/**
 * Shared by the OAuth tests of mcp/ (not product code): a scratch user home, a session's
 * manager over one HTTP server, and a sign-in whose "browser" is a fetch of the printed address.
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import {
  type OAuthMcpServer,
  type OAuthMcpServerOptions,
  startOAuthMcpServer,
} from '../testing/oauth-mcp-server';
import { connectionOptionsFromEnv, McpManager } from './manager';
import { signInToServer } from './oauth-login';
import type { McpRemoteServerConfig } from './server-config';

export type Scratch = { root: string; env: Record<string, string>; dispose(): Promise<void> };

export async function scratchHome(): Promise<Scratch> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'yoke-oauth-')));
  return {
    root,
    env: {
      HOME: root,
      YOKE_HOME: join(root, '.yoke'),
      CLAUDE_CONFIG_DIR: join(root, '.claude'),
      PATH: process.env.PATH ?? '',
    },
    dispose: () => rm(root, { recursive: true, force: true }),
  };
}

/**
 * Per test: a scratch home, and the OAuth MCP server the test starts with `start` (both are
 * gone after the test).
 */
export function oauthFixture() {
  const fixture = {
    scratch: undefined as unknown as Scratch,
    server: undefined as unknown as OAuthMcpServer,
    async start(options: OAuthMcpServerOptions = {}): Promise<OAuthMcpServer> {
      fixture.server = await startOAuthMcpServer(options);
      return fixture.server;
    },
  };
  beforeEach(async () => {
    fixture.scratch = await scratchHome();
  });
  afterEach(async () => {
    await fixture.server?.close();
    await fixture.scratch.dispose();
  });
  return fixture;
}

/** A started session manager with this one server, once its first connection attempt settled. */
export async function sessionWith(
  scratch: Scratch,
  name: string,
  config: McpRemoteServerConfig,
  env: Record<string, string> = scratch.env,
): Promise<McpManager> {
  const manager = new McpManager(
    [{ name, config, source: 'user' }],
    connectionOptionsFromEnv(env, scratch.root),
  );
  manager.start();
  await manager.whenSettled();
  return manager;
}

/** Signs in as `yoke mcp login` does; the "browser" opens each address printed. Returns the addresses. */
export async function browserSignIn(
  scratch: Scratch,
  name: string,
  config: McpRemoteServerConfig,
): Promise<{ outcome: 'signed-in' | 'not-needed'; opened: URL[] }> {
  const opened: URL[] = [];
  const outcome = await signInToServer(name, config, {
    env: scratch.env,
    cwd: scratch.root,
    onAuthorizationUrl: (url) => {
      opened.push(new URL(url.href));
      void fetch(url);
    },
  });
  return { outcome, opened };
}

/** A session with this server after a browser sign-in to it (as after `yoke mcp login`). */
export async function signedInSession(
  scratch: Scratch,
  name: string,
  config: McpRemoteServerConfig,
  env: Record<string, string> = scratch.env,
): Promise<McpManager> {
  await browserSignIn(scratch, name, config);
  return sessionWith(scratch, name, config, env);
}

export const httpServer = (url: string, oauth?: McpRemoteServerConfig['oauth']): McpRemoteServerConfig => ({
  type: 'http',
  url,
  headers: {},
  ...(oauth ? { oauth } : {}),
});
