/**
 * The sandbox as an unprivileged user (CI runs as root; `setpriv` drops to nobody): bubblewrap
 * then needs unprivileged user namespaces, the case most machines are in. `yoke sandbox check`
 * proves each confinement with a real command, and a headless run against the mock server shows
 * the Bash tool's refusals reaching the model as readable lines.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import { mockEnv, YOKE_BIN } from './helpers';

const NOBODY = 65534;

function canDropPrivileges(): boolean {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync('setpriv', [
      '--reuid=65534',
      '--regid=65534',
      '--clear-groups',
      'bwrap',
      '--unshare-all',
      '--ro-bind',
      '/',
      '/',
      'true',
    ]);
    return true;
  } catch {
    return false;
  }
}

/**
 * The folders `nobodyFolders` made: /var/tmp is outside the per-file TMPDIR the test setup
 * removes, so the file removes them itself (they piled up in /var/tmp run after run).
 */
const madeRoots: string[] = [];

/** A project and home owned by nobody, in /var/tmp (a /tmp folder would be private inside). */
function nobodyFolders(): { cwd: string; home: string; outside: string } {
  const root = mkdtempSync('/var/tmp/yoke-e2e-sandbox-');
  madeRoots.push(root);
  chmodSync(root, 0o755);
  const cwd = join(root, 'project');
  const home = join(root, 'home');
  const outside = join(root, 'outside');
  for (const dir of [cwd, home, outside]) {
    mkdirSync(dir);
    chownSync(dir, NOBODY, NOBODY);
  }
  execFileSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'git', 'init', '-q', cwd], {
    env: { PATH: process.env.PATH, HOME: home },
  });
  return { cwd, home, outside };
}

function runAsNobody(args: string[], cwd: string, env: Record<string, string | undefined>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(
      'setpriv',
      ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, YOKE_BIN, ...args],
      { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A scripted model turn that calls Bash. */
const bash = (command: string) => ({
  content: [{ type: 'tool_use' as const, name: 'Bash', input: { command } }],
});

let server: MockServer;

/** What the model was sent after each turn: the tool result, as JSON text. */
const toolResults = () =>
  server.requests
    .slice(1)
    .map((request) => JSON.stringify((request.body as { messages: unknown[] }).messages.at(-1)));

beforeAll(async () => {
  server = await startMockServer({ scenario: [] });
});
afterAll(async () => {
  await server.close();
  for (const root of madeRoots) rmSync(root, { recursive: true, force: true });
});

describe.skipIf(!canDropPrivileges() || !existsSync('/var/tmp'))(
  'the sandbox as an unprivileged user',
  () => {
    it('yoke sandbox check proves every confinement', async () => {
      const { cwd, home } = nobodyFolders();
      const { code, stdout } = await runAsNobody(['sandbox', 'check'], cwd, {
        PATH: process.env.PATH,
        HOME: home,
      });
      expect(stdout).toContain('bubblewrap: works as this user');
      expect(stdout).not.toContain('FAILED');
      expect(stdout.match(/^ok: /gm)).toHaveLength(4);
      expect(code).toBe(0);
    });

    it('runs Bash inside: a write into .git/hooks and one outside reach the model as readable refusals', async () => {
      const folders = nobodyFolders();
      const { cwd, home } = folders;
      // A folder nobody may write to outside the sandbox: only the sandbox stops the write.
      const outside = join(folders.outside, 'planted.txt');
      // The hook's path spelled so no static check can read it: only the sandbox stops this one.
      const hookPath = Buffer.from('.git/hooks/pre-commit').toString('base64');
      const plantHook = `printf '#!/bin/sh\\n' > "$(echo ${hookPath} | base64 -d)"`;
      server.reset([
        { reply: bash(`echo x > ${outside}`) },
        { reply: bash(plantHook) },
        { reply: bash('echo fine > inside.txt && cat inside.txt') },
        { reply: { content: [{ type: 'text', text: 'done' }] } },
      ]);
      // With autoAllowBashIfSandboxed the commands run without a prompt (none is available in -p);
      // the hook write is allowed by the user's exact rule, as a missed analysis case would be.
      writeFileSync(
        join(home, 'settings.json'),
        JSON.stringify({ sandbox: { enabled: true, autoAllowBashIfSandboxed: true } }),
      );
      const { code, stderr } = await runAsNobody(
        ['-p', 'go', '--settings', join(home, 'settings.json'), '--allowedTools', `Bash(${plantHook})`],
        cwd,
        {
          ...mockEnv(server.url, home),
          PATH: process.env.PATH,
        },
      );
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const results = toolResults();
      expect(results[0]).toContain(`write to ${outside} blocked by the sandbox: outside the writable paths`);
      expect(results[1]).toContain('blocked by the sandbox: it stays read-only because git runs its hooks');
      expect(results[2]).toContain('fine');
      expect(existsSync(outside)).toBe(false);
      expect(existsSync(join(cwd, '.git', 'hooks', 'pre-commit'))).toBe(false);
      expect(existsSync(join(cwd, 'inside.txt'))).toBe(true);
    });

    it('commits inside the sandbox; .git cannot be moved aside, and nothing it added stays', async () => {
      const { cwd, home } = nobodyFolders();
      const before = readdirSync(cwd).sort();
      const commit = 'echo one > file.txt && git add file.txt && git commit -qm one && git log --format=%s';
      const moveGit = 'mv .git .git-old';
      server.reset([
        { reply: bash(commit) },
        { reply: bash(moveGit) },
        { reply: { content: [{ type: 'text', text: 'done' }] } },
      ]);
      writeFileSync(
        join(home, 'settings.json'),
        JSON.stringify({ sandbox: { enabled: true, autoAllowBashIfSandboxed: true } }),
      );
      const identity = { GIT_AUTHOR_NAME: 'n', GIT_AUTHOR_EMAIL: 'n@example.com' };
      const { code, stderr } = await runAsNobody(
        [
          '-p',
          'go',
          '--settings',
          join(home, 'settings.json'),
          '--allowedTools',
          `Bash(${commit})`,
          '--allowedTools',
          `Bash(${moveGit})`,
        ],
        cwd,
        {
          ...mockEnv(server.url, home),
          ...identity,
          GIT_COMMITTER_NAME: 'n',
          GIT_COMMITTER_EMAIL: 'n@example.com',
          PATH: process.env.PATH,
        },
      );
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const results = toolResults();
      expect(results[0]).toContain('one');
      expect(results[1]).toContain('Device or resource busy');
      expect(existsSync(join(cwd, '.git', 'HEAD'))).toBe(true);
      expect(readdirSync(cwd).sort()).toEqual([...before, 'file.txt'].sort());
      expect(existsSync(join(cwd, '.git', 'commondir'))).toBe(false);
    });
  },
);
