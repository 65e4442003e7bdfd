import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SideCallClient, SideCallRequest } from '../../model/side-call';
import { createUserMessage, type Message } from '../../session/messages';
import { ManualClock } from '../test-support';
import { AgentTasks } from './agent-tasks';
import { ScriptedWorker } from './test-support';
import type { AgentTaskInfo } from './types';

const never = new AbortController().signal;
const settle = () => new Promise((resolve) => setImmediate(resolve));

async function setup(options: { sideCalls?: SideCallClient; progressIntervalMs?: number } = {}) {
  const clock = new ManualClock();
  const tasks = new AgentTasks({ clock, ...options });
  const worker = new ScriptedWorker();
  const sessionDir = await mkdtemp(join(tmpdir(), 'yoke-agent-tasks-'));
  const notices: { task: AgentTaskInfo; text: string }[] = [];
  const launch = (extra: { name?: string } = {}) =>
    tasks.launch({
      description: 'Fix the parser',
      prompt: 'Fix the null check in parse.ts',
      agentType: 'general-purpose',
      toolUseId: 'toolu_1',
      sessionDir,
      launcher: worker.launcher,
      onFinished: (task, text) => notices.push({ task, text }),
      ...extra,
    });
  return { clock, tasks, worker, sessionDir, notices, launch };
}

