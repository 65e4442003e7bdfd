/**
 * What a `-p` start reads is dist/app.js, whose every byte is deserialized at each start: the
 * parts most runs never use live in lazy bundles (scripts/build.mjs, src/lib/lazy-bundle.ts).
 * The build lists the app's modules in dist/.build/app-modules.json; these tests keep the moved
 * parts out of it, and run a lazy bundle that reaches another's entry through the app.
 */
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mockEnv, runYoke, tempProject, YOKE_BIN } from './helpers';
import { useWorkspace } from './workspace';

const ws = useWorkspace();
const FIXTURE = resolve(import.meta.dirname, '../fixtures/mcp/fixture-server.mjs');

type BuildModules = { app: Record<string, number>; lazy: Record<string, string[]> };
const modules = (): BuildModules =>
  JSON.parse(readFileSync(join(dirname(YOKE_BIN), '.build', 'app-modules.json'), 'utf8')) as BuildModules;

/** A private copy of dist/ without code caches, so the caches a run saves show which bundles ran. */
async function privateDist(): Promise<string> {
  const dist = join(await tempProject('yoke-dist-'), 'dist');
  cpSync(dirname(YOKE_BIN), dist, { recursive: true, filter: (source) => !source.endsWith('.cache') });
  return dist;
}

const bundlesThatRan = (dist: string) =>
  readdirSync(join(dist, '.cache')).map((name) => name.replace(/-[0-9a-f]{16}-.*$/, ''));

describe('lazy bundles', () => {
  it('keep what a plain -p run never runs out of the app bundle', () => {
    const { app, lazy } = modules();
    const inApp = Object.keys(app);
    const entries = Object.values(lazy).flat();
    // Parts a `yoke -p "hi"` without servers, hooks, plugins or tool calls never runs.
    expect(entries).toEqual(
      expect.arrayContaining([
        'src/sdk/session.ts',
        'src/mcp/manager.ts',
        'src/hooks/runner.ts',
        'src/plugins/load-enabled.ts',
        'src/tools/builtin/lsp/run.ts',
        'src/services/lsp/client.ts',
        'src/engine/structured-output.ts',
      ]),
    );
    expect(inApp.filter((path) => entries.includes(path))).toEqual([]);
    // The engine is a bundle of its own, which the REPL loads after its first frame: the query
    // loop, the tools, the permission checks and the Anthropic SDK are not in the app.
    expect(lazy.engine).toEqual(expect.arrayContaining(['src/cli/print.ts', 'src/cli/session-setup.ts']));
    expect(
      inApp.filter((path) =>
        /^(src\/engine\/query-engine|src\/cli\/session-builtins|src\/tools\/builtin\/(bash|read|edit)\/index|src\/permissions\/can-use-tool)\.ts$|^node_modules\/@anthropic-ai\/sdk\//.test(
          path,
        ),
      ),
    ).toEqual([]);
    // Their own code, with what only they use, went along (a sample of each).
    for (const moved of [
      'src/sdk/control-handlers.ts',
      'src/mcp/server-connection.ts',
      'src/hooks/execute.ts',
      'src/services/lsp/document-sync.ts',
    ]) {
      expect(inApp).not.toContain(moved);
    }
  });

  it('a -p run loads neither the REPL nor Ink (the caches saved name the bundles that ran)', async () => {
    const dist = await privateDist();
    ws.answer('headless');
    const env = mockEnv(ws.server.url, ws.home);
    const result = await runYoke(['-p', 'hi'], { bin: join(dist, 'yoke.js'), cwd: ws.cwd, env });
    expect(result.stdout).toBe('headless\n');
    const caches = bundlesThatRan(dist);
    expect(caches).toContain('app-print');
    expect(caches.filter((name) => /interactive|ink/.test(name))).toEqual([]);
    // The REPL, Ink and React are in their own bundles: none of them is in the app a -p start reads.
    expect(
      Object.keys(modules().app).filter((path) =>
        /^src\/tui\/|node_modules\/(ink|react|yoga-layout)\//.test(path),
      ),
    ).toEqual([]);
  });

  it('one lazy bundle runs another one’s entry through the app: `yoke mcp list` connects with the MCP bundle', async () => {
    const dist = await privateDist();
    const cwd = await tempProject();
    await writeFile(
      join(cwd, '.mcp.json'),
      JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: [FIXTURE] } } }),
    );
    const result = await runYoke(['mcp', 'list'], {
      bin: join(dist, 'yoke.js'),
      cwd,
      env: { YOKE_HOME: ws.home, CLAUDE_CONFIG_DIR: join(ws.home, '.claude') },
    });
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^fx \(project, stdio\): connected/);
    expect(result.code).toBe(0);
    const caches = bundlesThatRan(dist);
    expect(caches.sort()).toEqual(['app-other', 'lazy-interactive', 'lazy-mcp', 'vendor-mcp']);
  });
});
