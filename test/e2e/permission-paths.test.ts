/**
 * Paths through the real CLI (`yoke -p`, no one to ask): a hostile model reaching past the
 * project through a symlink, a brace expansion or a `cd`, and past a `Read(./.env)` deny rule
 * through a glob, a link or a recursive search — nothing outside or denied reaches the model, no
 * file is written outside — while ordinary reads keep working and Grep says what it left out.
 */
import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import { mockEnv, runYoke, tempProject } from './helpers';

const ENV_SECRET = 'ENV_SECRET_e2e_5b1';
const OUTSIDE_SECRET = 'OUTSIDE_SECRET_e2e_c07';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ scenario: [] });
});
afterAll(async () => {
  await server.close();
});

async function scratch(): Promise<{ cwd: string; outside: string; home: string }> {
  const top = await tempProject('yoke-e2e-paths-');
  const cwd = join(top, 'proj');
  const outside = join(top, 'outside');
  await mkdir(join(cwd, '.yoke'), { recursive: true });
  await mkdir(outside);
  await writeFile(
    join(cwd, '.yoke', 'settings.json'),
    JSON.stringify({ permissions: { deny: ['Read(./.env)'] } }),
  );
  await writeFile(join(cwd, '.env'), `${ENV_SECRET}\n`);
  await writeFile(join(cwd, 'README.md'), 'hello readme\n');
  await writeFile(join(outside, 'secret.txt'), `${OUTSIDE_SECRET}\n`);
  await symlink(outside, join(cwd, 'out-link'));
  await symlink('.env', join(cwd, 'env-link'));
  return { cwd, outside, home: await tempProject('yoke-home-') };
}

type Call = { name: string; input: Record<string, unknown> };

/** The model makes these calls in one reply, then stops; returns each tool result's text. */
async function run(calls: Call[], args: string[] = []): Promise<{ results: string[]; code: number | null }> {
  const { cwd, home } = current;
  server.reset([
    {
      reply: {
        content: calls.map((call, i) => ({
          type: 'tool_use',
          id: `t${i}`,
          name: call.name,
          input: call.input,
        })),
      },
    },
    { reply: { content: [{ type: 'text', text: 'done' }] } },
  ]);
  const { code } = await runYoke(['-p', 'go', ...args], { cwd, env: mockEnv(server.url, home) });
  const body = server.requests[1]?.body as { messages: { content: unknown }[] };
  const blocks = body.messages.at(-1)?.content as Array<{ tool_use_id: string; content: unknown }>;
  const results = calls.map((_, i) => JSON.stringify(blocks.find((b) => b.tool_use_id === `t${i}`)?.content));
  return { results, code };
}

let current: { cwd: string; outside: string; home: string };

describe('paths under yoke -p (default mode, nobody to ask)', () => {
  beforeAll(async () => {
    current = await scratch();
  });

  it('keeps outside and denied files from the model, and lets ordinary reads through', async () => {
    const bash = (command: string): Call => ({ name: 'Bash', input: { command } });
    const attempts: Call[] = [
      bash('cat {,../outside/secret.txt}'),
      bash('cat out-link/secret.txt'),
      bash('cd out-link && cat secret.txt'),
      bash('cat .e*'),
      bash('cat env-link'),
      bash('grep -r ENV_SECRET .'),
      { name: 'Read', input: { file_path: join(current.cwd, 'out-link/secret.txt') } },
      { name: 'Read', input: { file_path: join(current.cwd, 'env-link') } },
      { name: 'Glob', input: { pattern: '../outside/*' } },
    ];
    // One call per run: a refused Bash call would cancel its siblings in the same reply.
    for (const attempt of attempts) {
      const { results, code } = await run([attempt]);
      expect(code).toBe(0);
      expect(results[0]).not.toContain(OUTSIDE_SECRET);
      expect(results[0]).not.toContain(ENV_SECRET);
      expect(results[0]).toMatch(/not granted|Denied by rule/);
    }

    const controls = await run([
      { name: 'Bash', input: { command: 'cat README.md' } },
      { name: 'Grep', input: { pattern: 'ENV_SECRET|hello', output_mode: 'content' } },
    ]);
    expect(controls.results[0]).toContain('hello readme');
    expect(controls.results[1]).toContain('README.md:1:hello readme');
    expect(controls.results[1]).not.toContain(ENV_SECRET);
    expect(controls.results[1]).toContain('left out: Read deny rules cover it');
  });

  it('writes nothing outside through a symlink in acceptEdits mode', async () => {
    const { results } = await run(
      [
        { name: 'Bash', input: { command: 'echo x > out-link/made.txt' } },
        { name: 'Write', input: { file_path: join(current.cwd, 'out-link/written.txt'), content: 'x' } },
      ],
      ['--permission-mode', 'acceptEdits'],
    );
    for (const result of results) expect(result).toContain('not granted');
    await expect(stat(join(current.outside, 'made.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(stat(join(current.outside, 'written.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readFile(join(current.outside, 'secret.txt'), 'utf8')).toBe(`${OUTSIDE_SECRET}\n`);
  });
});
