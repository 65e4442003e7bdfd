/**
 * WorktreeCreate and WorktreeRemove hooks through the built CLI, with real hook commands and real
 * git: for `isolation: worktree` the create hook makes the worktree where it likes and prints its
 * path, the worker runs there, and when it ends unchanged the remove hook takes it away; one with
 * work in it is kept and never handed to the remover; a failing create hook refuses the call.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestRepo } from '../../src/agents/worktree/test-repo';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import type { ScenarioInput } from '../../src/testing/mock-server/scenario';
import { mockEnv, runYoke, tempProject } from './helpers';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup() {
  const made = makeTestRepo('yoke-e2e-wthook-');
  const repo = made.work;
  const home = await tempProject('yoke-e2e-home-');
  const hooksDir = await tempProject('yoke-e2e-hookdir-');
  const git = (...args: string[]) => made.git(repo, ...args);
  const log = join(hooksDir, 'hooks.log');
  const base = join(hooksDir, 'trees');
  // The create hook makes the worktree outside the repository, on a branch of its own naming.
  const create = join(hooksDir, 'create.cjs');
  writeFileSync(
    create,
    `const fs = require('node:fs'); const { execFileSync } = require('node:child_process');
const input = JSON.parse(fs.readFileSync(0, 'utf8'));
const dir = ${JSON.stringify(base)} + '/' + input.name;
execFileSync('git', ['worktree', 'add', '-q', '-b', 'hook-' + input.name, dir], { cwd: input.cwd });
fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ event: input.hook_event_name, name: input.name }) + '\\n');
console.log(dir);
`,
  );
  const remove = join(hooksDir, 'remove.cjs');
  writeFileSync(
    remove,
    `const fs = require('node:fs'); const { execFileSync } = require('node:child_process');
const input = JSON.parse(fs.readFileSync(0, 'utf8'));
execFileSync('git', ['worktree', 'remove', input.worktree_path], { cwd: ${JSON.stringify(repo)} });
fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ event: input.hook_event_name, path: input.worktree_path }) + '\\n');
`,
  );
  const settings = (createCommand = `node ${create}`) =>
    JSON.stringify({
      hooks: {
        WorktreeCreate: [{ hooks: [{ type: 'command', command: createCommand }] }],
        WorktreeRemove: [{ hooks: [{ type: 'command', command: `node ${remove}` }] }],
      },
    });
  const entries = () =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Record<string, string>)
      : [];
  return { repo, home, base, settings, entries, git };
}

const call = (name: string, input: Record<string, unknown>) => ({
  content: [{ type: 'tool_use' as const, name, input }],
});
const say = (text: string) => ({ content: [{ type: 'text' as const, text }] });

function scenario(command: string): ScenarioInput {
  return [
    {
      match: { firstUserTextContains: 'WORKER: iso', lastToolResultContains: 'WORKED' },
      reply: say('ISO DONE'),
    },
    {
      match: { firstUserTextContains: 'WORKER: iso' },
      reply: call('Bash', { command: `${command}; echo WORKED` }),
    },
    { match: { lastToolResultContains: 'ISO DONE' }, reply: say('Parent done.') },
    { match: { lastToolResultContains: 'No worktree' }, reply: say('Could not isolate.') },
    {
      reply: call('Agent', { description: 'Isolated job', prompt: 'WORKER: iso', isolation: 'worktree' }),
    },
  ];
}

async function run(repo: string, home: string, settings: string) {
  const result = await runYoke(
    [
      '-p',
      'Do it isolated',
      '--output-format',
      'json',
      '--allowedTools',
      'Bash',
      // The worker's file writes in its worktree (its project root) need no question.
      '--permission-mode',
      'acceptEdits',
      '--settings',
      settings,
    ],
    { cwd: repo, env: mockEnv(server?.url ?? '', home) },
  );
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { result: string };
}

const workerBashResult = () =>
  JSON.stringify(
    (server?.requests ?? [])
      .map((r) => r.body as { messages: unknown[] })
      .find((body) => JSON.stringify(body.messages).includes('WORKED'))?.messages,
  );

describe('WorktreeCreate and WorktreeRemove hooks', () => {
  it('the create hook makes the worktree, the worker runs in it, and the remove hook takes an unchanged one away', async () => {
    const { repo, home, base, settings, entries } = await setup();
    server = await startMockServer({ scenario: scenario('pwd') });
    const json = await run(repo, home, settings());
    expect(json.result).toBe('Parent done.');
    const [created, removed] = entries();
    expect(created).toMatchObject({ event: 'WorktreeCreate' });
    expect(created?.name).toMatch(/^agent-[0-9a-f]{12}$/);
    const path = join(base, String(created?.name));
    expect(workerBashResult()).toContain(path);
    expect(removed).toEqual({ event: 'WorktreeRemove', path });
    expect(existsSync(path)).toBe(false);
  });

  it('a worktree with work in it is kept and never handed to the remove hook', async () => {
    const { repo, home, base, settings, entries } = await setup();
    server = await startMockServer({ scenario: scenario('pwd && echo draft > draft.md') });
    await run(repo, home, settings());
    const created = entries();
    expect(created.map((entry) => entry.event)).toEqual(['WorktreeCreate']);
    const path = join(base, String(created[0]?.name));
    expect(readFileSync(join(path, 'draft.md'), 'utf8')).toBe('draft\n');
    const agentResult = JSON.stringify(server.requests.at(-1)?.body);
    expect(agentResult).toContain(`The agent's work is in the worktree ${path}`);
    expect(agentResult).toContain('1 uncommitted file (draft.md)');
  });

  it('a create hook that fails refuses the isolated call with its reason; no git worktree is made instead', async () => {
    const { repo, home, settings, entries, git } = await setup();
    server = await startMockServer({ scenario: scenario('pwd') });
    const json = await run(repo, home, settings('echo "no space left" >&2; exit 1'));
    expect(json.result).toBe('Could not isolate.');
    const refusal = JSON.stringify(server.requests.at(-1)?.body);
    expect(refusal).toContain('No worktree is made for the agent: the WorktreeCreate hook failed:');
    expect(refusal).toContain('no space left');
    expect(entries()).toEqual([]);
    expect(git('worktree', 'list').trim().split('\n')).toHaveLength(1);
  });
});
