/**
 * Claude Code's `oauth.scopes` and `oauth.authServerMetadataUrl` in a project's `.mcp.json`, through
 * `yoke mcp login` as a user runs it: the server offers no discovery (its authorization server's
 * metadata sits at a custom path), the test is the browser that opens the printed address.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type OAuthMcpServer, startOAuthMcpServer } from '../../src/testing/oauth-mcp-server';
import { startYoke, tempProject } from './helpers';

let server: OAuthMcpServer | undefined;
const folders: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function projectWith(oauth: Record<string, unknown>, url: string) {
  const cwd = await tempProject();
  const home = await tempProject('yoke-e2e-home-');
  folders.push(cwd, home);
  await writeFile(
    join(cwd, '.mcp.json'),
    JSON.stringify({ mcpServers: { guarded: { type: 'http', url, oauth } } }),
  );
  return {
    cwd,
    env: { HOME: home, YOKE_HOME: join(home, '.yoke'), CLAUDE_CONFIG_DIR: join(home, '.claude') },
  };
}

/** Runs `yoke mcp login guarded`, opening each address it prints as a browser would. */
async function login(project: { cwd: string; env: Record<string, string> }) {
  const running = startYoke(['mcp', 'login', 'guarded'], project);
  running.child.stdin.end();
  const opened: URL[] = [];
  let seen = '';
  running.child.stdout.on('data', (chunk: Buffer) => {
    seen += chunk.toString();
    const lines = seen.split('\n');
    seen = lines.pop() ?? '';
    for (const line of lines)
      if (line.includes('/authorize?')) {
        opened.push(new URL(line));
        void fetch(line);
      }
  });
  const { code } = await running.exited;
  return { code, opened, stdout: running.stdout(), stderr: running.stderr() };
}

describe('yoke mcp login with oauth.scopes and oauth.authServerMetadataUrl', () => {
  it('reads the metadata from the named address and asks for the pinned scopes', async () => {
    server = await startOAuthMcpServer({ metadataPath: '/auth/meta.json', scopes: { '*': ['tools:read'] } });
    const project = await projectWith(
      { scopes: 'tools:read profile', authServerMetadataUrl: `${server.base}/auth/meta.json` },
      server.mcpUrl,
    );
    const result = await login(project);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.opened.map((url) => [url.pathname, url.searchParams.get('scope')])).toEqual([
      ['/as/authorize', 'tools:read profile'],
    ]);
    expect([...server.issued.values()]).toEqual([['tools:read', 'profile']]);
    expect(result.stdout).toContain('Signed in to "guarded"');
  });

  it('refuses metadata that names an issuer on another origin, in one line, before any sign-in', async () => {
    server = await startOAuthMcpServer({ metadataPath: '/auth/meta.json', issuer: 'https://login.example' });
    const project = await projectWith(
      { authServerMetadataUrl: `${server.base}/auth/meta.json` },
      server.mcpUrl,
    );
    const result = await login(project);
    expect(result.code).not.toBe(0);
    expect(result.opened).toEqual([]);
    expect(result.stderr.trim()).toBe(
      `yoke: MCP server "guarded": the authorization server metadata at ${server.base}/auth/meta.json (oauth.authServerMetadataUrl) is refused: its "issuer" https://login.example is not on ${server.base}, where it was read; an authorization server publishes its own metadata, so Yoke does not send it tokens`,
    );
    expect(server.tokenRequests).toEqual([]);
  });
});
