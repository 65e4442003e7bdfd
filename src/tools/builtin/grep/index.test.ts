import { execFileSync } from 'node:child_process';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseRule } from '../../../permissions/rule-string';
import { emptyPermissionContext } from '../../../permissions/types';
import { ToolError } from '../../tool';
import { callTool, makeTempDir, makeTestContext, resultText } from '../shared/test-context';
import { type GrepInput, grepTool } from './index';
import type { GrepOutput } from './render';

let root: string;

function file(relativePath: string, content: string, age = 100): string {
  const path = join(root, relativePath);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  const time = Date.now() / 1000 - age;
  utimesSync(path, time, time);
  return path;
}

beforeEach(async () => {
  root = await makeTempDir('yoke-grep-');
  execFileSync('git', ['init', '-q'], { cwd: root });
});

async function grep(input: GrepInput, cwd = root, deny: string[] = []) {
  const rules = deny.map((text) => parseRule(text, 'deny', 'projectSettings')).filter((r) => r !== undefined);
  const permissionContext = { ...emptyPermissionContext(), rules };
  const result = await callTool<GrepOutput>(
    grepTool,
    input,
    makeTestContext({ cwd, getPermissionContext: () => permissionContext }),
  );
  return { data: result.data, text: resultText(grepTool, result) };
}

