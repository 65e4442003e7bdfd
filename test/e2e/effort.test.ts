/**
 * Effort through the built CLI and the mock model server: the request body carries what
 * `--effort`, the `effortLevel` setting, an agent's `effort`, the Agent call's `effort` and a
 * command's `effort` resolve to (flag > agent/skill > setting > the model's default), only for
 * models that take it; hooks see it as `effort.level` and `CLAUDE_EFFORT`.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mockEnv, runYoke, tempProject } from './helpers';
import { useWorkspace } from './workspace';

const ws = useWorkspace();
const WORKER = 'You are the quick checker.';

type Body = {
  model: string;
  system?: unknown;
  output_config?: { effort?: string };
  reasoning_effort?: string;
};
const bodies = () =>
  ws.server.requests.filter((r) => r.path.endsWith('/messages')).map((r) => r.body as Body);
const efforts = () => bodies().map((body) => body.output_config?.effort ?? 'none');
const say = (text: string) => ({ reply: { content: [{ type: 'text' as const, text }] } });

async function project(settings?: Record<string, unknown>) {
  const cwd = await tempProject();
  await mkdir(join(cwd, '.claude', 'agents'), { recursive: true });
  await writeFile(
    join(cwd, '.claude', 'agents', 'checker.md'),
    `---\nname: checker\ndescription: Checks quickly.\neffort: low\n---\n${WORKER}\n`,
  );
  await mkdir(join(cwd, '.claude', 'commands'), { recursive: true });
  await writeFile(join(cwd, '.claude', 'commands', 'deep.md'), '---\neffort: max\n---\nThink it through.\n');
  if (settings) await writeFile(join(cwd, '.claude', 'settings.json'), JSON.stringify(settings));
  return cwd;
}

const run = (cwd: string, args: string[], input?: string) =>
  runYoke(['-p', '--model', 'claude-sonnet-5-5', '--trust', ...args], {
    cwd,
    env: mockEnv(ws.server.url, ws.home),
    ...(input === undefined ? {} : { input }),
  });

const userLine = (text: string) =>
  `${JSON.stringify({ type: 'user', message: { role: 'user', content: text } })}\n`;
const streamJson = ['--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'];

/** The parent calls the checker agent (optionally with its own effort), which answers; then the parent ends. */
function agentScenario(callEffort?: string) {
  ws.server.reset([
    { match: { systemContains: WORKER }, ...say('checked') },
    { match: { lastToolResultContains: 'checked' }, ...say('done') },
    {
      reply: {
        content: [
          {
            type: 'tool_use',
            id: 'a1',
            name: 'Agent',
            input: {
              description: 'Check it',
              prompt: 'Check the thing',
              subagent_type: 'checker',
              ...(callEffort ? { effort: callEffort } : {}),
            },
          },
        ],
      },
    },
  ]);
}
const workerEffort = () =>
  bodies()
    .filter((body) => JSON.stringify(body.system ?? '').includes(WORKER))
    .map((body) => body.output_config?.effort ?? 'none');
const parentEfforts = () =>
  bodies()
    .filter((body) => !JSON.stringify(body.system ?? '').includes(WORKER))
    .map((body) => body.output_config?.effort ?? 'none');

