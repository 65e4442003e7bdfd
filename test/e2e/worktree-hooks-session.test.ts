/**
 * WorktreeCreate and WorktreeRemove hooks for `--worktree` and for the EnterWorktree/ExitWorktree
 * tools, through the built CLI with real hook commands: the create hook makes a plain folder (in a
 * folder that is no git repository at all) or a real `git worktree add` elsewhere and prints its
 * path; the session or the model works there; the remove hook takes it away when it is finished,
 * unless git sees work in it. A failing hook or one that prints garbage stops the start (or
 * refuses the tool call) with its reason, and git makes nothing instead.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestRepo } from '../../src/agents/worktree/test-repo';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import { mockEnv, runYoke, tempProject } from './helpers';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const FAILING = 'echo "no space left on the build volume" >&2; exit 1';
const GARBAGE = 'echo "worktree ready: see above"';

async function hookBed() {
  const home = await tempProject('yoke-e2e-home-');
  const dir = await tempProject('yoke-e2e-wthooks-');
  const trees = join(dir, 'trees');
  const log = join(dir, 'calls.jsonl');
  const record = `const fs = require('node:fs'); const input = JSON.parse(fs.readFileSync(0, 'utf8'));
fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify(input) + '\\n');`;
  const script = (name: string, body: string) => {
    const path = join(dir, name);
    writeFileSync(path, `${record}\n${body}\n`);
    return `node ${path}`;
  };
  const folder = script(
    'create-folder.cjs',
    `const dir = ${JSON.stringify(trees)} + '/' + input.name; fs.mkdirSync(dir, { recursive: true }); console.log(dir);`,
  );
  const gitWorktree = (repo: string) =>
    script(
      'create-git.cjs',
      `const dir = ${JSON.stringify(trees)} + '/' + input.name;
require('node:child_process').execFileSync('git', ['-C', ${JSON.stringify(repo)}, 'worktree', 'add', '-q', '-b', 'hook-' + input.name, dir], { stdio: ['ignore', 'ignore', 'inherit'] });
console.log(dir);`,
    );
  // Deletes the folder; a git worktree's repository then forgets it (`git worktree prune`).
  const remove = script(
    'remove.cjs',
    `const git = (...args) => require('node:child_process').spawnSync('git', args, { encoding: 'utf8' });
const common = git('-C', input.worktree_path, 'rev-parse', '--path-format=absolute', '--git-common-dir');
fs.rmSync(input.worktree_path, { recursive: true, force: true });
if (common.status === 0) git('--git-dir', common.stdout.trim(), 'worktree', 'prune');`,
  );
  const hooks = (create: string, withRemove = true) => ({
    hooks: {
      WorktreeCreate: [{ hooks: [{ type: 'command', command: create }] }],
      ...(withRemove ? { WorktreeRemove: [{ hooks: [{ type: 'command', command: remove }] }] } : {}),
    },
  });
  const calls = () =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Record<string, string>)
      : [];
  /** The hooks in the user's settings (`$YOKE_HOME/settings.json`). */
  const userSettings = (settings: object) =>
    writeFileSync(join(home, 'settings.json'), JSON.stringify(settings));
  /** A folder no version control knows. */
  const plainFolder = async () => tempProject('yoke-e2e-plain-');
  return { home, trees, folder, gitWorktree, hooks, calls, userSettings, plainFolder };
}

const call = (name: string, input: Record<string, unknown>) => ({
  content: [{ type: 'tool_use' as const, name, input }],
});
const say = (text: string) => ({ content: [{ type: 'text' as const, text }] });

const toolResults = () => JSON.stringify(server?.requests.map((request) => request.body));