describe('Grep', () => {
  it('lists matching files newest first by default', async () => {
    file('src/old.ts', 'const needle = 1;\n', 300);
    file('src/new.ts', 'needle();\n', 10);
    file('src/none.ts', 'nothing here\n', 1);
    const { data, text } = await grep({ pattern: 'needle' });
    expect(data).toMatchObject({
      mode: 'files_with_matches',
      numFiles: 2,
      filenames: [join(root, 'src/new.ts'), join(root, 'src/old.ts')],
    });
    expect(text).toBe('Found 2 files\nsrc/new.ts\nsrc/old.ts');
  });

  it('shows content with line numbers and context, sorted by path', async () => {
    file('b.txt', 'one\ntwo match\nthree\n');
    file('a.txt', 'match first\nsecond\n');
    const { data, text } = await grep({ pattern: 'match', output_mode: 'content', '-A': 1 });
    expect(text).toBe(
      ['a.txt:1:match first', 'a.txt-2-second', '--', 'b.txt:2:two match', 'b.txt-3-three'].join('\n'),
    );
    expect(data).toMatchObject({ mode: 'content', numLines: 5 });
    const plain = await grep({ pattern: 'match', output_mode: 'content', '-n': false, path: 'a.txt' });
    expect(plain.text).toBe('match first');
  });

  it('supports -i, -o, glob, type and multiline', async () => {
    file('a.ts', 'Hello World\nfoo(\n  bar)\n');
    file('b.py', 'hello python\n');
    expect((await grep({ pattern: 'hello', '-i': true, glob: '*.ts' })).text).toBe('Found 1 file\na.ts');
    expect((await grep({ pattern: 'hello', type: 'py' })).text).toBe('Found 1 file\nb.py');
    const only = await grep({ pattern: 'W\\w+', output_mode: 'content', '-o': true });
    expect(only.text).toBe('a.ts:1:World');
    const multi = await grep({ pattern: 'foo\\(.*?bar\\)', multiline: true, output_mode: 'content' });
    expect(multi.text).toBe('a.ts:2:foo(\na.ts:3:  bar)');
    expect((await grep({ pattern: 'foo\\(.*?bar\\)' })).text).toBe('No matches found');
  });

  it('counts matches per file', async () => {
    file('a.txt', 'x\nx\ny\n');
    file('b.txt', 'x\n');
    const { data, text } = await grep({ pattern: 'x', output_mode: 'count' });
    expect(data).toMatchObject({ mode: 'count', numFiles: 2, numMatches: 3 });
    expect(text).toBe('a.txt:2\nb.txt:1\n\nFound 3 total occurrences across 2 files.');
  });

  it('pages with head_limit and offset and says where the next page starts', async () => {
    file('a.txt', Array.from({ length: 10 }, (_, i) => `line ${i}`).join('\n'));
    const first = await grep({ pattern: 'line', output_mode: 'content', head_limit: 3 });
    expect(first.data).toMatchObject({ numLines: 3, appliedLimit: 3 });
    expect(first.text).toContain('a.txt:3:line 2');
    expect(first.text).toContain('offset: 3');
    const second = await grep({ pattern: 'line', output_mode: 'content', head_limit: 3, offset: 3 });
    expect(second.text.split('\n')[0]).toBe('a.txt:4:line 3');
    expect(second.data).toMatchObject({ appliedLimit: 3, appliedOffset: 3 });
    const rest = await grep({ pattern: 'line', output_mode: 'content', head_limit: 0, offset: 8 });
    expect(rest.data).toMatchObject({ numLines: 2 });
    expect(rest.data.appliedLimit).toBeUndefined();
  });

  it('applies the default head_limit of 250 to file lists', async () => {
    for (let i = 0; i < 260; i++) file(`f/${i}.txt`, 'hit\n');
    const { data } = await grep({ pattern: 'hit' });
    expect(data).toMatchObject({ numFiles: 250, appliedLimit: 250 });
  });

  it('searches dotfiles and honours .gitignore, never .git', async () => {
    file('.env.example', 'SECRET_KEY=\n');
    file('.gitignore', 'dist/\n');
    file('dist/bundle.js', 'SECRET_KEY\n');
    const { text } = await grep({ pattern: 'SECRET_KEY' });
    expect(text).toBe('Found 1 file\n.env.example');
    expect((await grep({ pattern: 'repositoryformatversion' })).text).toBe('No matches found');
  });

  it('shortens very long lines instead of flooding the result', async () => {
    file('min.js', `${'x'.repeat(5000)}needle${'y'.repeat(5000)}\n`);
    const { text } = await grep({ pattern: 'needle', output_mode: 'content' });
    expect(text.length).toBeLessThan(1000);
  });

  it('treats a pattern starting with a dash as a pattern', async () => {
    file('a.txt', 'run --force now\n');
    expect((await grep({ pattern: '--force', output_mode: 'content' })).text).toBe('a.txt:1:run --force now');
  });

  it("reports a bad regex with ripgrep's message", async () => {
    file('a.txt', 'x\n');
    const call = grep({ pattern: 'foo(' });
    await expect(call).rejects.toBeInstanceOf(ToolError);
    await expect(call).rejects.toThrow(/regex parse error/);
  });

  it('fails clearly for a missing path and shows absolute paths outside the cwd', async () => {
    file('a.txt', 'hit\n');
    await expect(grep({ pattern: 'x', path: 'missing' })).rejects.toThrow(/Path does not exist/);
    const elsewhere = await makeTempDir('yoke-grep-cwd-');
    expect((await grep({ pattern: 'hit', path: root }, elsewhere)).text).toBe(
      `Found 1 file\n${join(root, 'a.txt')}`,
    );
  });

  it('leaves files covered by Read deny rules out of the search and says how many', async () => {
    file('.env', 'API_KEY=secret\n');
    file('src/.env', 'API_KEY=other\n');
    file('src/app.ts', 'const API_KEY = process.env.API_KEY;\n');
    const files = await grep({ pattern: 'API_KEY' }, root, ['Read(.env)']);
    expect(files.text).toBe('Found 1 file\nsrc/app.ts\n(2 files were left out: Read deny rules cover them.)');
    expect(files.data.deniedSkipped).toBe(2);
    const content = await grep({ pattern: 'secret', output_mode: 'content' }, root, ['Read(./.env)']);
    expect(content.text).toBe('No matches found\n(1 file was left out: Read deny rules cover it.)');
    const below = await grep({ pattern: 'API_KEY', path: 'src' }, root, ['Read(/src/.env)']);
    expect(below.text).toContain('(1 file was left out');
    expect(below.text).not.toContain('src/.env');
    const outside = await makeTempDir('yoke-grep-cwd-');
    const far = await grep({ pattern: 'API_KEY', output_mode: 'count', path: root }, outside, [
      `Read(/${root}/.env)`,
    ]);
    expect(far.text).not.toContain(`${root}/.env:`);
    expect(far.data.deniedSkipped).toBe(1);
    await expect(grep({ pattern: 'x', path: 'src' }, root, ['Read(src/**)'])).rejects.toThrow(
      /cannot be searched/,
    );
  });

  it('says nothing of deny rules that cover no file it would read', async () => {
    file('src/app.ts', 'needle\n');
    file('.env', 'needle\n');
    const { text, data } = await grep({ pattern: 'needle', glob: '*.ts' }, root, ['Read(.env)']);
    expect(text).toBe('Found 1 file\nsrc/app.ts');
    expect(data.deniedSkipped).toBeUndefined();
  });

  it('stops when the call is aborted', async () => {
    file('a.txt', 'x\n');
    const controller = new AbortController();
    controller.abort();
    const context = makeTestContext({ cwd: root, abortSignal: controller.signal });
    await expect(callTool(grepTool, { pattern: 'x' }, context)).rejects.toThrow(/interrupted/);
  });
});
