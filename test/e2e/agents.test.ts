/**
 * Subagents through the built CLI against the mock model server: the parent calls the Agent tool,
 * the worker follows its own script (routed by its system prompt or first message), and the
 * parent gets the worker's report. Covers an agent file in the shape public repositories carry,
 * tool filtering by definition and by tier, no nested spawning, budgets stopping a runaway worker,
 * SubagentStart/SubagentStop hooks, and stream-json nesting.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runYoke } from './helpers';
import { bodies, type RequestBody, systemText, toolNames, toolResultOf } from './request-bodies';
import { agentCall, say, serverPerTest } from './server-per-test';

const mock = serverPerTest();
const setUp = mock.setUp;

const lines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

// A reviewer agent file written the way public repositories write them (name, description with
// an example of when to use it, a tools list, model: inherit, a colour, a Markdown prompt).
const REVIEWER_FILE = `---
name: code-reviewer
description: Expert code review specialist. Use proactively right after writing or changing code, e.g. "review my parser changes".
tools: Read, Grep, Glob
model: inherit
color: blue
---

You are a senior code reviewer who keeps the bar high.

When invoked:
1. Read the files you were pointed at.
2. Look for bugs, unclear names and missing error handling.

Report findings by priority with file:line references.
`;

describe('the Agent tool', () => {
  it('runs a custom .claude/agents file unchanged: own prompt, whitelisted tools, report back with usage, nested frames, sidechain', async () => {
    const { project, home, env } = await setUp([
      {
        match: { systemContains: 'senior code reviewer', lastToolResultContains: 'export' },
        reply: say('REVIEW: parser.ts has no problems.'),
      },
      {
        match: { systemContains: 'senior code reviewer' },
        reply: { content: [{ type: 'tool_use', name: 'Read', input: { file_path: 'parser.ts' } }] },
      },
      { match: { lastToolResultContains: 'REVIEW:' }, reply: say('The reviewer found nothing.') },
      {
        match: { firstUserTextContains: 'Review the parser' },
        reply: agentCall({
          description: 'Review parser code',
          prompt: 'Check parser.ts for bugs',
          subagent_type: 'code-reviewer',
        }),
      },
    ]);
    await mkdir(join(project, '.claude/agents'), { recursive: true });
    await writeFile(join(project, '.claude/agents/reviewer.md'), REVIEWER_FILE);
    await writeFile(join(project, 'parser.ts'), 'export const parse = (text: string) => text.trim();\n');

    const run = await runYoke(['-p', 'Review the parser', '--output-format', 'stream-json', '--verbose'], {
      cwd: project,
      env,
    });
    expect(run.code, run.stderr).toBe(0);
    const frames = lines(run.stdout);
    const init = frames[0] as { tools: string[]; agents: string[] };
    expect(init.tools).toContain('Task');
    expect(init.agents).toEqual(['code-reviewer', 'Explore', 'general-purpose', 'Plan']);
    expect(frames.at(-1)).toMatchObject({
      type: 'result',
      subtype: 'success',
      result: 'The reviewer found nothing.',
    });

    const requests = bodies(mock.server);
    const worker = requests.filter((body) => systemText(body).includes('senior code reviewer'));
    expect(worker).toHaveLength(2);
    // A fresh context: the prompt is the worker's only message, and its pool is the file's list.
    expect(worker[0]?.messages).toHaveLength(1);
    expect(JSON.stringify(worker[0]?.messages[0])).toContain('"text":"Check parser.ts for bugs"');
    expect(toolNames(worker[0] as RequestBody).sort()).toEqual(['Glob', 'Grep', 'Read']);
    expect(systemText(worker[0] as RequestBody)).not.toContain('You are Yoke');

    const result = toolResultOf(mock.server, 'toolu_agent1');
    expect(result.isError).toBe(false);
    expect(result.text).toMatch(
      /^REVIEW: parser\.ts has no problems\.\n\n\[agent a[0-9a-f]{16} \(code-reviewer\) · 1 tool use · [\d,]+ tokens · [\d.]+ s · \$[\d.]+\]$/,
    );

    // The worker's messages appear nested under the Agent call, with its id.
    const nested = frames.filter((frame) => frame.parent_tool_use_id === 'toolu_agent1');
    expect(nested.map((frame) => frame.type)).toEqual(['user', 'assistant', 'user', 'assistant']);
    const agentId = nested[0]?.agent_id as string;
    expect(agentId).toMatch(/^a[0-9a-f]{16}$/);
    expect(nested.every((frame) => frame.agent_id === agentId)).toBe(true);

    // The sidechain transcript sits beside the session's, every line marked as a sidechain.
    const sessionId = (frames.at(-1) as { session_id: string }).session_id;
    const projects = join(home, 'projects');
    const [slug] = await readdir(projects);
    const sidechain = join(projects, slug as string, sessionId, 'subagents', `agent-${agentId}.jsonl`);
    const entries = (await readFile(sidechain, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(entries.length).toBeGreaterThanOrEqual(4);
    expect(entries.every((entry) => entry.isSidechain === true && entry.agentId === agentId)).toBe(true);
    const meta = JSON.parse(
      await readFile(
        join(projects, slug as string, sessionId, 'subagents', `agent-${agentId}.meta.json`),
        'utf8',
      ),
    );
    expect(meta).toMatchObject({ agentType: 'code-reviewer', toolUseId: 'toolu_agent1', isBuiltIn: false });

    // The parent's result counts the worker's tokens: its usage is the sum over every response,
    // the worker's nested ones included.
    const resultFrame = frames.at(-1) as { usage: { input_tokens: number } };
    const responses = new Map<string, number>();
    for (const frame of frames) {
      if (frame.type !== 'assistant') continue;
      const message = frame.message as { id: string; usage: { input_tokens: number } };
      responses.set(message.id, message.usage.input_tokens);
    }
    const nestedInput = nested
      .filter((frame) => frame.type === 'assistant')
      .reduce(
        (sum, frame) => sum + (frame.message as { usage: { input_tokens: number } }).usage.input_tokens,
        0,
      );
    expect(nestedInput).toBeGreaterThan(0);
    expect(resultFrame.usage.input_tokens).toBe([...responses.values()].reduce((a, b) => a + b, 0));
  });

  it('filters by tier: Explore sees only read tools; no worker is offered the Agent tool', async () => {
    const { project, env } = await setUp([
      { match: { firstUserTextContains: 'EXPLORE-TASK' }, reply: say('explored') },
      { match: { firstUserTextContains: 'GENERAL-TASK' }, reply: say('done') },
      { match: { lastToolResultContains: 'done' }, reply: say('Both finished.') },
      {
        match: { firstUserTextContains: 'Use two agents' },
        reply: {
          content: [
            {
              type: 'tool_use',
              id: 'toolu_a',
              name: 'Agent',
              input: { description: 'Explore code', prompt: 'EXPLORE-TASK', subagent_type: 'Explore' },
            },
            {
              type: 'tool_use',
              id: 'toolu_b',
              name: 'Agent',
              input: { description: 'General work', prompt: 'GENERAL-TASK' },
            },
          ],
        },
      },
    ]);
    const run = await runYoke(['-p', 'Use two agents'], { cwd: project, env });
    expect(run.code, run.stderr).toBe(0);
    const requests = bodies(mock.server);
    const first = (marker: string) =>
      requests.find((body) => JSON.stringify(body.messages[0]).includes(marker)) as RequestBody;
    const explore = toolNames(first('EXPLORE-TASK'));
    const general = toolNames(first('GENERAL-TASK'));
    expect(explore).toContain('Read');
    for (const name of ['Write', 'Edit', 'Bash', 'NotebookEdit', 'Agent'])
      expect(explore).not.toContain(name);
    expect(general).toEqual(expect.arrayContaining(['Bash', 'Edit', 'Read', 'Write']));
    expect(general).not.toContain('Agent');
    expect(toolNames(requests[0] as RequestBody)).toContain('Agent');
  });

  it('refuses an unknown agent type with the list of known ones', async () => {
    const { project, env } = await setUp([
      { match: { lastToolResultContains: 'no agent' }, reply: say('ok') },
      { reply: agentCall({ description: 'Do it', prompt: 'x', subagent_type: 'nope' }) },
    ]);
    const run = await runYoke(['-p', 'go'], { cwd: project, env });
    expect(run.code, run.stderr).toBe(0);
    const result = toolResultOf(mock.server, 'toolu_agent1');
    expect(result.isError).toBe(true);
    expect(result.text).toContain(
      'There is no agent named "nope". Use one of: Explore, general-purpose, Plan.',
    );
  });

  it('stops a runaway worker at the turn limit the call sets, and the parent hears why', async () => {
    const { project, env } = await setUp([
      {
        match: { firstUserTextContains: 'LOOP-FOREVER' },
        reply: { content: [{ type: 'tool_use', name: 'Glob', input: { pattern: '*.md' } }] },
        repeat: 'forever',
      },
      { match: { lastToolResultContains: 'turn limit' }, reply: say('It ran out of turns.') },
      { reply: agentCall({ description: 'Loop', prompt: 'LOOP-FOREVER', max_turns: 3 }) },
    ]);
    const run = await runYoke(['-p', 'go'], { cwd: project, env });
    expect(run.code, run.stderr).toBe(0);
    const worker = bodies(mock.server).filter((body) =>
      JSON.stringify(body.messages[0]).includes('LOOP-FOREVER'),
    );
    expect(worker).toHaveLength(3);
    const result = toolResultOf(mock.server, 'toolu_agent1');
    expect(result.text).toContain('The agent stopped early: The agent reached its turn limit (3 turns).');
    expect(result.text).toContain('3 tool uses');
  });

  it("stops a runaway worker when its definition's token budget (--agents JSON) is spent", async () => {
    const { project, env } = await setUp([
      {
        match: { systemContains: 'You loop.' },
        reply: {
          content: [{ type: 'tool_use', name: 'Glob', input: { pattern: '*.md' } }],
          usage: {
            inputTokens: 4000,
            outputTokens: 100,
            cacheReadInputTokens: 0,
            cacheCreationInputTokens: 0,
          },
        },
        repeat: 'forever',
      },
      { match: { lastToolResultContains: 'token budget' }, reply: say('Budget spent.') },
      { reply: agentCall({ description: 'Loop', prompt: 'go on', subagent_type: 'looper' }) },
    ]);
    const agents = JSON.stringify({
      looper: { description: 'Loops.', prompt: 'You loop.', maxTokens: 10000 },
    });
    const run = await runYoke(['-p', 'go', '--agents', agents], { cwd: project, env });
    expect(run.code, run.stderr).toBe(0);
    const worker = bodies(mock.server).filter((body) => systemText(body).includes('You loop.'));
    // 4100 tokens a call: after the third the budget of 10000 is spent, and no fourth call is made.
    expect(worker).toHaveLength(3);
    expect(toolResultOf(mock.server, 'toolu_agent1').text).toContain(
      "The agent's token budget (10000 tokens) is spent.",
    );
  });

  it('stops a worker whose model never answers when its wall time runs out', async () => {
    const { project, env } = await setUp([
      { match: { firstUserTextContains: 'HANG' }, fault: { type: 'silent' }, repeat: 'forever' },
      { match: { lastToolResultContains: 'time limit' }, reply: say('It timed out.') },
      { reply: agentCall({ description: 'Hang', prompt: 'HANG', max_duration_seconds: 1 }) },
    ]);
    const run = await runYoke(['-p', 'go'], { cwd: project, env });
    expect(run.code, run.stderr).toBe(0);
    expect(toolResultOf(mock.server, 'toolu_agent1').text).toContain("The agent's time limit (1 s) ran out.");
  });

  it('fires SubagentStart and SubagentStop; SubagentStop can send the worker back to work; tool hooks get agent_id', async () => {
    const { project, env } = await setUp([
      {
        match: { firstUserTextContains: 'HOOKED', lastUserTextContains: 'Add a summary line' },
        reply: say('Result with SUMMARY.'),
      },
      {
        match: { firstUserTextContains: 'HOOKED', lastToolResultContains: 'README' },
        reply: say('Result without it.'),
      },
      {
        match: { firstUserTextContains: 'HOOKED' },
        reply: { content: [{ type: 'tool_use', name: 'Glob', input: { pattern: '*.md' } }] },
      },
      { match: { lastToolResultContains: 'SUMMARY' }, reply: say('Parent done.') },
      { reply: agentCall({ description: 'Hooked work', prompt: 'HOOKED task' }) },
    ]);
    await writeFile(join(project, 'README.md'), '# readme\n');
    const log = join(project, 'hooks.log');
    // SubagentStop blocks once (until the answer has SUMMARY), the way a Stop hook keeps a turn going.
    const stopScript = join(project, 'subagent-stop.mjs');
    await writeFile(
      stopScript,
      `import { appendFileSync } from 'node:fs';
let input = '';
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', () => {
  const event = JSON.parse(input);
  appendFileSync(${JSON.stringify(log)}, JSON.stringify(event) + '\\n');
  if (!event.last_assistant_message.includes('SUMMARY')) {
    process.stderr.write('Add a summary line with SUMMARY.');
    process.exit(2);
  }
});
`,
    );
    const logHook = `node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>require('fs').appendFileSync(${JSON.stringify(JSON.stringify(log))},s.trim()+'\\\\n'))"`;
    await mkdir(join(project, '.claude'), { recursive: true });
    await writeFile(
      join(project, '.claude/settings.json'),
      JSON.stringify({
        hooks: {
          SubagentStart: [{ matcher: 'general-purpose', hooks: [{ type: 'command', command: logHook }] }],
          SubagentStop: [{ hooks: [{ type: 'command', command: `node ${stopScript}` }] }],
          PreToolUse: [{ matcher: 'Glob', hooks: [{ type: 'command', command: logHook }] }],
        },
      }),
    );
    const run = await runYoke(['-p', 'go'], { cwd: project, env });
    expect(run.code, run.stderr).toBe(0);
    const events = (await readFile(log, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const names = events.map((event) => event.hook_event_name);
    expect(names).toEqual(['SubagentStart', 'PreToolUse', 'SubagentStop', 'SubagentStop']);
    const agentId = events[0]?.agent_id;
    expect(agentId).toMatch(/^a[0-9a-f]{16}$/);
    expect(
      events.every((event) => event.agent_id === agentId && event.agent_type === 'general-purpose'),
    ).toBe(true);
    expect(events[2]).toMatchObject({
      stop_hook_active: false,
      last_assistant_message: 'Result without it.',
    });
    expect(events[3]).toMatchObject({
      stop_hook_active: true,
      last_assistant_message: 'Result with SUMMARY.',
    });
    expect(String(events[3]?.agent_transcript_path)).toContain(`agent-${agentId}.jsonl`);
    expect(toolResultOf(mock.server, 'toolu_agent1').text).toMatch(/^Result with SUMMARY\./);
  });
});
