/**
 * The command line in the REPL (tmux, against the mock model server): the flags that make sense
 * interactively reach the session as they do with -p (model, permission mode, system prompt,
 * tools allowed and removed, settings, --add-dir, --agents, a first prompt); `--bare` leaves out
 * the memory files and the hooks; an MCP server that has not answered yet does not hold up the
 * first turn (it connects in the background, after the prompt is usable).
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileExists, tempProject } from '../helpers';
import { READY, useTuiFixture } from './fixture';
import { tmuxAvailable } from './tmux';

const hasTmux = tmuxAvailable();
const MEMORY_MARK = 'MEMORY-MARK-88: the project builds with make';
const fx = useTuiFixture('yoke-flags-', async (cwd) => {
  await writeFile(join(cwd, 'AGENTS.md'), `# Notes\n\n${MEMORY_MARK}\n`);
  // Each prompt leaves a line in hook-fired: the proof that the project's hooks ran.
  await mkdir(join(cwd, '.yoke'), { recursive: true });
  const hook = { type: 'command', command: 'echo fired >> hook-fired' };
  await writeFile(
    join(cwd, '.yoke', 'settings.json'),
    JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [hook] }] } }),
  );
});

type Body = { model?: string; system?: unknown; tools?: { name: string }[]; messages?: unknown };
/** The request that carried `prompt` (the first such: later ones carry it too). */
const requestWith = (prompt: string) =>
  (fx.server.requests
    .map((r) => r.body as Body)
    .find((body) => JSON.stringify(body.messages).includes(prompt)) ?? {}) as Body;
const answer = (text: string) => fx.server.reset([{ reply: { content: [{ type: 'text', text }] } }]);

describe.skipIf(!hasTmux)('flags in the REPL', { timeout: 120_000 }, () => {
  it('model, permission mode, system prompt, removed tools, --add-dir, --agents and a first prompt work as with -p', async () => {
    answer('flags-seen');
    const extra = await tempProject('yoke-flags-extra-');
    const agents = { reviewer: { description: 'Reviews-diffs-agent-42', prompt: 'You review diffs.' } };
    const t = await fx.open([
      '--model',
      'haiku',
      '--permission-mode',
      'acceptEdits',
      '--append-system-prompt',
      'APPENDED-SYSTEM-MARK',
      '--disallowedTools',
      'WebFetch',
      '--add-dir',
      extra,
      '--agents',
      JSON.stringify(agents),
      'the first prompt from the command line',
    ]);
    const screen = await t.waitFor((s) => s.includes('flags-seen') && /accept edits on/.test(s), {
      timeoutMs: 45_000,
    });
    expect(screen).toMatch(/haiku\S* · ⏵⏵ accept edits on/);
    const body = requestWith('the first prompt from the command line');
    expect(body.model).toContain('haiku');
    const system = JSON.stringify(body.system);
    expect(system).toContain('APPENDED-SYSTEM-MARK');
    expect(system).toContain(extra);
    const tools = body.tools?.map((tool) => tool.name) ?? [];
    expect(tools).toContain('Read');
    expect(tools).not.toContain('WebFetch');
    expect(JSON.stringify(body.tools)).toContain('Reviews-diffs-agent-42');
  });

  it('--allowedTools runs a command without asking; a --settings deny rule refuses one', async () => {
    fx.server.reset([
      {
        reply: {
          content: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch allowed-by-flag.txt' } }],
        },
      },
      {
        reply: {
          content: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch denied-by-settings.txt' } }],
        },
      },
      { reply: { content: [{ type: 'text', text: 'both-tried' }] } },
    ]);
    const settings = { permissions: { deny: ['Bash(touch denied-by-settings.txt)'] } };
    const t = await fx.openReady([
      '--allowedTools',
      'Bash(touch allowed-by-flag.txt)',
      '--settings',
      JSON.stringify(settings),
    ]);
    await t.type('make both files');
    await t.press('Enter');
    const screen = await t.waitFor('both-tried');
    // Neither asked: one was allowed by the flag, the other denied by the rule.
    expect(screen).not.toContain("don't ask again");
    expect(await fileExists(join(fx.cwd, 'allowed-by-flag.txt'))).toBe(true);
    expect(await fileExists(join(fx.cwd, 'denied-by-settings.txt'))).toBe(false);
    expect(screen).toContain('⎿ Denied by rule Bash(touch denied-by-settings.txt)');
  });

  it('--bare leaves out the memory files and the hooks, which a plain start has', async () => {
    // The control: without --bare the memory file is in the system prompt and the hook runs.
    await rm(join(fx.cwd, 'hook-fired'), { force: true });
    answer('plain-answer');
    let t = await fx.openReady();
    await t.type('plain start');
    await t.press('Enter');
    await t.waitFor('plain-answer');
    expect(JSON.stringify(requestWith('plain start').system)).toContain(MEMORY_MARK);
    expect(await readFile(join(fx.cwd, 'hook-fired'), 'utf8')).toBe('fired\n');
    await t.close();

    answer('bare-answer');
    t = await fx.openReady(['--bare']);
    await t.type('bare start');
    await t.press('Enter');
    await t.waitFor('bare-answer');
    expect(JSON.stringify(requestWith('bare start').system)).not.toContain(MEMORY_MARK);
    expect(await readFile(join(fx.cwd, 'hook-fired'), 'utf8')).toBe('fired\n');
  });

  it('an MCP server that has not answered yet does not hold up the first turn', async () => {
    // It reads its stdin and never answers the handshake (and ends when Yoke closes its stdin).
    const config = join(await tempProject('yoke-flags-mcp-'), 'mcp.json');
    await writeFile(
      config,
      JSON.stringify({ mcpServers: { silent: { command: 'sh', args: ['-c', 'cat > /dev/null'] } } }),
    );
    answer('answered-without-waiting');
    const t = await fx.open(['--mcp-config', config]);
    await t.waitFor(READY, { timeoutMs: 45_000 });
    await t.type('are you there?');
    await t.press('Enter');
    await t.waitFor('answered-without-waiting');
    // The server is still being connected: the turn did not wait for it.
    await t.type('/mcp ');
    await t.press('Enter');
    await t.waitFor(/silent\s.*(pending|connecting)/);
  });
});
