/**
 * The REPL loads the app, its own bundle and Ink; the rest waits for its first use. The engine's
 * bundle (model clients, tools, permissions) loads once the first frame is out. The MCP
 * client's bundle (src/lib/lazy-bundle.ts, scripts/build.mjs) used to load while the REPL set up
 * its first frame, through the /mcp sign-in actions and the `@` mentions: a session with no MCP
 * server and no mention must never load it. The code caches a run saves name the bundles that ran.
 */
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect, it } from 'vitest';
import { tempProject, YOKE_BIN } from '../helpers';
import { useTuiFixture } from './fixture';

const fx = useTuiFixture('yoke-bundles-');

async function privateDist(): Promise<string> {
  const dist = join(await tempProject('yoke-dist-'), 'dist');
  cpSync(dirname(YOKE_BIN), dist, { recursive: true, filter: (source) => !source.endsWith('.cache') });
  return dist;
}

it('the first frame does not wait for the engine: without its bundle the prompt shows, then why the session could not start', {
  timeout: 90_000,
}, async () => {
  const dist = await privateDist();
  rmSync(join(dist, 'lazy-engine.js'));
  const t = await fx.open([], { bin: join(dist, 'yoke.js') });
  await t.waitFor((screen) => screen.includes('could not start'), { timeoutMs: 45_000 });
  const screen = await t.screen();
  expect(screen).toMatch(/╰─+╯/);
  expect(screen).toContain('lazy-engine.js is missing');
  expect(screen).toContain('npm run build');
  expect(screen).toContain('not started');
  await t.press('C-d');
  expect(await t.exitCode()).toBe(1);
});

it('a REPL session without MCP servers or mentions never loads the MCP bundle', {
  timeout: 90_000,
}, async () => {
  const dist = await privateDist();
  fx.server.reset([{ reply: { content: [{ type: 'text', text: 'plain-answer' }] } }]);
  const t = await fx.openReady([], { bin: join(dist, 'yoke.js') });
  await t.type('hello there');
  await t.press('Enter');
  await t.waitFor('plain-answer');
  await t.press('C-d');
  expect(await t.exitCode()).toBe(0);
  const ran = readdirSync(join(dist, '.cache')).map((name) => name.replace(/-[0-9a-f]{16}-.*$/, ''));
  // The control: the caches do name the bundles that ran.
  expect(ran).toEqual(expect.arrayContaining(['app-repl', 'lazy-engine', 'lazy-interactive', 'vendor-ink']));
  expect(ran).not.toContain('lazy-mcp');
});
