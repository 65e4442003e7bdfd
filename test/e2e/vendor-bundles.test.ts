/**
 * Packages most starts never use live in their own bundles under dist/vendor/ and load on first
 * use (src/lib/vendor.ts). Each is driven here through the built CLI the way a user reaches it,
 * so a bundle that lost an export fails here: turndown (WebFetch), yaml (a mock-server scenario
 * file), the tree-sitter runtime (Bash command analysis). The OpenAI SDK, the MCP SDK and classic
 * zod are covered by the provider, Agent SDK and structured-output tests.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import { mockEnv, runYoke, tempProject, YOKE_BIN } from './helpers';

let server: MockServer;
let home: string;
let site: Server;
let siteUrl: string;

beforeAll(async () => {
  server = await startMockServer({ scenario: [] });
  home = await tempProject('yoke-home-');
  site = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<html><body><h1>Vendor Test</h1><p>Some <em>emphasis</em> here.</p></body></html>');
  });
  site.listen(0, '127.0.0.1');
  await once(site, 'listening');
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/page`;
});
afterAll(async () => {
  await server.close();
  site.close();
});

describe('vendor bundles in the built CLI', () => {
  it('turndown: WebFetch turns a page into markdown for the fast model', async () => {
    server.reset([
      {
        reply: {
          content: [
            { type: 'tool_use', id: 'w1', name: 'WebFetch', input: { url: siteUrl, prompt: 'title?' } },
          ],
        },
      },
      { reply: { content: [{ type: 'text', text: 'The title is Vendor Test.' }] } },
      { reply: { content: [{ type: 'text', text: 'done' }] } },
    ]);
    const allowLocal = JSON.stringify({ webFetch: { allowedHosts: ['127.0.0.1'] } });
    const { code, stdout, stderr } = await runYoke(
      ['-p', 'fetch it', '--allowedTools', 'WebFetch', '--settings', allowLocal],
      { cwd: await tempProject(), env: mockEnv(server.url, home) },
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe('done\n');
    const summarizerRequest = JSON.stringify(server.requests[1]?.body);
    expect(summarizerRequest).toContain('# Vendor Test');
    expect(summarizerRequest).toContain('Some _emphasis_ here.');
    expect(JSON.stringify(server.requests[2]?.body)).toContain('The title is Vendor Test.');
  });

  it('yaml: `yoke mock-server` serves a YAML scenario', async () => {
    const dir = await tempProject();
    const scenarioFile = join(dir, 'scenario.yaml');
    await writeFile(scenarioFile, '- reply:\n    content:\n      - type: text\n        text: from yaml\n');
    const child = spawn(
      process.execPath,
      [YOKE_BIN, 'mock-server', '--scenario', scenarioFile, '--port', '0'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const exited = once(child, 'close').then(([code]) => {
        throw new Error(`yoke mock-server exited (${code}) before printing its address`);
      });
      const [line] = (await Promise.race([
        once(createInterface({ input: child.stdout }), 'line'),
        exited,
      ])) as [string];
      const url = line.replace(/^MOCK_SERVER_URL=/, '');
      const response = await fetch(`${url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({
          model: 'claude-haiku-5-5',
          max_tokens: 10,
          messages: [{ role: 'user', content: 'hi' }],
        }),
      });
      expect(JSON.stringify(await response.json())).toContain('from yaml');
    } finally {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'close');
      }
    }
  });

  it('web-tree-sitter: a compound command is parsed into parts a rule allows one by one', async () => {
    server.reset([
      {
        reply: {
          content: [{ type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'echo one && echo two' } }],
        },
      },
      { reply: { content: [{ type: 'text', text: 'done' }] } },
    ]);
    const { code } = await runYoke(['-p', 'run it', '--allowedTools', 'Bash(echo:*)'], {
      cwd: await tempProject(),
      env: mockEnv(server.url, home),
    });
    expect(code).toBe(0);
    // Without a parse the rule could not vouch for both parts, and the command would be refused.
    const toolResult = JSON.stringify(server.requests[1]?.body);
    expect(toolResult).not.toContain('"is_error":true');
    expect(toolResult).toContain('one\\ntwo');
  });
  it("ink: Yoga's layout engine starts without loading Node's fetch (undici, ~15 ms of the REPL's launch)", async () => {
    const script = `
      const bundle = require(${JSON.stringify(join(YOKE_BIN, '..', 'vendor', 'ink.js'))}).default;
      Promise.resolve(bundle['yoga-layout'].yogaReady).then(() => {
        const node = bundle['yoga-layout'].default.Node.create();
        node.calculateLayout(80, 24);
        console.log(JSON.stringify({ layout: node.getComputedWidth(), undici: process.moduleLoadList.filter((m) => m.includes('undici')) }));
      });`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    await once(child, 'close');
    expect(JSON.parse(out)).toEqual({ layout: 80, undici: [] });
  });
  it("ink: a frame of ASCII, borders and Latin makes no Intl object (ICU's start-up, ~20-30 ms of the REPL's launch); wide text a segmenter; emoji of one code point, with U+FE0F or a skin tone no emoji expression, the first flag or ZWJ sequence makes it", async () => {
    // The text packages' segmenters and string-width's RGI_Emoji expression are made on first
    // use (scripts/lazy-intl.mjs), rows of characters that stand alone skip the segmenter, and
    // src/tui/terminal/rgi-emoji-shortcut.ts answers for the common emoji shapes.
    const script = `
      const made = { segmenters: 0, rgi: 0 };
      Intl.Segmenter = new Proxy(Intl.Segmenter, { construct(t, a) { made.segmenters++; return Reflect.construct(t, a); } });
      globalThis.RegExp = new Proxy(RegExp, { construct(t, a) { if (String(a[0]).includes('RGI_Emoji')) made.rgi++; return Reflect.construct(t, a); } });
      const { PassThrough } = require('node:stream');
      const bundle = require(${JSON.stringify(join(YOKE_BIN, '..', 'vendor', 'ink.js'))}).default;
      const { render, Box, Text } = bundle.ink;
      const h = bundle.react.createElement;
      const stdout = Object.assign(new PassThrough(), { columns: 60, rows: 20, isTTY: true });
      let written = '';
      stdout.on('data', (chunk) => { written += chunk; });
      const view = (text) => h(Box, { borderStyle: 'round' }, h(Text, { color: 'green' }, text));
      const frame = (text) => new Promise((resolve) => {
        const poll = () => (written.includes(text) ? resolve() : setTimeout(poll, 5));
        poll();
      });
      Promise.resolve(bundle['yoga-layout'].yogaReady).then(async () => {
        const app = render(view('hello ─ world → café'), { stdout, stdin: new PassThrough(), patchConsole: false, exitOnCtrlC: false });
        await frame('café');
        const plain = { ...made };
        app.rerender(view('漢字 wide'));
        await frame('漢字');
        const wide = { ...made };
        app.rerender(view('thumbs 👍🏽 ✅ ⚠️'));
        await frame('⚠️');
        const emoji = { ...made };
        app.rerender(view('flag 🇩🇪'));
        await frame('🇩🇪');
        app.unmount();
        console.log(JSON.stringify({ plain, wide, emoji, flag: made }));
      });`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    await once(child, 'close');
    const { plain, wide, emoji, flag } = JSON.parse(out) as Record<
      string,
      { segmenters: number; rgi: number }
    >;
    expect(plain).toEqual({ segmenters: 0, rgi: 0 });
    // Wide text is segmented, but no emoji can be in it: the RGI_Emoji expression (~40-100 ms to
    // compile at its first test here) waits for one.
    expect(wide?.segmenters).toBeGreaterThan(0);
    expect(wide?.rgi).toBe(0);
    // Nor in a toned thumb, a check mark or a warning sign: the shortcut answers for them.
    expect(emoji?.rgi).toBe(0);
    expect(flag?.rgi).toBe(1);
  });
});
