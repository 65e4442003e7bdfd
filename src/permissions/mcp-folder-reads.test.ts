/**
 * Folders an MCP call names, against Read deny rules, on a real disk (the decision walks the
 * folder). Calibrated with the reference filesystem server in test/e2e/mcp-protected-writes.test.ts:
 * its list_directory, directory_tree and search_files of the project returned the name of
 * `sec/launch-codes-4711.env`, which `Read(./sec/**)` hides from Grep and Glob.
 */
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CorpusCase, decideCase } from './corpus-test-support';
import { diskPathFs } from './real-paths';

let project: string;
beforeAll(async () => {
  project = await realpath(await mkdtemp(join(tmpdir(), 'yoke-mcp-folders-')));
  await mkdir(join(project, 'sec'));
  await mkdir(join(project, 'src'));
  await mkdir(join(project, 'docs'));
  await writeFile(join(project, 'sec', 'launch-codes.env'), 'TOKEN=1');
  await writeFile(join(project, 'src', 'a.ts'), '');
  await writeFile(join(project, 'src', 'deploy.pem'), 'k');
  await writeFile(join(project, 'docs', 'a.md'), '');
  // A link in an innocent folder leads into the denied one.
  await mkdir(join(project, 'shortcuts'));
  await symlink(join(project, 'sec'), join(project, 'shortcuts', 'vault'));
});
afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

const decide = (c: CorpusCase) =>
  decideCase(c, { fs: diskPathFs, projectRoot: project, cwd: project, home: '/home/u' });

const list = (path: string, deny: string[], mode?: CorpusCase['mode']): CorpusCase => ({
  tool: 'mcp__fs__read_text_file',
  input: { path },
  allow: ['mcp__fs'],
  deny,
  ...(mode ? { mode } : {}),
  expect: 'ask',
});

describe('MCP folder arguments against Read deny rules', () => {
  it('ask in every mode for a folder holding a denied file, naming the rule but not the file', async () => {
    for (const mode of ['default', 'acceptEdits', 'bypassPermissions'] as const) {
      const { verdict, question } = await decide(list('.', ['Read(./sec/**)'], mode));
      expect(verdict).toBe('ask');
      expect(question).toContain('names ., a folder holding files Read(./sec/**) (projectSettings) denies');
      expect(question).not.toContain('launch-codes');
    }
    expect((await decide(list(project, ['Read(*.pem)']))).verdict).toBe('ask');
    expect((await decide(list('src', ['Read(*.pem)']))).verdict).toBe('ask');
  });

  it('ask for a folder whose symlink leads into a denied folder', async () => {
    expect((await decide(list('shortcuts', ['Read(./sec/**)']))).verdict).toBe('ask');
  });

  it('deny the denied folder itself', async () => {
    expect((await decide(list('sec', ['Read(./sec/**)']))).verdict).toBe('deny');
  });

  it('controls: folders without a denied file, files, and no deny rule pass', async () => {
    expect((await decide(list('src', ['Read(./sec/**)']))).verdict).toBe('allow');
    expect((await decide(list('docs', ['Read(*.pem)']))).verdict).toBe('allow');
    expect((await decide(list('src/a.ts', ['Read(*.pem)']))).verdict).toBe('allow');
    expect((await decide(list('.', ['Edit(./sec/**)']))).verdict).toBe('allow');
    expect((await decide(list('.', []))).verdict).toBe('allow');
  });
});
