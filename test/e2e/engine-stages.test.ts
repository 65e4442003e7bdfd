/**
 * The engine's later stages through the built CLI against the mock model server: media the API
 * refuses, collapse and snip switched on by settings (and a resume after a snip), and what reaches
 * the model at a turn boundary — a background shell's end, a file changed behind its back, a
 * prompt sent during the turn.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import type { ScenarioInput } from '../../src/testing/mock-server/scenario';
import { mockEnv, runYoke, startYoke, tempProject } from './helpers';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Body = { system?: unknown; messages: { role: string; content: unknown }[] };

async function setup(scenario: ScenarioInput) {
  server = await startMockServer({ scenario });
  const cwd = await tempProject();
  const home = await tempProject('yoke-e2e-home-');
  return { cwd, home, env: mockEnv(server.url, home), server };
}

const bodies = () =>
  (server?.requests ?? []).filter((r) => r.path === '/v1/messages').map((r) => r.body as Body);
const messagesText = (body: Body | undefined) => JSON.stringify(body?.messages ?? []);
const toolUse = (name: string, input: Record<string, unknown>, id?: string) => ({
  reply: { content: [{ type: 'tool_use' as const, name, input, ...(id ? { id } : {}) }] },
});
const say = (text: string) => ({ reply: { content: [{ type: 'text' as const, text }] } });

async function json(args: string[], cwd: string, env: Record<string, string | undefined>) {
  const run = await runYoke(['-p', ...args, '--output-format', 'json'], { cwd, env });
  return { ...run, result: JSON.parse(run.stdout) as Record<string, unknown> };
}

/** Polls a condition the process cannot announce (a frame on stdout); no fixed waits. */
async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('media the API refuses', () => {
  async function withScreenshot(scenario: ScenarioInput) {
    const stage = await setup(scenario);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c0ffee' } })
      .png()
      .toBuffer();
    await writeFile(join(stage.cwd, 'shot.png'), png);
    return stage;
  }

  it('are replaced by a note and the request is retried once', async () => {
    const { cwd, env } = await withScreenshot([
      toolUse('Read', { file_path: 'shot.png' }),
      // As the real API does: every request that still carries the image is refused.
      { match: { hasImage: true }, fault: { type: 'media_error' }, repeat: 'forever' },
      say('I could not see the screenshot.'),
    ]);
    const { result, code } = await json(['describe shot.png'], cwd, env);
    expect(result).toMatchObject({ is_error: false, result: 'I could not see the screenshot.' });
    expect(code).toBe(0);
    const [, refused, retried] = bodies();
    expect(messagesText(refused)).toContain('"type":"image"');
    expect(messagesText(retried)).not.toContain('"type":"image"');
    expect(messagesText(retried)).toContain(
      'An image from Read(shot.png) was removed: the model API could not use it (image exceeds 5 MB maximum: ',
    );
  });

  it('end the turn with the error when the retry is refused too', async () => {
    const { cwd, env } = await withScreenshot([
      toolUse('Read', { file_path: 'shot.png' }),
      { fault: { type: 'media_error', problem: 'unreadable' }, repeat: 2 },
    ]);
    const { result, code } = await json(['describe shot.png'], cwd, env);
    expect(code).toBe(1);
    expect(result).toMatchObject({ is_error: true, terminal_reason: 'image_error' });
    expect(JSON.stringify(result.errors)).toContain('Could not process image');
    expect(bodies()).toHaveLength(3);
  });
});

describe('context stages switched on by settings', () => {
  it('context.collapse: a prompt-too-long answer drains the collapses before any compaction', async () => {
    const turns: ScenarioInput = [];
    for (let i = 0; i < 8; i++) turns.push(toolUse('Read', { file_path: `f${i}.txt` }));
    turns.push({ fault: { type: 'prompt_too_long', actualTokens: 210_000, limitTokens: 200_000 } });
    turns.push({
      match: { lastUserTextContains: '[Earlier tool activity, summarized]' },
      ...say('Folded and done.'),
    });
    const { cwd, env } = await setup(turns);
    for (let i = 0; i < 8; i++) await writeFile(join(cwd, `f${i}.txt`), `contents of file ${i}\n`);

    const { result } = await json(
      ['read the files', '--settings', JSON.stringify({ context: { collapse: true } })],
      cwd,
      env,
    );
    expect(result).toMatchObject({ is_error: false, result: 'Folded and done.' });
    const sent = bodies();
    expect(sent).toHaveLength(10);
    const retried = messagesText(sent[9]);
    expect(retried).toContain('- Read({\\"file_path\\":\\"f0.txt\\"}) → 1 contents of file 0');
    // The newest two rounds stay whole; the six before them are one note; no summary call was made.
    expect(retried).toContain('contents of file 7');
    expect(retried.match(/"type":"tool_result"/g)).toHaveLength(2);
    expect(sent.some((b) => JSON.stringify(b.system).includes('summar'))).toBe(false);
  });

  it('context.snip: the oldest rounds go, and a resumed session sends what the snip left', async () => {
    const turns: ScenarioInput = [];
    for (let i = 0; i < 10; i++) {
      // The last response reports a context of 30k tokens, past 60 % of the declared 40k window.
      const usage = i === 9 ? { usage: { inputTokens: 30_000 } } : {};
      turns.push({
        reply: { content: [{ type: 'tool_use', name: 'Read', input: { file_path: `f${i}.txt` } }], ...usage },
      });
    }
    turns.push(say('Read them all.'));
    turns.push({ match: { lastUserTextContains: 'what did you read last' }, ...say('f9.txt.') });
    const { cwd, env } = await setup(turns);
    for (let i = 0; i < 10; i++) await writeFile(join(cwd, `f${i}.txt`), `contents of file ${i}\n`);
    const settings = JSON.stringify({
      context: { snip: true },
      models: { 'yoke-small': { contextWindow: 40_000 } },
    });
    const common = ['--model', 'yoke-small', '--settings', settings];

    const first = await json(['read f0.txt to f9.txt', ...common], cwd, env);
    expect(first.result).toMatchObject({ is_error: false, result: 'Read them all.' });
    const snippedRequest = messagesText(bodies()[10]);
    // The skill listing before the prompt, the prompt, and the first four rounds.
    expect(snippedRequest).toContain('[Earlier conversation removed: 10 older messages were dropped');
    expect(snippedRequest).not.toContain('read f0.txt to f9.txt');
    expect(snippedRequest).not.toContain('contents of file 3');
    expect(snippedRequest).toContain('contents of file 4');

    const resumed = await json(
      ['what did you read last?', '--resume', String(first.result.session_id), ...common],
      cwd,
      env,
    );
    expect(resumed.result).toMatchObject({ is_error: false, result: 'f9.txt.' });
    const after = bodies()[11];
    // The same marker opens the resumed request, so even the cached prefix is the same.
    expect(JSON.stringify(after?.messages[0])).toBe(JSON.stringify(bodies()[10]?.messages[0]));
    expect(messagesText(after)).not.toContain('contents of file 3');
    expect(messagesText(after)).toContain('contents of file 9');
  });
});

