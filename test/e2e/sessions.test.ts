/**
 * Sessions through the real CLI: transcripts on disk, --continue, --resume (by prefix), --fork-session,
 * `yoke sessions list`, memory files in the prompt, and resume after the process is killed mid-turn.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describePickerSession, listPickerSessions } from '../../src/interactive/session-picker';
import { createUserMessage } from '../../src/session/messages';
import { transcriptPath } from '../../src/session/transcript-paths';
import { assistant } from '../../src/session/transcript-test-support';
import { TranscriptWriter } from '../../src/session/transcript-writer';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import { fileExists, mockEnv, runYoke, tempProject, YOKE_BIN } from './helpers';

let server: MockServer;

beforeAll(async () => {
  server = await startMockServer({ scenario: [] });
});
afterAll(async () => {
  await server.close();
});

/** Waits for a condition the test cannot be told about directly (a request reaching the server). */
async function until(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const reply = (text: string) => ({ reply: { content: [{ type: 'text' as const, text }] } });
const bodyText = (i: number) => JSON.stringify(server.requests[i]?.body);

async function runJson(args: string[], cwd: string, home: string) {
  const run = await runYoke(['-p', ...args, '--output-format', 'json'], {
    cwd,
    env: mockEnv(server.url, home),
  });
  expect(run.stderr).toBe('');
  return {
    ...run,
    result: JSON.parse(run.stdout) as { session_id: string; result: string; is_error: boolean },
  };
}

describe('sessions', () => {
  it('continues, resumes by prefix and forks, with the history in the request', async () => {
    const cwd = await tempProject();
    const home = await tempProject('yoke-home-');
    server.reset([
      reply('first answer'),
      reply('second answer'),
      reply('third answer'),
      reply('forked answer'),
    ]);

    const first = await runJson(['remember the word avocado'], cwd, home);
    const id = first.result.session_id;
    const projectDirs = await readdir(join(home, 'projects'));
    expect(projectDirs).toHaveLength(1);
    const transcript = await readFile(
      join(home, 'projects', projectDirs[0] as string, `${id}.jsonl`),
      'utf8',
    );
    expect(transcript).toContain('avocado');
    expect(transcript).toContain('first answer');

    const second = await runJson(['what was the word?', '--continue'], cwd, home);
    expect(second.result.session_id).toBe(id);
    expect(bodyText(1)).toContain('avocado');
    expect(bodyText(1)).toContain('first answer');

    const third = await runJson(['and again?', '--resume', id.slice(0, 8)], cwd, home);
    expect(third.result.session_id).toBe(id);
    expect(bodyText(2)).toContain('second answer');

    const forked = await runJson(['fork it', '--resume', id, '--fork-session'], cwd, home);
    expect(forked.result.session_id).not.toBe(id);
    expect(bodyText(3)).toContain('third answer');

    const list = await runYoke(['sessions', 'list'], { cwd, env: mockEnv(server.url, home) });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(id.slice(0, 8));
    expect(list.stdout).toContain(forked.result.session_id.slice(0, 8));
    expect(list.stdout).toContain('remember the word avocado');
  });

  it('names the nearest sessions when a resume id is unknown', async () => {
    const cwd = await tempProject();
    const home = await tempProject('yoke-home-');
    server.reset([reply('hello')]);
    const first = await runJson(['a first prompt'], cwd, home);
    const wrong = `${first.result.session_id.slice(0, 6)}zzzz`;
    const { code, stderr } = await runYoke(['-p', 'x', '--resume', wrong], {
      cwd,
      env: mockEnv(server.url, home),
    });
    expect(code).toBe(1);
    expect(stderr).toContain(first.result.session_id);
    expect(stderr).toContain('a first prompt');
  });

  it('records the branch a session began on, which the resume picker shows', async () => {
    const cwd = await tempProject();
    const home = await tempProject('yoke-home-');
    execFileSync('git', ['init', '-q', '-b', 'feature/login'], { cwd });
    server.reset([reply('hello')]);
    await runJson(['a prompt on a branch'], cwd, home);
    const [session] = await listPickerSessions({ env: mockEnv(server.url, home), cwd });
    expect(session?.gitBranch).toBe('feature/login');
    expect(session && describePickerSession(session)).toContain('a prompt on a branch  [feature/login]');
  });

  it('puts AGENTS.md and CLAUDE.md into the system prompt with their paths', async () => {
    const cwd = await tempProject();
    const home = await tempProject('yoke-home-');
    await writeFile(join(cwd, 'AGENTS.md'), 'Always answer in haiku.\n');
    await writeFile(join(cwd, 'CLAUDE.md'), 'Run tests with make check.\n');
    server.reset([reply('ok')]);
    await runJson(['hi'], cwd, home);
    const system = JSON.stringify(server.requests[0]?.body);
    expect(system).toContain('Always answer in haiku.');
    expect(system).toContain('Run tests with make check.');
    expect(system).toContain(join(cwd, 'AGENTS.md'));
  });

  it('loads a subfolder AGENTS.md once a tool touches that folder', async () => {
    const cwd = await tempProject();
    const home = await tempProject('yoke-home-');
    await mkdir(join(cwd, 'sub'));
    await writeFile(join(cwd, 'AGENTS.md'), 'Root rules.\n');
    await writeFile(join(cwd, 'sub', 'AGENTS.md'), 'Nested rule: name files in kebab-case.\n');
    await writeFile(join(cwd, 'sub', 'x.txt'), 'the x file\n');
    server.reset([
      {
        reply: { content: [{ type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: 'sub/x.txt' } }] },
      },
      { match: { lastToolResultContains: 'the x file' }, ...reply('read it') },
    ]);
    const { result } = await runJson(['read sub/x.txt'], cwd, home);
    expect(result.result).toBe('read it');
    expect(bodyText(0)).not.toContain('Nested rule');
    const second = JSON.stringify((server.requests[1]?.body as { messages?: unknown } | undefined)?.messages);
    expect(second.split('Nested rule: name files in kebab-case.')).toHaveLength(2);
    expect(second).toContain(join(cwd, 'sub', 'AGENTS.md'));
  });

  it('resumes cleanly after the process is killed mid-turn, again and again', async () => {
    const cwd = await tempProject();
    const home = await tempProject('yoke-home-');
    await writeFile(join(cwd, 'data.txt'), 'line\n'.repeat(200));
    const slowTurn = {
      reply: {
        content: [
          { type: 'text' as const, text: 'Reading the data file now, one moment while I look at it.' },
          { type: 'tool_use' as const, name: 'Read', input: { file_path: 'data.txt' } },
        ],
      },
      chunkDelayMs: 8,
      repeat: 'forever' as const,
    };
    server.reset([slowTurn]);
    const env = mockEnv(server.url, home) as NodeJS.ProcessEnv;
    for (let i = 0; i < 8; i++) {
      const child = spawn(
        process.execPath,
        [YOKE_BIN, '-p', `round ${i}`, ...(i > 0 ? ['--continue'] : [])],
        {
          cwd,
          env: Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)),
          stdio: 'ignore',
        },
      );
      const closed = new Promise((resolve) => child.once('close', resolve));
      // Kill at a random point of the turn: after its first model request arrived, so the kill
      // lands mid-stream or mid-tool however slow the machine is.
      const before = server.requests.length;
      await until(() => server.requests.length > before);
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 400)));
      child.kill('SIGKILL');
      await closed;
    }
    server.reset([reply('still here')]);
    const after = await runYoke(['-p', 'are you still there?', '--continue', '--output-format', 'json'], {
      cwd,
      env: mockEnv(server.url, home),
    });
    expect(after.stderr).toMatch(/^(yoke: warning: [^\n]*\n)*$/);
    expect(after.code).toBe(0);
    // Calls cut off by a kill are reported, never fatal.
    for (const line of after.stderr.split('\n').filter(Boolean)) expect(line).toMatch(/^yoke: warning: /);
    expect(JSON.parse(after.stdout).result).toBe('still here');
    const sent = server.requests[0]?.body as { messages: { role: string; content: unknown }[] };
    expect(JSON.stringify(sent.messages)).toContain('round 0');
    // Every tool call in the resumed history is answered, or the API would have refused it.
    const toolUses = JSON.stringify(sent.messages).match(/"type":"tool_use"/g)?.length ?? 0;
    const toolResults = JSON.stringify(sent.messages).match(/"type":"tool_result"/g)?.length ?? 0;
    expect(toolResults).toBe(toolUses);
  });

  it('--no-session-persistence leaves no session folder, even after a large tool output', async () => {
    const cwd = await tempProject();
    const home = await tempProject('yoke-home-');
    server.reset([
      {
        reply: {
          content: [{ type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'seq 1 20000' } }],
        },
      },
      reply('counted'),
    ]);
    const run = await runYoke(
      ['-p', 'count', '--no-session-persistence', '--allowedTools', 'Bash(seq:*)', '--output-format', 'json'],
      { cwd, env: mockEnv(server.url, home) },
    );
    const { session_id: id, result } = JSON.parse(run.stdout) as { session_id: string; result: string };
    expect(result).toBe('counted');
    // The output was too large to inline, so it went to a file in the session folder...
    expect(JSON.stringify(server.requests[1]?.body)).toContain('saved to');
    // ...which is gone with the session, as is any folder under the projects folder.
    expect(await fileExists(join(home, 'projects'))).toBe(false);
    expect(await fileExists(join(tmpdir(), 'yoke-sessions', id))).toBe(false);
  });

  it('reports a repaired cut-off tool call on the first resume only', async () => {
    const cwd = await tempProject();
    const home = await tempProject('yoke-home-');
    const env = mockEnv(server.url, home);
    const sessionId = crypto.randomUUID();
    const writer = new TranscriptWriter({
      path: transcriptPath(env, cwd, sessionId),
      sessionId,
      cwd,
    });
    writer.appendMany([
      createUserMessage('build it'),
      assistant([{ type: 'tool_use', id: 'toolu_cut', name: 'Bash', input: { command: 'make' } }]),
    ]);
    writer.close();
    server.reset([reply('first'), reply('second')]);
    const first = await runYoke(['-p', 'go on', '--continue'], { cwd, env });
    expect(first.stderr).toBe(
      'yoke: warning: 1 tool call(s) were cut off by the end of the last run; marked as interrupted\n',
    );
    const second = await runYoke(['-p', 'and on', '--continue'], { cwd, env });
    expect({ code: second.code, stdout: second.stdout, stderr: second.stderr }).toEqual({
      code: 0,
      stdout: 'second\n',
      stderr: '',
    });
    // The model still gets every call answered.
    expect(JSON.stringify(server.requests[1]?.body)).toContain('toolu_cut');
  });
});
