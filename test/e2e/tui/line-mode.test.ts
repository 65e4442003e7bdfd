/**
 * The line mode (TERM=dumb) in a real terminal (tmux): a plain `> ` prompt, the answer streamed
 * as lines, one line per tool, and the permission question asked and answered as a line — allow
 * by number, deny by typing what the model should do instead — and the .mcp.json question.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTuiFixture } from './fixture';
import { tmuxAvailable } from './tmux';

const hasTmux = tmuxAvailable();
const fx = useTuiFixture('yoke-line-mode-');
const PROMPT = /\[\S+ · default mode · context \d+% · \$[\d.]+\]\n> $/m;

const removeTurn = [
  {
    reply: {
      content: [
        { type: 'text' as const, text: 'I will remove it.' },
        {
          type: 'tool_use' as const,
          name: 'Bash',
          input: { command: 'rm -rf build-dir && echo removed-it' },
        },
      ],
    },
  },
];

describe.skipIf(!hasTmux)('the line mode in tmux', { timeout: 120_000 }, () => {
  it('asks permission as a line; 1 allows; the tool and the streamed answer are printed as lines', async () => {
    await mkdir(join(fx.cwd, 'build-dir'), { recursive: true });
    fx.server.reset([
      ...removeTurn,
      { reply: { content: [{ type: 'text', text: 'The folder is gone.\n\nNothing else changed.' }] } },
    ]);
    const t = await fx.open([], { term: 'dumb' });
    let screen = await t.waitFor(PROMPT, { timeoutMs: 45_000 });
    expect(screen).toContain('(line mode: TERM=dumb)');
    await t.type('clean the build folder');
    await t.press('Enter');
    screen = await t.waitFor('Answer 1-4, or type what the model should do instead:');
    expect(screen).toContain('Permission needed: Bash command');
    expect(screen).toContain('  rm -rf build-dir && echo removed-it');
    expect(screen).toContain("  2. Yes, and don't ask again for:");
    await t.type('1');
    await t.press('Enter');
    screen = await t.waitFor((s) => s.includes('Nothing else changed.') && PROMPT.test(s));
    expect(screen).toMatch(/\* Bash\(rm -rf build-dir && echo removed-it\)\n {2}-> exit 0\n {4}removed-it/);
    expect(screen).toContain('  I will remove it.');
    expect(screen).toContain('  The folder is gone.');
    expect(existsSync(join(fx.cwd, 'build-dir'))).toBe(false);
    // The terminal echoed the prompt; the line mode does not print it again.
    expect(screen.split('> clean the build folder').length - 1).toBe(1);
  });

  it('any other answer denies and tells the model; Ctrl+D quits with the resume line', async () => {
    await mkdir(join(fx.cwd, 'build-dir'), { recursive: true });
    fx.server.reset([
      ...removeTurn,
      { reply: { content: [{ type: 'text', text: 'Understood, keeping it.' }] } },
    ]);
    const t = await fx.open([], { term: 'dumb' });
    await t.waitFor(PROMPT, { timeoutMs: 45_000 });
    await t.type('clean the build folder');
    await t.press('Enter');
    await t.waitFor('Answer 1-4');
    await t.type('move it to the trash instead');
    await t.press('Enter');
    await t.waitFor((s) => s.includes('Understood, keeping it.') && PROMPT.test(s));
    expect(existsSync(join(fx.cwd, 'build-dir'))).toBe(true);
    expect(JSON.stringify(fx.server.requests.at(-1)?.body)).toContain(
      'The user denied this Bash call and said: move it to the trash instead',
    );
    await t.press('C-d');
    expect(await t.exitCode()).toBe(0);
    expect(await t.screen(200)).toMatch(/Resume it with: yoke --resume [0-9a-f-]+/);
  });

  it("asks about the folder's .mcp.json servers as a line; y starts one and is remembered", async () => {
    const fixture = resolve(import.meta.dirname, '../../fixtures/mcp/fixture-server.mjs');
    const mcpJson = join(fx.cwd, '.mcp.json');
    await writeFile(
      mcpJson,
      JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: [fixture] } } }),
    );
    try {
      const t = await fx.open([], { term: 'dumb' });
      const screen = await t.waitFor('Start it? y = yes', { timeoutMs: 45_000 });
      expect(screen).toContain(`asks Yoke to start the MCP server "fx":\n  ${process.execPath} ${fixture}`);
      await t.type('y');
      await t.press('Enter');
      await t.waitFor((s) => s.includes('MCP server "fx" approved; connecting.') && PROMPT.test(s));
      // The answer is said at once and saved alongside: wait for the file to have it.
      const approvedIn = async () => {
        const text = await readFile(join(fx.home, 'state.json'), 'utf8').catch(() => '{}');
        return (JSON.parse(text) as { projects?: Record<string, { enabledMcpjsonServers?: string[] }> })
          .projects?.[fx.cwd]?.enabledMcpjsonServers;
      };
      const deadline = Date.now() + 15_000;
      while (!(await approvedIn()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await approvedIn()).toEqual(['fx']);
    } finally {
      await rm(mcpJson, { force: true });
    }
  });
});
