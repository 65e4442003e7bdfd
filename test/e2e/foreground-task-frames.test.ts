/**
 * Workers the turn waits for, in stream-json through the built CLI and the mock model server: a
 * foreground Agent call and a `context: fork` command the user typed each report
 * `task_started` (is_backgrounded false), a `task_progress` per tool the worker calls, then
 * `task_updated` and `task_notification`, with the worker's own messages nested under the same
 * id (`parent_tool_use_id`, `agent_id`) — as the frames of a background agent are.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mockEnv, runYoke, tempProject } from './helpers';
import { useWorkspace } from './workspace';

const ws = useWorkspace();

type Frame = Record<string, unknown> & { type: string; subtype?: string };
const framesOf = (stdout: string): Frame[] =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Frame);
const say = (text: string) => ({ content: [{ type: 'text' as const, text }] });
const call = (name: string, input: Record<string, unknown>, id: string) => ({
  content: [{ type: 'tool_use' as const, id, name, input }],
});

/** `task_*` frames and nested worker messages, as `kind:id` strings in the order written. */
function story(frames: readonly Frame[]): string[] {
  return frames.flatMap((f) => {
    if (f.type === 'system' && String(f.subtype).startsWith('task_')) return [`${f.subtype}`];
    if ((f.type === 'assistant' || f.type === 'user') && f.parent_tool_use_id) return [`worker ${f.type}`];
    if (f.type === 'user') return ['parent user'];
    if (f.type === 'result') return ['result'];
    return [];
  });
}

/** A worker that calls one tool and answers, between its task frames. */
const WORKER_STORY = [
  'task_started',
  'worker user',
  'worker assistant',
  'task_progress',
  'worker user',
  'worker assistant',
  'task_updated',
  'task_notification',
];

async function run(cwd: string, prompt: string) {
  const result = await runYoke(
    ['-p', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Glob', prompt],
    { cwd, env: mockEnv(ws.server.url, ws.home) },
  );
  expect(result.code, result.stderr).toBe(0);
  return framesOf(result.stdout);
}

describe('task frames of workers the turn waits for', () => {
  it('a foreground Agent call: started, progress per tool, updated, notification; its messages nested', async () => {
    const cwd = await tempProject();
    ws.server.reset([
      // Consumed in order: the worker's first request calls Glob, its second answers.
      { match: { firstUserTextContains: 'WORKER' }, reply: call('Glob', { pattern: '*.md' }, 'toolu_glob') },
      { match: { firstUserTextContains: 'WORKER' }, reply: say('found none') },
      { match: { lastToolResultContains: 'found none' }, reply: say('done') },
      {
        reply: call(
          'Agent',
          { description: 'Look around', prompt: 'WORKER: look', run_in_background: false },
          'toolu_fg',
        ),
      },
    ]);
    const frames = await run(cwd, 'look');
    expect(story(frames)).toEqual([...WORKER_STORY, 'parent user', 'result']);
    const started = frames.find((f) => f.subtype === 'task_started');
    const agentId = started?.task_id as string;
    expect(started).toMatchObject({
      tool_use_id: 'toolu_fg',
      description: 'Look around',
      subagent_type: 'general-purpose',
      is_backgrounded: false,
      task_type: 'local_agent',
      prompt: 'WORKER: look',
    });
    expect(agentId).toMatch(/^a[0-9a-f]{16}$/);
    expect(frames.find((f) => f.subtype === 'task_progress')).toMatchObject({
      task_id: agentId,
      tool_use_id: 'toolu_fg',
      last_tool_name: 'Glob',
      usage: { tool_uses: 1 },
    });
    for (const f of frames.filter((f) => f.parent_tool_use_id))
      expect(f).toMatchObject({ parent_tool_use_id: 'toolu_fg', agent_id: agentId });
    expect(frames.find((f) => f.subtype === 'task_updated')).toMatchObject({
      task_id: agentId,
      patch: { status: 'completed' },
    });
    expect(frames.find((f) => f.subtype === 'task_notification')).toMatchObject({
      task_id: agentId,
      tool_use_id: 'toolu_fg',
      status: 'completed',
      summary: 'Agent "Look around" finished',
      usage: { tool_uses: 1 },
    });
  });

  it('a context: fork command the user typed: its worker streams nested under one id, between task frames', async () => {
    const cwd = await tempProject();
    await mkdir(join(cwd, '.claude', 'commands'), { recursive: true });
    await writeFile(
      join(cwd, '.claude', 'commands', 'survey.md'),
      '---\ndescription: Survey the files\ncontext: fork\n---\nFORKED: survey $ARGUMENTS\n',
    );
    ws.server.reset([
      { match: { firstUserTextContains: 'FORKED' }, reply: call('Glob', { pattern: '*' }, 'toolu_glob2') },
      { match: { firstUserTextContains: 'FORKED' }, reply: say('surveyed') },
    ]);
    const frames = await run(cwd, '/survey docs');
    expect(story(frames)).toEqual([...WORKER_STORY, 'result']);
    const started = frames.find((f) => f.subtype === 'task_started');
    const callId = started?.tool_use_id as string;
    expect(callId).toBe(`command_${started?.task_id}`);
    expect(started).toMatchObject({
      description: 'survey',
      is_backgrounded: false,
      task_type: 'local_agent',
    });
    for (const f of frames.filter((f) => f.parent_tool_use_id))
      expect(f).toMatchObject({ parent_tool_use_id: callId, agent_id: started?.task_id });
    expect(frames.find((f) => f.subtype === 'task_notification')).toMatchObject({
      tool_use_id: callId,
      status: 'completed',
    });
    expect(frames.at(-1)).toMatchObject({ type: 'result', result: expect.stringContaining('surveyed') });
  });
});