describe('at the turn boundary', () => {
  it("a background shell's end reaches the model as a notice", async () => {
    const { cwd, env } = await setup([
      toolUse('Bash', { command: 'echo built', run_in_background: true }),
      toolUse('TaskOutput', { task_id: 'bash_1', block: true }),
      { match: { lastUserTextContains: 'Background shell bash_1' }, ...say('The build is done.') },
    ]);
    const { result } = await json(['build in the background', '--allowedTools', 'Bash'], cwd, env);
    expect(result).toMatchObject({ is_error: false, result: 'The build is done.' });
    const notices = bodies().filter((b) => messagesText(b).includes('Background shell bash_1'));
    expect(messagesText(notices[0])).toContain(
      'Background shell bash_1 (echo built) completed with exit code 0. Its output is in ',
    );
    // Said once: the request after it carries the same message, not a second notice.
    expect(messagesText(bodies().at(-1)).match(/Automated notices/g)).toHaveLength(1);
  });

  it('a file the model read and a command changed comes with its diff', async () => {
    const { cwd, env } = await setup([
      toolUse('Read', { file_path: 'notes.txt' }),
      toolUse('Bash', { command: "sed -i 's/alpha/beta/' notes.txt" }),
      { match: { lastUserTextContains: '+beta' }, ...say('Noticed the change.') },
    ]);
    await writeFile(join(cwd, 'notes.txt'), 'alpha\ngamma\n');
    const { result } = await json(['look at notes.txt', '--allowedTools', 'Bash'], cwd, env);
    expect(result).toMatchObject({ is_error: false, result: 'Noticed the change.' });
    expect(messagesText(bodies()[2])).toContain(
      `- ${join(cwd, 'notes.txt')} changed:\\n@@ -1,2 +1,2 @@\\n-alpha\\n+beta\\n gamma`,
    );
    expect(await readFile(join(cwd, 'notes.txt'), 'utf8')).toBe('beta\ngamma\n');
  });

  it("a prompt sent with priority 'next' joins the running turn (stream-json)", async () => {
    const { cwd, env } = await setup([
      toolUse('Bash', { command: 'while [ ! -f go ]; do sleep 0.02; done; echo waited' }),
      { match: { lastUserTextContains: 'ALSO: name a fruit' }, ...say('Done, and: pineapple.') },
    ]);
    const yoke = startYoke(
      [
        '-p',
        '--input-format',
        'stream-json',
        '--output-format',
        'stream-json',
        '--verbose',
        '--allowedTools',
        'Bash',
      ],
      { cwd, env },
    );
    const send = (line: object) => yoke.child.stdin.write(`${JSON.stringify(line)}\n`);
    const frames = () =>
      yoke
        .stdout()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    send({
      type: 'user',
      message: { role: 'user', content: 'wait for go' },
      parent_tool_use_id: null,
      session_id: '',
    });
    await until(() => yoke.stdout().includes('"name":"Bash"'), 'the Bash call');
    send({
      type: 'user',
      message: { role: 'user', content: 'ALSO: name a fruit' },
      parent_tool_use_id: null,
      session_id: '',
      priority: 'next',
      uuid: 'c0ffee00-0000-4000-8000-000000000002',
    });
    // stdin is read in order: once this answer is out, the prompt above has been queued.
    send({ type: 'control_request', request_id: 'sync-1', request: { subtype: 'mcp_status' } });
    await until(() => yoke.stdout().includes('"request_id":"sync-1"'), 'the control response');
    await writeFile(join(cwd, 'go'), '');
    await until(() => frames().some((f) => f.type === 'result'), 'the result');
    yoke.child.stdin.end();
    const { code } = await yoke.exited;
    expect(code).toBe(0);
    const results = frames().filter((f) => f.type === 'result');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ is_error: false, result: 'Done, and: pineapple.' });
    expect(bodies()).toHaveLength(2);
    const folded = bodies()[1]?.messages.at(-1);
    expect(JSON.stringify(folded)).toMatch(/"tool_result".*ALSO: name a fruit/);
  });
});