describe('effort', () => {
  it('sends --effort as output_config.effort, and nothing without one', async () => {
    const cwd = await project();
    ws.server.reset([say('ok')]);
    expect((await run(cwd, ['--effort', 'xhigh', 'hi'])).code).toBe(0);
    expect(efforts()).toEqual(['xhigh']);
    ws.server.reset([say('ok')]);
    expect((await run(cwd, ['hi'])).code).toBe(0);
    expect(bodies()[0]).not.toHaveProperty('output_config');
  });

  it('takes the effortLevel setting, which --effort overrides', async () => {
    const cwd = await project({ effortLevel: 'medium' });
    ws.server.reset([say('ok')]);
    expect((await run(cwd, ['hi'])).code).toBe(0);
    expect(efforts()).toEqual(['medium']);
    ws.server.reset([say('ok')]);
    expect((await run(cwd, ['--effort', 'max', 'hi'])).code).toBe(0);
    expect(efforts()).toEqual(['max']);
  });

  it("gives a subagent its definition's effort, the Agent call's over it, and --effort over both", async () => {
    const cwd = await project({ effortLevel: 'medium' });
    agentScenario();
    expect((await run(cwd, ['check'])).code).toBe(0);
    expect(workerEffort()).toEqual(['low']);
    expect(parentEfforts()).toEqual(['medium', 'medium']);

    agentScenario('high');
    expect((await run(cwd, ['check'])).code).toBe(0);
    expect(workerEffort()).toEqual(['high']);

    agentScenario('high');
    expect((await run(cwd, ['--effort', 'xhigh', 'check'])).code).toBe(0);
    expect(workerEffort()).toEqual(['xhigh']);
    expect(parentEfforts()).toEqual(['xhigh', 'xhigh']);
  });

  it("runs a command's turn at its effort, and the next turn at the session's", async () => {
    const cwd = await project({ effortLevel: 'low' });
    ws.server.reset([say('deep answer'), say('plain answer')]);
    const result = await run(cwd, streamJson, userLine('/deep') + userLine('and now?'));
    expect(result.code).toBe(0);
    expect(efforts()).toEqual(['max', 'low']);
  });

  it("holds a skill's effort for the rest of the turn after the Skill tool runs it", async () => {
    const cwd = await project({ effortLevel: 'low' });
    await mkdir(join(cwd, '.claude', 'skills', 'careful'), { recursive: true });
    await writeFile(
      join(cwd, '.claude', 'skills', 'careful', 'SKILL.md'),
      '---\ndescription: Check carefully\neffort: high\n---\nBe careful.\n',
    );
    ws.server.reset([
      { reply: { content: [{ type: 'tool_use', id: 's1', name: 'Skill', input: { skill: 'careful' } }] } },
      say('checked carefully'),
      say('next turn'),
    ]);
    const result = await run(cwd, streamJson, userLine('check it') + userLine('and now?'));
    expect(result.code, result.stderr).toBe(0);
    expect(efforts()).toEqual(['low', 'high', 'low']);
  });

  it('leaves effort out for a model that takes none, saying so once on stderr', async () => {
    const cwd = await project();
    ws.server.reset([
      { reply: { content: [{ type: 'tool_use', id: 'g1', name: 'Glob', input: { pattern: '*.md' } }] } },
      say('ok'),
    ]);
    const result = await run(cwd, ['--model', 'claude-haiku-4-5', '--effort', 'high', 'list']);
    expect(result.code).toBe(0);
    expect(bodies()).toHaveLength(2);
    for (const body of bodies()) expect(body).not.toHaveProperty('output_config');
    const notes = result.stderr.split('\n').filter((line) => line.includes('effort "high" is not sent'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('claude-haiku-4-5 does not take an effort setting');
  });

  it('sends reasoning_effort to an OpenAI-compatible server, max as high', async () => {
    const cwd = await project();
    ws.server.reset([say('ok')]);
    const result = await runYoke(
      ['-p', '--provider', 'openai', '--model', 'qwen3:8b', '--effort', 'max', 'hi'],
      {
        cwd,
        env: {
          ...mockEnv(ws.server.url, ws.home),
          OPENAI_BASE_URL: `${ws.server.url}/v1`,
          OPENAI_API_KEY: 'sk-e2e',
        },
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const chat = ws.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
    expect(chat.map((r) => (r.body as Body).reasoning_effort)).toEqual(['high']);
    expect(result.stderr).toContain('effort "max" is sent as "high"');
  });

  it('tells PreToolUse and Stop hooks the effort, in their input and as CLAUDE_EFFORT', async () => {
    const cwd = await project();
    const out = join(cwd, 'hook-saw.txt');
    const stopOut = join(cwd, 'stop-saw.txt');
    const hookSettings = {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Glob',
            hooks: [{ type: 'command', command: `(cat; echo; echo "env=$CLAUDE_EFFORT") > '${out}'` }],
          },
        ],
        Stop: [
          { hooks: [{ type: 'command', command: `(cat; echo; echo "env=$CLAUDE_EFFORT") > '${stopOut}'` }] },
        ],
      },
    };
    ws.server.reset([
      { reply: { content: [{ type: 'tool_use', id: 'g1', name: 'Glob', input: { pattern: '*.md' } }] } },
      say('ok'),
    ]);
    const result = await run(cwd, ['--settings', JSON.stringify(hookSettings), '--effort', 'low', 'list']);
    expect(result.code, result.stderr).toBe(0);
    const [input, env] = (await readFile(out, 'utf8')).trim().split('\n');
    expect(JSON.parse(input as string)).toMatchObject({
      hook_event_name: 'PreToolUse',
      effort: { level: 'low' },
    });
    expect(env).toBe('env=low');
    const [stopInput, stopEnv] = (await readFile(stopOut, 'utf8')).trim().split('\n');
    expect(JSON.parse(stopInput as string)).toMatchObject({
      hook_event_name: 'Stop',
      effort: { level: 'low' },
    });
    expect(stopEnv).toBe('env=low');
  });
});
