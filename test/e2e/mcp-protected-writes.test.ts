/**
 * An MCP filesystem server (the reference server-filesystem, as a user configures it) is one more
 * way for the model to write a file: a server-wide allow rule lets its calls run, but one that
 * names a protected file (`.git/hooks/*`, `.git/config`) asks like Write does — refused headless —
 * while its ordinary writes still go through; and Read and Edit deny rules hold against the files
 * its arguments name. The files on disk, and what reached the model, prove what happened.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import type { ScenarioInput } from '../../src/testing/mock-server/scenario';
import { mockEnv, runYoke, tempProject } from './helpers';

const FILESYSTEM_SERVER = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-filesystem/dist/index.js',
);

let server: MockServer | undefined;
const folders: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(async () => {
  await Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A git repository whose `.mcp.json` starts the filesystem server on it. */
async function repository(settings: unknown = {}): Promise<{ project: string; home: string }> {
  const project = await tempProject();
  const home = await tempProject('yoke-e2e-home-');
  folders.push(project, home);
  await writeFile(join(home, 'settings.json'), JSON.stringify(settings));
  execFileSync('git', ['init', '-q', '.'], { cwd: project });
  const fs = { command: process.execPath, args: [FILESYSTEM_SERVER, project] };
  await writeFile(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { fs } }));
  return { project, home };
}

/**
 * Once the server's tools are offered, the model makes `calls` one per turn; until then it waits
 * in the shell a moment and looks again (the server connects in the background).
 */
function scenario(calls: readonly [string, Record<string, unknown>][]): ScenarioInput {
  return [
    ...calls.map(([name, input]) => ({
      match: { hasTool: 'mcp__fs__write_file' },
      reply: { content: [{ type: 'tool_use' as const, name, input }] },
    })),
    { match: { hasTool: 'mcp__fs__write_file' }, reply: { content: [{ type: 'text', text: 'Done.' }] } },
    {
      reply: { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'sleep 0.2' } }] },
      repeat: 'forever',
    },
  ];
}

/** Runs `yoke -p prompt` in `project` with the server allowed server-wide; what the model was told. */
async function toldUnder(prompt: string, project: string, home: string, mock: MockServer): Promise<string> {
  const run = await runYoke(['-p', prompt, '--allowedTools', 'mcp__fs,Bash(sleep:*)'], {
    cwd: project,
    env: mockEnv(mock.url, home),
    timeoutMs: 60_000,
  });
  expect(run.code, run.stderr).toBe(0);
  return JSON.stringify(mock.requests.map((request) => request.body));
}

describe('an MCP filesystem server allowed server-wide', () => {
  it('asks before it writes .git/hooks or .git/config (refused headless), and still writes other files', async () => {
    const { project, home } = await repository();
    const configBefore = await readFile(join(project, '.git', 'config'), 'utf8');
    server = await startMockServer({
      scenario: scenario([
        ['mcp__fs__write_file', { path: join(project, '.git/hooks/pre-commit'), content: '#!/bin/sh\n' }],
        [
          'mcp__fs__edit_file',
          { path: '.git/config', edits: [{ oldText: '[core]', newText: '[core]\n\thooksPath = /tmp' }] },
        ],
        ['mcp__fs__write_file', { path: join(project, 'notes.txt'), content: 'notes\n' }],
      ]),
    });
    const run = await runYoke(
      ['-p', 'write', '--permission-mode', 'acceptEdits', '--allowedTools', 'mcp__fs,Bash(sleep:*)'],
      { cwd: project, env: mockEnv(server.url, home), timeoutMs: 60_000 },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(project, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(await readFile(join(project, '.git', 'config'), 'utf8')).toBe(configBefore);
    expect(await readFile(join(project, 'notes.txt'), 'utf8')).toBe('notes\n');
    const told = JSON.stringify(server.requests.map((request) => request.body));
    expect(told).toContain(
      '.git/hooks/pre-commit is protected: git runs the hooks and config kept under .git',
    );
    expect(told).toContain('.git/config is protected');
  });
});

describe("Read and Edit deny rules against an MCP filesystem server's calls", () => {
  it('deny reading a denied file and writing into a denied folder; other files pass', async () => {
    const { project, home } = await repository({
      permissions: { deny: ['Read(./sec/**)', 'Edit(./locked/**)'] },
    });
    await mkdir(join(project, 'sec'));
    await writeFile(join(project, 'sec', 'secret.env'), 'TOKEN=hunter2\n');
    await writeFile(join(project, 'open.txt'), 'open text\n');
    server = await startMockServer({
      scenario: scenario([
        ['mcp__fs__read_text_file', { path: join(project, 'sec/secret.env') }],
        ['mcp__fs__write_file', { path: 'locked/x.txt', content: 'x\n' }],
        ['mcp__fs__read_text_file', { path: 'open.txt' }],
      ]),
    });
    const told = await toldUnder('read', project, home, server);
    expect(told).not.toContain('hunter2');
    expect(told).toContain('Denied by rule Read(./sec/**) (userSettings): mcp__fs__read_text_file names');
    expect(existsSync(join(project, 'locked', 'x.txt'))).toBe(false);
    expect(told).toContain(
      'Denied by rule Edit(./locked/**) (userSettings): mcp__fs__write_file names locked/x.txt',
    );
    expect(told).toContain('open text');
  });
});

describe("Read deny rules against an MCP filesystem server's folder arguments", () => {
  it('ask before listing, walking or searching a folder holding a denied file (refused headless); other folders pass', async () => {
    const { project, home } = await repository({ permissions: { deny: ['Read(./sec/**)'] } });
    await mkdir(join(project, 'sec'));
    await writeFile(join(project, 'sec', 'launch-codes-4711.env'), 'TOKEN=hunter2\n');
    await mkdir(join(project, 'src'));
    await writeFile(join(project, 'src', 'open-module.ts'), 'export {};\n');
    server = await startMockServer({
      scenario: scenario([
        ['mcp__fs__list_directory', { path: project }],
        ['mcp__fs__directory_tree', { path: '.' }],
        ['mcp__fs__search_files', { path: project, pattern: 'launch' }],
        ['mcp__fs__list_directory', { path: join(project, 'src') }],
      ]),
    });
    const told = await toldUnder('list', project, home, server);
    expect(told).not.toContain('launch-codes-4711');
    expect(told).toContain(
      `mcp__fs__list_directory names ${project}, a folder holding files Read(./sec/**) (userSettings) denies`,
    );
    expect(told).toContain('mcp__fs__directory_tree names ., a folder holding files');
    expect(told).toContain('mcp__fs__search_files names');
    expect(told).toContain('open-module.ts');
  });
});
