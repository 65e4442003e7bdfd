import { execFileSync } from 'node:child_process';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseRule } from '../../../permissions/rule-string';
import { emptyPermissionContext } from '../../../permissions/types';
import { ToolError } from '../../tool';
import { callTool, makeTempDir, makeTestContext, resultText } from '../shared/test-context';
import { type GlobOutput, globTool } from './index';

let root: string;

/** Writes a file with an mtime `age` seconds in the past, so "newest first" is deterministic. */
function file(relativePath: string, age = 100): string {
  const path = join(root, relativePath);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, relativePath);
  const time = Date.now() / 1000 - age;
  utimesSync(path, time, time);
  return path;
}

beforeEach(async () => {
  root = await makeTempDir('yoke-glob-');
  // A real repository: ripgrep applies .gitignore only inside one.
  execFileSync('git', ['init', '-q'], { cwd: root });
});

async function glob(input: Record<string, unknown>, cwd = root, deny: string[] = []) {
  const rules = deny.map((text) => parseRule(text, 'deny', 'projectSettings')).filter((r) => r !== undefined);
  const permissionContext = { ...emptyPermissionContext(), rules };
  const result = await callTool<GlobOutput>(
    globTool,
    input,
    makeTestContext({ cwd, getPermissionContext: () => permissionContext }),
  );
  return { data: result.data, text: resultText(globTool, result) };
}

describe('Glob', () => {
  it('lists matches newest first, as paths relative to the cwd', async () => {
    file('src/old.ts', 300);
    file('src/new.ts', 10);
    file('src/mid.ts', 100);
    file('src/readme.md', 1);
    const { data, text } = await glob({ pattern: '**/*.ts' });
    expect(text).toBe(['src/new.ts', 'src/mid.ts', 'src/old.ts'].join('\n'));
    expect(data.filenames).toEqual([
      join(root, 'src/new.ts'),
      join(root, 'src/mid.ts'),
      join(root, 'src/old.ts'),
    ]);
    expect(data).toMatchObject({ numFiles: 3, truncated: false });
    expect(data.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('skips files ignored by .gitignore and .ignore, and .git itself, but keeps other dotfiles', async () => {
    file('.gitignore', 1);
    writeFileSync(join(root, '.gitignore'), 'build/\n*.gen.ts\n');
    writeFileSync(join(root, '.ignore'), 'vendor/\n');
    file('src/a.ts');
    file('src/a.gen.ts');
    file('build/out.ts');
    file('vendor/lib.ts');
    file('.config/tool.ts');
    const { data } = await glob({ pattern: '**/*' });
    const names = data.filenames.map((path) => path.slice(root.length + 1)).sort();
    expect(names).toEqual(['.config/tool.ts', '.gitignore', '.ignore', 'src/a.ts']);
  });

  it('searches the given path, relative to the cwd, and an absolute pattern', async () => {
    file('src/a.ts');
    file('lib/b.ts');
    expect((await glob({ pattern: '*.ts', path: 'lib' })).text).toBe('lib/b.ts');
    expect((await glob({ pattern: join(root, 'src', '*.ts') })).text).toBe('src/a.ts');
  });

  it('searches the literal folder a pattern starts with, `..` included', async () => {
    file('src/a.ts');
    file('lib/b.ts');
    expect((await glob({ pattern: 'src/*.ts' })).text).toBe('src/a.ts');
    // `src/*.ts` is anchored to src: a deeper match is not one.
    file('src/deep/c.ts');
    expect((await glob({ pattern: 'src/*.ts' })).text).toBe('src/a.ts');
    expect((await glob({ pattern: '../lib/*.ts', path: 'src' })).text).toBe('lib/b.ts');
    expect((await glob({ pattern: 'docs/**/*.md' })).text).toBe('No files found');
  });

  it('leaves files covered by Read deny rules out and says how many', async () => {
    file('.env', 10);
    file('src/.env', 20);
    file('src/a.ts', 30);
    const { text, data } = await glob({ pattern: '**/.*' }, root, ['Read(.env)']);
    expect(text).toBe('No files found\n(2 files were left out: Read deny rules cover them.)');
    expect(data).toMatchObject({ numFiles: 0, deniedSkipped: 2 });
    const ts = await glob({ pattern: '**/*' }, root, ['Read(./src/.env)']);
    expect(ts.data.filenames.map((path) => path.slice(root.length + 1)).sort()).toEqual(['.env', 'src/a.ts']);
    expect(ts.text).toContain('(1 file was left out: Read deny rules cover it.)');
  });

  it('shows absolute paths for a directory outside the cwd', async () => {
    file('src/a.ts');
    const elsewhere = await makeTempDir('yoke-glob-cwd-');
    const { text } = await glob({ pattern: '*.ts', path: root }, elsewhere);
    expect(text).toBe(join(root, 'src/a.ts'));
  });

  it('caps the list at 100 and tells the model to narrow the pattern', async () => {
    for (let i = 0; i < 105; i++) file(`many/f${i}.txt`, 1000 - i);
    const { data, text } = await glob({ pattern: 'many/*.txt' });
    expect(data).toMatchObject({ numFiles: 100, truncated: true, totalMatches: 105 });
    expect(data.filenames[0]).toBe(join(root, 'many/f104.txt'));
    expect(text).toContain('Narrow the pattern');
  });

  it('says "No files found" when nothing matches', async () => {
    file('a.md');
    const { data, text } = await glob({ pattern: '*.rs' });
    expect(text).toBe('No files found');
    expect(data).toMatchObject({ numFiles: 0, filenames: [], truncated: false });
  });

  it('fails clearly for a missing directory or a file given as path', async () => {
    file('a.md');
    await expect(glob({ pattern: '*', path: 'nope' })).rejects.toThrow(/Directory does not exist: .*nope/);
    await expect(glob({ pattern: '*', path: 'a.md' })).rejects.toBeInstanceOf(ToolError);
  });

  it('stops when the call is aborted', async () => {
    file('a.md');
    const controller = new AbortController();
    controller.abort();
    const context = makeTestContext({ cwd: root, abortSignal: controller.signal });
    await expect(callTool(globTool, { pattern: '*' }, context)).rejects.toThrow(/interrupted/);
  });

  it('explains how to get ripgrep when it cannot be found', async () => {
    file('a.md');
    // The bundled binary switched off, and no rg on PATH.
    const env = { USE_BUILTIN_RIPGREP: '0', PATH: join(root, 'no-bin') };
    const context = makeTestContext({ cwd: root, env });
    await expect(callTool(globTool, { pattern: '*' }, context)).rejects.toThrow(/install ripgrep/);
  });
});