describe('--worktree with WorktreeCreate hooks', () => {
  it('works in a folder that is no git repository: the hook makes the worktree, the remove hook ends it', async () => {
    const bed = await hookBed();
    const start = await bed.plainFolder();
    bed.userSettings(bed.hooks(bed.folder));
    server = await startMockServer({
      scenario: [
        { match: { lastToolResultContains: 'trees' }, reply: say('done') },
        { reply: call('Bash', { command: 'pwd' }) },
      ],
    });
    const result = await runYoke(
      ['-p', '--worktree=feat', '--output-format', 'json', '--allowedTools', 'Bash', 'where am I'],
      { cwd: start, env: mockEnv(server.url, bed.home) },
    );
    expect(result.code, result.stderr).toBe(0);
    const sessionId = (JSON.parse(result.stdout) as { session_id: string }).session_id;
    const path = join(bed.trees, 'feat');
    const [created, removed] = bed.calls();
    // The usual base fields, of the folder the user started in, and the session's own id.
    expect(created).toMatchObject({
      hook_event_name: 'WorktreeCreate',
      name: 'feat',
      cwd: start,
      session_id: sessionId,
    });
    expect(created?.transcript_path).toMatch(new RegExp(`${sessionId}\\.jsonl$`));
    expect(toolResults()).toContain(path);
    expect(removed).toMatchObject({ hook_event_name: 'WorktreeRemove', worktree_path: path });
    expect(existsSync(path)).toBe(false);
    expect(result.stderr).toContain(`Removed the worktree ${path} through the WorktreeRemove hook.`);
  });

  it('a hook-made git worktree with work in it is kept and reported; the remover is not asked', async () => {
    const bed = await hookBed();
    const repo = makeTestRepo('yoke-e2e-wtrepo-');
    // Project settings of the folder the session starts in (a headless run applies them).
    mkdirSync(join(repo.work, '.yoke'));
    writeFileSync(
      join(repo.work, '.yoke/settings.json'),
      JSON.stringify(bed.hooks(bed.gitWorktree(repo.work))),
    );
    server = await startMockServer({
      scenario: [
        { match: { lastToolResultContains: 'draft.md' }, reply: say('drafted') },
        { reply: call('Write', { file_path: 'draft.md', content: 'draft\n' }) },
      ],
    });
    const result = await runYoke(['-p', '--worktree=wip', '--permission-mode', 'acceptEdits', 'draft it'], {
      cwd: repo.work,
      env: { ...mockEnv(server.url, bed.home), ...repo.env },
    });
    expect(result.code, result.stderr).toBe(0);
    const path = join(bed.trees, 'wip');
    expect(readFileSync(join(path, 'draft.md'), 'utf8')).toBe('draft\n');
    expect(existsSync(join(repo.work, 'draft.md'))).toBe(false);
    expect(bed.calls().map((input) => input.hook_event_name)).toEqual(['WorktreeCreate']);
    expect(result.stderr).toContain(`Kept the worktree ${path}: 1 uncommitted file (draft.md).`);
  });

  it.each([
    ['fails', FAILING, 'the WorktreeCreate hook failed: ', 'no space left on the build volume'],
    [
      'prints garbage',
      GARBAGE,
      'the WorktreeCreate hook gave "worktree ready: see above", not an absolute path',
      '',
    ],
  ])(
    'a hook that %s stops the start with one line, before any request',
    async (_, command, reason, detail) => {
      const bed = await hookBed();
      const start = await bed.plainFolder();
      bed.userSettings(bed.hooks(command));
      server = await startMockServer({ scenario: [{ reply: say('should not run') }] });
      const result = await runYoke(['-p', '--worktree', 'go'], {
        cwd: start,
        env: mockEnv(server.url, bed.home),
      });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(`--worktree: no worktree was made: ${reason}`);
      expect(result.stderr).toContain(detail);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(server.requests).toHaveLength(0);
    },
  );

  it('--bare reads no hooks: a folder that is no repository is refused as without them', async () => {
    const bed = await hookBed();
    const start = await bed.plainFolder();
    bed.userSettings(bed.hooks(bed.folder));
    server = await startMockServer({ scenario: [{ reply: say('should not run') }] });
    const result = await runYoke(['-p', '--bare', '--worktree=feat', 'go'], {
      cwd: start,
      env: mockEnv(server.url, bed.home),
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('is not in a git repository, so no worktree can be made');
    expect(bed.calls()).toEqual([]);
  });
});

describe('EnterWorktree and ExitWorktree with WorktreeCreate hooks', () => {
  it('the hook makes the worktree elsewhere, the model works there, and remove runs the remove hook', async () => {
    const bed = await hookBed();
    const repo = makeTestRepo('yoke-e2e-wtrepo-');
    bed.userSettings(bed.hooks(bed.gitWorktree(repo.work)));
    const path = join(bed.trees, 'side');
    server = await startMockServer({
      scenario: [
        { match: { lastToolResultContains: 'through the WorktreeRemove hook' }, reply: say('back') },
        { match: { lastToolResultContains: path }, reply: call('ExitWorktree', { action: 'remove' }) },
        {
          match: { lastToolResultContains: 'Created (by the WorktreeCreate hook)' },
          reply: call('Bash', { command: 'pwd' }),
        },
        { reply: call('EnterWorktree', { name: 'side' }) },
      ],
    });
    const result = await runYoke(['-p', '--allowedTools', 'Bash', 'work on the side'], {
      cwd: repo.work,
      env: { ...mockEnv(server.url, bed.home), ...repo.env },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('back');
    expect(bed.calls()).toEqual([
      expect.objectContaining({ hook_event_name: 'WorktreeCreate', name: 'side', cwd: repo.work }),
      expect.objectContaining({ hook_event_name: 'WorktreeRemove', worktree_path: path }),
    ]);
    expect(existsSync(path)).toBe(false);
    expect(repo.git(repo.work, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
  });

  it.each([
    ['fails', FAILING, 'No worktree is made: the WorktreeCreate hook failed: '],
    ['prints garbage', GARBAGE, 'not an absolute path'],
  ])(
    'a hook that %s refuses the call with its reason; git makes none instead',
    async (_, command, reason) => {
      const bed = await hookBed();
      const repo = makeTestRepo('yoke-e2e-wtrepo-');
      bed.userSettings(bed.hooks(command));
      server = await startMockServer({
        scenario: [
          { match: { lastToolResultContains: 'No worktree is made' }, reply: say('stayed') },
          { reply: call('EnterWorktree', { name: 'side' }) },
        ],
      });
      const result = await runYoke(['-p', 'work on the side'], {
        cwd: repo.work,
        env: { ...mockEnv(server.url, bed.home), ...repo.env },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('stayed');
      expect(toolResults()).toContain(reason);
      expect(repo.git(repo.work, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    },
  );
});
