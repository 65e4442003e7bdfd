/**
 * Absolute deny rules in the copies of a project an agent works in, through the built CLI:
 * a WorktreeCreate hook's plain copy (no git link back; Yoke knows it is a copy of the project
 * from the hook's answer), and a rule written through a symlinked spelling of the repository.
 * Calibrated: before, the worker read `sec/key.env` in both (Read, cat and Grep returned the
 * secret to the model); the copy's other files stay readable.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import type { ScenarioInput } from '../../src/testing/mock-server/scenario';
import { mockEnv, runYoke, tempProject } from './helpers';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SECRET = 'COPY_SECRET_3a9f';

/** A repository with a committed secret and an open file. */
async function secretRepo(): Promise<{ repo: string; home: string }> {
  const repo = await tempProject('yoke-e2e-copies-');
  const home = await tempProject('yoke-e2e-home-');
  const env = { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1' };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'a@example.invalid');
  git('config', 'user.name', 'n');
  mkdirSync(join(repo, 'sec'));
  writeFileSync(join(repo, 'sec', 'key.env'), `TOKEN=${SECRET}\n`);
  writeFileSync(join(repo, 'open.txt'), 'OPEN_TEXT_61\n');
  git('add', '.');
  git('commit', '-qm', 'secret');
  return { repo, home };
}

const call = (name: string, input: Record<string, unknown>) => ({ type: 'tool_use' as const, name, input });

/** The parent delegates to an isolated worker, which reads the secret three ways, then the open file. */
const scenario: ScenarioInput = [
  {
    match: { firstUserTextContains: 'delegate' },
    reply: {
      content: [call('Agent', { description: 'look', prompt: 'TASK-C: look', isolation: 'worktree' })],
    },
  },
  { match: { firstUserTextContains: 'delegate' }, reply: { content: [{ type: 'text', text: 'back' }] } },
  {
    match: { firstUserTextContains: 'TASK-C' },
    reply: {
      content: [
        call('Read', { file_path: 'sec/key.env' }),
        call('Bash', { command: 'cat sec/key.env' }),
        call('Grep', { pattern: 'COPY_SECRET', path: '.', output_mode: 'content' }),
      ],
    },
  },
  // In a response of its own: a refused Bash call stops its running siblings (streaming-executor.ts).
  {
    match: { firstUserTextContains: 'TASK-C' },
    reply: { content: [call('Bash', { command: 'cat open.txt' })] },
  },
  { match: { firstUserTextContains: 'TASK-C' }, reply: { content: [{ type: 'text', text: 'seen' }] } },
];

async function delegate(repo: string, home: string, settings: object): Promise<string> {
  server = await startMockServer({ scenario });
  const result = await runYoke(
    ['-p', '--permission-mode', 'acceptEdits', '--settings', JSON.stringify(settings), 'delegate the look'],
    { cwd: repo, env: mockEnv(server.url, home) },
  );
  expect(result.code, result.stderr).toBe(0);
  return JSON.stringify(server.requests.map((request) => request.body));
}

describe('absolute deny rules in the copies of the project', () => {
  it("hold in a WorktreeCreate hook's plain copy of the project", async () => {
    const { repo, home } = await secretRepo();
    const copies = await tempProject('yoke-e2e-hook-copies-');
    // The hook copies the files (no git worktree): only its answer says where the copy is.
    const create = join(copies, 'create.cjs');
    writeFileSync(
      create,
      `const fs = require('node:fs');
const input = JSON.parse(fs.readFileSync(0, 'utf8'));
const dir = ${JSON.stringify(copies)} + '/' + input.name;
fs.cpSync(input.cwd, dir, { recursive: true, filter: (p) => !p.endsWith('/.git') });
console.log(dir);
`,
    );
    const told = await delegate(repo, home, {
      permissions: { deny: [`Read(/${repo}/sec/**)`] },
      hooks: { WorktreeCreate: [{ hooks: [{ type: 'command', command: `node ${create}` }] }] },
    });
    expect(told).not.toContain(SECRET);
    expect(told).toContain(
      `Denied by rule Read(/${repo}/sec/**) (flagSettings, applied to its copy in the worktree ${copies}/agent-`,
    );
    expect(told).toContain('OPEN_TEXT_61');
  });

  it("hold in a worker's git worktree when the rule names the repository through a symlink", async () => {
    const { repo, home } = await secretRepo();
    const links = await tempProject('yoke-e2e-links-');
    const link = join(links, 'proj');
    symlinkSync(repo, link);
    const told = await delegate(repo, home, { permissions: { deny: [`Read(/${link}/sec/**)`] } });
    expect(told).not.toContain(SECRET);
    expect(told).toContain(`Denied by rule Read(/${link}/sec/**)`);
    expect(told).toContain('OPEN_TEXT_61');
  });
});