describe('AgentTasks', () => {
  it('runs an agent to completion, writes its output file and sends one notification', async () => {
    const { tasks, worker, notices, launch, clock } = await setup();
    const launched = launch();
    expect(launched.status).toBe('running');
    expect(launched.id).toMatch(/^a[0-9a-f]{16}$/);
    expect(notices).toHaveLength(0);
    const assistant: Message = {
      type: 'assistant',
      uuid: 'u1',
      timestamp: '',
      message: {
        id: 'm1',
        model: 'm',
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking at parse.ts' },
          { type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'parse.ts' } },
        ],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { inputTokens: 1, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
      },
    };
    worker.last.request.onMessage(assistant);
    clock.advance(1500);
    worker.last.end();
    await settle();
    const done = tasks.get(launched.id);
    expect(done).toMatchObject({ status: 'completed', result: 'answer 1', runs: 1 });
    expect(done?.usage).toEqual({ totalTokens: 100, toolUses: 2, costUsd: 0.01, durationMs: 1500 });
    expect(notices).toHaveLength(1);
    expect(notices[0]?.text).toContain(`<task-id>${launched.id}</task-id>`);
    expect(notices[0]?.text).toContain('<status>completed</status>');
    expect(notices[0]?.text).toContain('<result>answer 1</result>');
    expect(notices[0]?.text).toContain(
      '<usage><subagent_tokens>100</subagent_tokens><tool_uses>2</tool_uses><duration_ms>1500</duration_ms></usage>',
    );
    const output = await tasks.readNewOutput(launched.id);
    expect(output).toContain('[task] Fix the null check in parse.ts');
    expect(output).toContain('Looking at parse.ts\n→ Read {"file_path":"parse.ts"}');
    expect(output).toContain('[completed]');
    expect(await tasks.readNewOutput(launched.id)).toBe('');
    expect(await readFile(launched.outputPath, 'utf8')).toBe(output);
  });

  it('stops a running agent: its loop is aborted, it ends as killed, and nobody is notified', async () => {
    const { tasks, worker, notices, launch } = await setup();
    const { id } = launch();
    const stopped = await tasks.stop(id);
    expect(worker.last.request.signal.aborted).toBe(true);
    expect(stopped.status).toBe('killed');
    expect(notices).toHaveLength(0);
    expect(tasks.running()).toHaveLength(0);
  });

  it('TaskOutput-style waits: a timeout leaves it running, its end wakes the waiter', async () => {
    const { tasks, worker, launch, clock } = await setup();
    const { id } = launch({ name: 'scout' });
    const timedOut = tasks.wait('scout', 1000, never);
    clock.advance(1000);
    expect(await timedOut).toBe(false);
    const ended = tasks.wait(id, 60_000, never);
    worker.last.end();
    expect(await ended).toBe(true);
  });

  it('a follow-up to a running agent goes to its inbox; one its last turn did not read starts a new run', async () => {
    const { tasks, worker, notices, launch } = await setup();
    const { id } = launch();
    expect(tasks.send(id, 'Also check lexer.ts')).toBe('queued');
    expect(worker.last.inbox).toEqual([{ kind: 'prompt', content: 'Also check lexer.ts' }]);
    worker.last.end();
    await settle();
    // The run ended without reading it: the agent continues with it, no notification in between.
    expect(worker.runs).toHaveLength(2);
    expect(worker.last.request.prompt).toBe('Also check lexer.ts');
    expect(notices).toHaveLength(0);
    expect(tasks.get(id)?.status).toBe('running');
    worker.last.end();
    await settle();
    expect(notices).toHaveLength(1);
    expect(tasks.get(id)?.runs).toBe(2);
  });

  it('a follow-up to a finished agent continues its own conversation and notifies again', async () => {
    const { tasks, worker, notices, launch } = await setup();
    const { id } = launch();
    worker.last.end();
    await settle();
    const firstConversation = worker.last.request.priorMessages.length;
    expect(tasks.send(id, 'Now add a test')).toBe('resumed');
    expect(tasks.get(id)?.status).toBe('running');
    expect(worker.last.request.priorMessages.length).toBe(firstConversation + 1);
    worker.last.end({ finalText: 'test added' });
    await settle();
    expect(notices.map((n) => n.task.result)).toEqual(['answer 1', 'test added']);
    expect(tasks.get(id)?.usage.totalTokens).toBe(200);
  });

  it('a failing launcher ends the task as failed with the reason in the notification', async () => {
    const { tasks, notices, sessionDir } = await setup();
    tasks.launch({
      description: 'Broken',
      prompt: 'x',
      agentType: 'general-purpose',
      toolUseId: 'toolu_2',
      sessionDir,
      launcher: () => {
        throw new Error('no such agent type: nope');
      },
      onFinished: (task, text) => notices.push({ task, text }),
    });
    await settle();
    expect(notices[0]?.task.status).toBe('failed');
    expect(notices[0]?.text).toContain('<result>no such agent type: nope</result>');
  });

  it('summarizes progress on the clock from a side call, only when there is new activity', async () => {
    const calls: SideCallRequest[] = [];
    const sideCalls: SideCallClient = {
      fastModel: () => 'fast',
      complete: async (request) => {
        calls.push(request);
        return {
          text: '"Reading the parser source."',
          model: 'fast',
          stopReason: 'end_turn',
          usage: zeroUsage,
          costUsd: 0,
        };
      },
    };
    const { tasks, worker, launch, clock } = await setup({ sideCalls, progressIntervalMs: 30_000 });
    const updates: (string | undefined)[] = [];
    tasks.subscribe((task) => updates.push(task.progress));
    const { id } = launch();
    clock.advance(30_000);
    expect(calls).toHaveLength(0);
    worker.last.request.onMessage(createUserMessage('working'));
    clock.advance(30_000);
    await settle();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.purpose).toBe('progress_summary');
    expect(JSON.stringify(calls[0]?.messages)).toContain('[message] working');
    expect(tasks.get(id)?.progress).toBe('Reading the parser source');
    expect(updates).toContain('Reading the parser source');
    clock.advance(30_000);
    await settle();
    expect(calls).toHaveLength(1);
    worker.last.end();
    await settle();
    clock.advance(60_000);
    await settle();
    expect(calls).toHaveLength(1);
  });

  it('dispose stops every running agent and refuses new ones', async () => {
    const { tasks, worker, launch } = await setup();
    launch();
    await tasks.dispose();
    expect(worker.last.request.signal.aborted).toBe(true);
    expect(tasks.list()[0]?.status).toBe('killed');
    expect(() => launch()).toThrow(/session has ended/);
  });

  it('waitForAll is bounded by its time limit', async () => {
    const { tasks, launch, clock } = await setup();
    launch();
    const waiting = tasks.waitForAll(10_000, never);
    clock.advance(10_000);
    expect(await waiting).toBe(false);
    expect(tasks.running()).toHaveLength(1);
  });
});

const zeroUsage = { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
