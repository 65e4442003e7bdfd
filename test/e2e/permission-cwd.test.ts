/**
 * Permission decisions use the directory each call runs in: after a Bash `cd`, a relative write
 * in the next call is judged where it will land, not where the turn started. In acceptEdits
 * mode that decides whether a write inside the project runs and whether one outside is refused.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import { fileExists, mockEnv, runYoke, tempProject } from './helpers';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ scenario: [] });
});
afterAll(async () => {
  await server.close();
});

/** A project one level inside a private folder, so `../` of the project is still ours to check. */
async function nestedProject() {
  const outer = await tempProject();
  const cwd = join(outer, 'proj');
  await mkdir(join(cwd, 'sub', 'deeper'), { recursive: true });
  const home = await tempProject('yoke-home-');
  return { outer, cwd, env: mockEnv(server.url, home) };
}

const toolUse = (id: string, name: string, input: Record<string, unknown>) => ({
  reply: { content: [{ type: 'tool_use' as const, id, name, input }] },
});
const say = (text: string) => ({ reply: { content: [{ type: 'text' as const, text }] } });

/** The tool_result the model was sent for `id`, from the recorded requests. */
function resultFor(id: string): string {
  for (const request of server.requests) {
    const messages = (request.body as { messages: { content: unknown }[] }).messages;
    for (const message of messages) {
      if (!Array.isArray(message.content)) continue;
      const block = message.content.find(
        (b: { type?: string; tool_use_id?: string }) => b.type === 'tool_result' && b.tool_use_id === id,
      );
      if (block) return JSON.stringify(block);
    }
  }
  throw new Error(`no tool_result for ${id}`);
}

describe('the working directory of each call (acceptEdits)', () => {
  it('judges writes after `cd sub` from sub: one inside runs, one outside is refused', async () => {
    const { outer, cwd, env } = await nestedProject();
    server.reset([
      toolUse('c1', 'Bash', { command: 'cd sub/deeper' }),
      // From sub/deeper this is proj/inside.txt; judged from the project root it would be outside.
      toolUse('w1', 'Bash', { command: 'echo x > ../../inside.txt' }),
      toolUse('w2', 'Write', { file_path: '../written.txt', content: 'relative' }),
      // From sub/deeper this leaves the project.
      toolUse('w3', 'Bash', { command: 'echo x > ../../../escaped.txt' }),
      say('done'),
    ]);
    const { code } = await runYoke(['-p', 'go', '--permission-mode', 'acceptEdits'], { cwd, env });
    expect(code).toBe(0);
    expect(await readFile(join(cwd, 'inside.txt'), 'utf8')).toBe('x\n');
    expect(await readFile(join(cwd, 'sub', 'written.txt'), 'utf8')).toBe('relative');
    expect(resultFor('w3')).toContain('outside the project');
    expect(await fileExists(join(outer, 'escaped.txt'))).toBe(false);
  });

  it('gives calls of one response the cwd left by the calls before them', async () => {
    const { cwd, env } = await nestedProject();
    server.reset([
      {
        reply: {
          content: [
            { type: 'tool_use' as const, id: 'c1', name: 'Bash', input: { command: 'cd sub/deeper' } },
            {
              type: 'tool_use' as const,
              id: 'w1',
              name: 'Bash',
              input: { command: 'echo x > ../../together.txt' },
            },
          ],
        },
      },
      say('done'),
    ]);
    const { code } = await runYoke(['-p', 'go', '--permission-mode', 'acceptEdits'], { cwd, env });
    expect(code).toBe(0);
    expect(await readFile(join(cwd, 'together.txt'), 'utf8')).toBe('x\n');
  });

  // Calibration: before, every call of a turn was judged against the cwd the turn started in.
  // The second prompt starts in sub/ (where the first left off); after `cd ..` the write of
  // `../marker` was judged as proj/marker (inside, allowed in acceptEdits) and landed next to
  // the project, in `outer`.
  it('judges a write after `cd ..` from where it runs, not from where the turn started', async () => {
    const { outer, cwd, env } = await nestedProject();
    server.reset([
      toolUse('c1', 'Bash', { command: 'cd sub' }),
      say('in sub'),
      toolUse('c2', 'Bash', { command: 'cd ..' }),
      toolUse('w1', 'Bash', { command: 'echo x > ../marker' }),
      say('done'),
    ]);
    const prompt = (text: string) =>
      JSON.stringify({ type: 'user', message: { role: 'user', content: text } });
    const { code, stdout } = await runYoke(
      [
        '-p',
        '--input-format',
        'stream-json',
        '--output-format',
        'stream-json',
        '--verbose',
        '--permission-mode',
        'acceptEdits',
      ],
      { cwd, env, input: `${prompt('go to sub')}\n${prompt('now write')}\n` },
    );
    expect(code).toBe(0);
    expect(stdout.match(/"type":"result"/g)).toHaveLength(2);
    expect(resultFor('w1')).toContain('outside the project');
    expect(await fileExists(join(outer, 'marker'))).toBe(false);
    expect(await fileExists(join(cwd, 'marker'))).toBe(false);
  });
});
