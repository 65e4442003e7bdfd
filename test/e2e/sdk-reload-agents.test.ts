/**
 * A background agent that runs on across a plugin reload takes its next hook event from the
 * session's hooks as they are then: through the unmodified Agent SDK against the built CLI, with
 * real hook commands. The worker's first Bash call waits on a FIFO the test opens only after the
 * reload has been answered, so the order is fixed by the worker's own calls, not by timing.
 */
import { execFileSync } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTree } from '../../src/plugins/test-support';
import type { ScenarioInput } from '../../src/testing/mock-server/scenario';
import { tempProject } from './helpers';
import { sdkSession } from './sdk-session';

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
const tool = (name: string, input: Record<string, unknown>) => ({
  content: [{ type: 'tool_use' as const, name, input }],
});

/** A plugin whose PreToolUse hook on Bash appends its hook input (one JSON line) to `log`. */
async function hookPlugin(name: string, log: string): Promise<string> {
  const root = await tempProject(`yoke-plugin-${name}-`);
  const command = `(cat; echo) | sed "s/^{/{\\"plugin\\":\\"${name}\\",/" >> '${log}'`;
  await writeTree(root, {
    '.claude-plugin/plugin.json': { name, version: '1.0.0' },
    'hooks/hooks.json': {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] },
    },
  });
  return root;
}

/** Which plugins' hooks ran since the last call, with the agent each ran for; the log starts over. */
async function drain(log: string): Promise<{ plugin: string; agent_type?: string; agent_id?: string }[]> {
  const lines = (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  await writeFile(log, '');
  return lines.map((line) => JSON.parse(line));
}

/**
 * The parent starts a background worker and ends its turn. The worker's first Bash call says it
 * is there (FIFO `reached`) and waits for `gate`; its second says so again; then it reports.
 */
async function workerSetUp() {
  const cwd = await tempProject();
  const reached = join(cwd, 'reached');
  const gate = join(cwd, 'gate');
  execFileSync('mkfifo', [reached, gate]);
  const scenario: ScenarioInput = [
    {
      match: { firstUserTextContains: 'WORKER: w', lastToolResultContains: 'second' },
      reply: text('WORK DONE'),
    },
    {
      match: { firstUserTextContains: 'WORKER: w', lastToolResultContains: 'open' },
      reply: tool('Bash', { command: `echo second | tee ${reached}` }),
    },
    {
      match: { firstUserTextContains: 'WORKER: w' },
      reply: tool('Bash', { command: `echo first > ${reached}; cat ${gate}` }),
    },
    {
      match: { firstUserTextContains: 'Start work', lastToolResultContains: 'agentId' },
      reply: text('started'),
    },
    {
      match: { firstUserTextContains: 'Start work', lastUserTextContains: 'task-notification' },
      reply: text('noted'),
      repeat: 'forever',
    },
    {
      match: { firstUserTextContains: 'Start work' },
      reply: tool('Agent', { description: 'Work', prompt: 'WORKER: w', run_in_background: true }),
    },
  ];
  return {
    cwd,
    scenario,
    /** Resolves when the worker's next Bash call has started (its PreToolUse hooks have run). */
    workerAtBash: () => readFile(reached, 'utf8'),
    openGate: () => writeFile(gate, 'open\n'),
  };
}

describe('a background agent across a plugin reload', () => {
  it('a removed plugin’s PreToolUse hook stops firing inside the running worker, a new plugin’s fires', async () => {
    const log = join(await tempProject('yoke-log-'), 'hooks.log');
    const old = await hookPlugin('old', log);
    const worker = await workerSetUp();
    const s = await sdkSession({
      scenario: worker.scenario,
      cwd: worker.cwd,
      options: {
        plugins: [{ type: 'local', path: old }],
        allowedTools: ['Bash'],
        permissionMode: 'acceptEdits',
      },
    });
    await s.turn('Start work');
    expect(await worker.workerAtBash()).toBe('first\n');
    expect((await drain(log)).map((h) => [h.plugin, h.agent_type])).toEqual([['old', 'general-purpose']]);

    await rm(old, { recursive: true });
    const fresh = await hookPlugin('fresh', log);
    const reloaded = await s.q.reloadPlugins({ addPlugins: [{ type: 'local', path: fresh }] });
    expect(reloaded.plugins.map((p) => p.name)).toEqual(['fresh']);
    await worker.openGate();
    expect(await worker.workerAtBash()).toBe('second\n');
    expect((await drain(log)).map((h) => [h.plugin, h.agent_type])).toEqual([['fresh', 'general-purpose']]);
    await s.finish();
  });

  it('a session that started without hooks: the worker gets a reloaded plugin’s hook, with its agent id', async () => {
    const log = join(await tempProject('yoke-log-'), 'hooks.log');
    const worker = await workerSetUp();
    const s = await sdkSession({
      scenario: worker.scenario,
      cwd: worker.cwd,
      options: { allowedTools: ['Bash'], permissionMode: 'acceptEdits' },
    });
    await s.turn('Start work');
    expect(await worker.workerAtBash()).toBe('first\n');

    const late = await hookPlugin('late', log);
    await s.q.reloadPlugins({ addPlugins: [{ type: 'local', path: late }] });
    await worker.openGate();
    expect(await worker.workerAtBash()).toBe('second\n');
    const ran = await drain(log);
    expect(ran.map((h) => [h.plugin, h.agent_type])).toEqual([['late', 'general-purpose']]);
    expect(ran[0]?.agent_id).toMatch(/^a[0-9a-f]{16}$/);
    await s.finish();
  });
});
