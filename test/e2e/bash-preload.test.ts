/**
 * The Bash tool gets ready in the background (tools/builtin/bash/preload.ts): in a `-p` run once
 * the first request is out, in a stream-json session while it waits for its host. Seen from
 * outside through the code cache: loading the shell parser runs the web-tree-sitter bundle,
 * whose cache is saved next to dist/ as it loads.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import { mockEnv, runYoke, startYoke, tempProject, YOKE_BIN } from './helpers';

let server: MockServer;
let home: string;

beforeAll(async () => {
  server = await startMockServer({
    scenario: [{ repeat: 'forever', reply: { content: [{ type: 'text', text: 'hello' }] } }],
  });
  home = await tempProject('yoke-home-');
});
afterAll(async () => {
  await server.close();
});

/** A private copy of dist/ without caches, with the packages beside it as in an install. */
async function privateInstall(): Promise<{ bin: string; cacheDir: string }> {
  const root = await tempProject('yoke-preload-');
  const dist = join(root, 'dist');
  cpSync(dirname(YOKE_BIN), dist, { recursive: true, filter: (source) => !source.endsWith('.cache') });
  symlinkSync(join(dirname(YOKE_BIN), '..', 'node_modules'), join(root, 'node_modules'));
  return { bin: join(dist, 'yoke.js'), cacheDir: join(dist, '.cache') };
}

const parserCaches = (dir: string) =>
  existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith('vendor-web-tree-sitter')) : [];

describe('preparing Bash in the background', () => {
  it('loads the shell parser during a -p run that never calls Bash', async () => {
    const { bin, cacheDir } = await privateInstall();
    const { code, stdout } = await runYoke(['-p', 'hi'], {
      bin,
      cwd: await tempProject(),
      env: mockEnv(server.url, home),
    });
    expect(code).toBe(0);
    expect(stdout).toBe('hello\n');
    expect(parserCaches(cacheDir)).toEqual([expect.stringMatching(/^vendor-web-tree-sitter-/)]);
  });

  it('does not when the session offers no Bash', async () => {
    const { bin, cacheDir } = await privateInstall();
    const { code } = await runYoke(['-p', 'hi', '--tools', 'Read'], {
      bin,
      cwd: await tempProject(),
      env: mockEnv(server.url, home),
    });
    expect(code).toBe(0);
    mkdirSync(cacheDir, { recursive: true });
    expect(parserCaches(cacheDir)).toEqual([]);
  });

  it('loads it while a stream-json session waits for its host', async () => {
    const { bin, cacheDir } = await privateInstall();
    server.reset();
    const run = startYoke(
      ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'],
      {
        bin,
        cwd: await tempProject(),
        env: mockEnv(server.url, home),
      },
    );
    run.child.stdin.write(
      `${JSON.stringify({ type: 'control_request', request_id: 'init', request: { subtype: 'initialize' } })}\n`,
    );
    // No user message: the session is idle, and no request has been sent.
    const deadline = Date.now() + 15_000;
    while (parserCaches(cacheDir).length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const requestsBefore = server.requests.length;
    run.child.stdin.end();
    expect((await run.exited).code).toBe(0);
    expect(server.requests.length).toBe(requestsBefore);
    // Loaded before any connection, so under the start's flags (lib/v8-flags.ts).
    expect(parserCaches(cacheDir)).toEqual([expect.stringMatching(/^vendor-web-tree-sitter-[0-9a-f]{16}-/)]);
  });
});
