/**
 * The entry compiles the app bundle through a V8 code cache saved by an earlier start
 * (src/lib/cached-script.ts). Each run here is a fresh process on a private copy of dist/, so the
 * cache it reads is exactly the one the previous run left.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import { mockEnv, runYoke, tempProject, YOKE_BIN } from './helpers';

let server: MockServer;
let home: string;

beforeAll(async () => {
  server = await startMockServer({
    scenario: [{ repeat: 'forever', reply: { content: [{ type: 'text', text: 'cached hello' }] } }],
  });
  home = await tempProject('yoke-home-');
});
afterAll(async () => {
  await server.close();
});

/** A copy of dist/ to run and inspect alone; without the build's warm-up caches unless asked. */
async function privateDist(withWarmUp = false): Promise<{ bin: string; cacheDir: string }> {
  const dist = join(await tempProject('yoke-dist-'), 'dist');
  cpSync(dirname(YOKE_BIN), dist, {
    recursive: true,
    filter: (source) => withWarmUp || !source.endsWith('.cache'),
  });
  return { bin: join(dist, 'yoke.js'), cacheDir: join(dist, '.cache') };
}

const cacheFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.v8cache'));

describe('the code cache', () => {
  it('is saved by the first start, used by the next, and replaced when corrupt', async () => {
    const { bin, cacheDir } = await privateDist();
    const cwd = await tempProject();
    const run = (env: Record<string, string | undefined> = {}) =>
      runYoke(['-p', 'hi', '--debug'], { bin, cwd, env: { ...mockEnv(server.url, home), ...env } });

    const first = await run();
    expect(first.stdout).toBe('cached hello\n');
    expect(first.stderr).toContain('code cache: missing');
    // Only the app and the engine ran: the vendor bundles (OpenAI and MCP SDKs, turndown, …) and
    // the other lazy ones (the interactive UI, the subcommands, the OpenAI provider) stay unloaded.
    const [file, ...others] = cacheFiles(cacheDir).sort();
    expect(file).toMatch(/^app-print-[0-9a-f]{16}-v\d+\.\d+\.\d+-\w+\.v8cache$/);
    expect(others).toEqual([expect.stringMatching(/^lazy-engine-[0-9a-f]{16}-/)]);

    const second = await run();
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('cached hello\n');
    expect(second.stderr).toContain('code cache: used');

    const path = join(cacheDir, file as string);
    writeFileSync(path, 'garbage, not bytecode');
    const third = await run();
    expect(third.stdout).toBe('cached hello\n');
    expect(third.stderr).toContain('code cache: rejected');
    expect(readFileSync(path).length).toBeGreaterThan(10_000);
    expect((await run()).stderr).toContain('code cache: used');
  });

  it('covers a vendor bundle loaded on the way, such as the OpenAI SDK for --provider openai', async () => {
    const { bin, cacheDir } = await privateDist();
    const env = {
      ...mockEnv(server.url, home),
      OPENAI_BASE_URL: `${server.url}/v1`,
      OPENAI_API_KEY: 'sk-e2e',
    };
    const args = ['-p', 'hi', '--provider', 'openai', '--model', 'llama3'];
    const first = await runYoke(args, { bin, cwd: await tempProject(), env });
    expect(first.stdout).toBe('cached hello\n');
    const names = cacheFiles(cacheDir).sort();
    expect(names).toHaveLength(4);
    expect(names[0]).toMatch(/^app-print-/);
    expect(names[1]).toMatch(/^lazy-engine-[0-9a-f]{16}-/);
    expect(names[2]).toMatch(/^lazy-openai-[0-9a-f]{16}-/);
    expect(names[3]).toMatch(/^vendor-openai-[0-9a-f]{16}-/);
    const second = await runYoke([...args, '--debug'], { bin, cwd: await tempProject(), env });
    expect(second.stdout).toBe('cached hello\n');
    expect(second.stderr).toContain('code cache: used');
  });

  it('keeps a separate cache for sessions the Agent SDK drives over stream-json', async () => {
    const { bin, cacheDir } = await privateDist();
    const input = `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' } })}\n`;
    const args = ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'];
    const env = mockEnv(server.url, home);
    const session = await runYoke(args, { bin, cwd: await tempProject(), env, input });
    expect(session.stdout).toContain('"subtype":"success"');
    await runYoke(['-p', 'hi'], { bin, cwd: await tempProject(), env });
    // The session itself is the `stream-json` lazy bundle, which a `-p` run never loads.
    const names = cacheFiles(cacheDir).sort();
    expect(names).toHaveLength(4);
    expect(names[0]).toMatch(/^app-print-/);
    expect(names[1]).toMatch(/^app-stream-json-/);
    expect(names[2]).toMatch(/^lazy-engine-[0-9a-f]{16}-/);
    expect(names[3]).toMatch(/^lazy-stream-json-[0-9a-f]{16}-/);
  });

  it('saves the cache of another command as it exits', async () => {
    const { bin, cacheDir } = await privateDist();
    const result = await runYoke(['sessions', 'list'], {
      bin,
      cwd: await tempProject(),
      env: mockEnv(server.url, home),
    });
    expect(result.code).toBe(0);
    // The subcommands live in the lazy `interactive` bundle, which saves its cache as it loads.
    expect(cacheFiles(cacheDir).sort()).toEqual([
      expect.stringMatching(/^app-other-[0-9a-f]{16}-/),
      expect.stringMatching(/^lazy-interactive-[0-9a-f]{16}-/),
    ]);
  });

  it('starts from the build warm-up cache until the first real run saves its own', async () => {
    const { bin, cacheDir } = await privateDist();
    // What `npm run build` does last (scripts/warm-code-cache.mjs), on this copy.
    const warmUp = pathToFileURL(join(import.meta.dirname, '../../scripts/warm-code-cache.mjs')).href;
    const script = `import(${JSON.stringify(warmUp)}).then((m) => m.warmCodeCaches(${JSON.stringify(dirname(bin))}))`;
    const warmed = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(warmed.status, warmed.stderr).toBe(0);
    expect(
      cacheFiles(cacheDir)
        .filter((f) => f.startsWith('app-'))
        .sort(),
    ).toEqual([
      expect.stringMatching(/^app-other-.*\.warm\.v8cache$/),
      expect.stringMatching(/^app-print-.*\.warm\.v8cache$/),
      expect.stringMatching(/^app-stream-json-.*\.warm\.v8cache$/),
    ]);

    const cwd = await tempProject();
    const run = () => runYoke(['-p', 'hi', '--debug'], { bin, cwd, env: mockEnv(server.url, home) });
    expect((await run()).stderr).toContain('code cache: warm');
    expect(cacheFiles(cacheDir).filter((f) => f.startsWith('app-print-'))).toEqual([
      expect.stringMatching(/^app-print-[0-9a-f]{16}-v[\d.]+-\w+\.v8cache$/),
    ]);
    expect((await run()).stderr).toContain('code cache: used');
  });

  it('is neither read nor written with YOKE_CODE_CACHE=off', async () => {
    const { bin, cacheDir } = await privateDist();
    const cwd = await tempProject();
    const result = await runYoke(['-p', 'hi', '--debug'], {
      bin,
      cwd,
      env: { ...mockEnv(server.url, home), YOKE_CODE_CACHE: 'off' },
    });
    expect(result.stdout).toBe('cached hello\n');
    expect(result.stderr).toContain('code cache: off');
    expect(() => cacheFiles(cacheDir)).toThrow(/ENOENT/);
  });
});
