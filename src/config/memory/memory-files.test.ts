import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadMemoryFiles } from './memory-files';
import { findImports } from './memory-imports';
import { NestedMemoryTracker } from './nested-memory';

let base: string;
let env: Record<string, string>;

async function put(path: string, content: string): Promise<string> {
  const full = join(base, path);
  await mkdir(dirname(full), { recursive: true });
  await writeFile(full, content);
  return full;
}

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'yoke-memory-'));
  env = { HOME: join(base, 'home'), YOKE_HOME: join(base, 'home', '.yoke') };
  await mkdir(join(base, 'home'), { recursive: true });
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('loadMemoryFiles', () => {
  it('loads user files, then each folder from the repo root down, local files after shared ones', async () => {
    await put('home/.claude/CLAUDE.md', 'user claude');
    await put('home/.yoke/AGENTS.md', 'user agents');
    await put('outside/CLAUDE.md', 'above the repo: ignored');
    await put('outside/repo/.git/HEAD', 'ref: refs/heads/main');
    await put('outside/repo/AGENTS.md', 'repo agents');
    await put('outside/repo/pkg/CLAUDE.local.md', 'pkg local');
    await put('outside/repo/pkg/.yoke/YOKE.md', 'pkg yoke');
    await put('outside/repo/pkg/.claude/CLAUDE.md', 'pkg dot-claude');
    const files = await loadMemoryFiles({ cwd: join(base, 'outside/repo/pkg'), env, trusted: false });
    expect(files.map((f) => [f.content, f.kind])).toEqual([
      ['user claude', 'user'],
      ['user agents', 'user'],
      ['repo agents', 'project'],
      ['pkg dot-claude', 'project'],
      ['pkg yoke', 'project'],
      ['pkg local', 'local'],
    ]);
    expect(files[2]?.path).toBe(join(base, 'outside/repo/AGENTS.md'));
  });

  it('without a repository walks up to (not including) the home folder', async () => {
    await put('home/CLAUDE.md', 'home-level project file');
    await put('home/work/CLAUDE.md', 'work');
    await put('home/work/app/AGENTS.md', 'app');
    const files = await loadMemoryFiles({ cwd: join(base, 'home/work/app'), env, trusted: false });
    expect(files.map((f) => f.content)).toEqual(['work', 'app']);
  });

  it('follows @imports relative to the importer and, trusted, from ~/, each file once, with its path', async () => {
    await put('repo/.git/HEAD', 'x');
    await put(
      'repo/CLAUDE.md',
      'See @docs/style.md and @~/notes.md. Also `@not/this.md`.\n```\n@nor/this.md\n```',
    );
    await put('repo/docs/style.md', 'style, and back to @../CLAUDE.md');
    await put('home/notes.md', 'notes');
    const files = await loadMemoryFiles({ cwd: join(base, 'repo'), env, trusted: true });
    expect(files.map((f) => [f.path, f.content.slice(0, 5)])).toEqual([
      [join(base, 'repo/CLAUDE.md'), 'See @'],
      [join(base, 'repo/docs/style.md'), 'style'],
      [join(base, 'home/notes.md'), 'notes'],
    ]);
    expect(files[1]?.importedBy).toBe(join(base, 'repo/CLAUDE.md'));
  });

  it("untrusted, a project's file imports nothing outside the project, a symlink out of it included", async () => {
    await put('repo/.git/HEAD', 'x');
    await put('repo/CLAUDE.md', '@docs/style.md @~/.ssh/id_ed25519 @../outside.md @docs/key');
    await put('repo/docs/style.md', 'style');
    await put('home/.ssh/id_ed25519', 'KEY');
    await put('outside.md', 'OUTSIDE');
    await symlink(join(base, 'home/.ssh/id_ed25519'), join(base, 'repo/docs/key'));
    // The user's own file imports from the home folder as before.
    await put('home/.claude/CLAUDE.md', '@~/mine.md');
    await put('home/mine.md', 'MINE');
    const refused: string[] = [];
    const files = await loadMemoryFiles({
      cwd: join(base, 'repo'),
      env,
      trusted: false,
      refused: (line) => refused.push(line),
    });
    expect(files.map((f) => f.content)).toEqual([
      '@~/mine.md',
      'MINE',
      expect.stringContaining('@docs'),
      'style',
    ]);
    expect(refused).toEqual([
      expect.stringContaining(
        `${join(base, 'repo/CLAUDE.md')} imports ~/.ssh/id_ed25519, which lies outside the project`,
      ),
      expect.stringContaining('imports ../outside.md'),
      expect.stringContaining('imports docs/key'),
    ]);
    expect(refused[0]).toContain('yoke trust');
  });

  it('stops import chains after five hops', async () => {
    await put('repo/.git/HEAD', 'x');
    await put('repo/CLAUDE.md', '@l1.md');
    for (let i = 1; i <= 7; i++) await put(`repo/l${i}.md`, `level ${i} @l${i + 1}.md`);
    const files = await loadMemoryFiles({ cwd: join(base, 'repo'), env, trusted: false });
    expect(files.map((f) => f.content.split(' @')[0])).toEqual([
      '@l1.md',
      'level 1',
      'level 2',
      'level 3',
      'level 4',
      'level 5',
    ]);
  });
});

describe('loadMemoryFiles with --setting-sources', () => {
  async function layout(): Promise<string> {
    await put('home/.claude/CLAUDE.md', 'user');
    await put('repo/.git/HEAD', 'x');
    await put('repo/CLAUDE.md', 'repo shared');
    await put('repo/app/AGENTS.md', 'app shared');
    await put('repo/app/CLAUDE.local.md', 'app local');
    return join(base, 'repo/app');
  }
  const contents = async (sources: ('user' | 'project' | 'local')[] | undefined) =>
    (await loadMemoryFiles({ cwd: await layout(), env, sources, trusted: false })).map((f) => f.content);

  it('loads each kind only when its source is selected', async () => {
    expect(await contents(undefined)).toEqual(['user', 'repo shared', 'app shared', 'app local']);
    expect(await contents(['user'])).toEqual(['user']);
    expect(await contents(['project'])).toEqual(['repo shared', 'app shared']);
    expect(await contents(['local'])).toEqual(['app local']);
    expect(await contents(['user', 'local'])).toEqual(['user', 'app local']);
  });

  it("loads none for an empty list (the SDK's settingSources: [])", async () => {
    expect(await contents([])).toEqual([]);
  });

  it('applies to the files of subfolders loaded later, too', async () => {
    await put('repo/.git/HEAD', 'x');
    await put('repo/lib/CLAUDE.md', 'lib shared');
    await put('repo/lib/CLAUDE.local.md', 'lib local');
    const root = join(base, 'repo');
    const touched = join(root, 'lib/x.ts');
    const only = async (sources: ('user' | 'project' | 'local')[]) =>
      (
        await new NestedMemoryTracker({ trusted: false, projectRoot: root, env, sources }).filesFor(touched)
      ).map((f) => f.content);
    expect(await only(['local'])).toEqual(['lib local']);
    expect(await only(['project'])).toEqual(['lib shared']);
    expect(await only([])).toEqual([]);
  });
});

describe('findImports', () => {
  it('ignores e-mail addresses, code spans and fenced blocks, and trims sentence punctuation', () => {
    const text = 'mail a@b.com, read @./a.md. `@b.md`\n~~~\n@c.md\n~~~\n@/abs/d.md';
    expect(findImports(text)).toEqual(['./a.md', '/abs/d.md']);
  });
});

describe('NestedMemoryTracker', () => {
  it('returns the unseen memory files between the root and a touched path, once', async () => {
    await put('repo/CLAUDE.md', 'root');
    await put('repo/src/AGENTS.md', 'src');
    await put('repo/src/deep/CLAUDE.md', 'deep @extra.md');
    await put('repo/src/deep/extra.md', 'extra');
    await put('repo/src/deep/file.ts', '');
    const tracker = new NestedMemoryTracker({ trusted: false, projectRoot: join(base, 'repo'), env });
    const first = await tracker.filesFor(join(base, 'repo/src/deep/file.ts'));
    expect(first.map((f) => [f.content, f.kind])).toEqual([
      ['src', 'nested'],
      ['deep @extra.md', 'nested'],
      ['extra', 'nested'],
    ]);
    expect(await tracker.filesFor('src/deep')).toEqual([]);
    expect(await tracker.filesFor(join(base, 'repo/CLAUDE.md'))).toEqual([]);
    expect(await tracker.filesFor(join(base, 'elsewhere/x.ts'))).toEqual([]);
    expect(tracker.loadedPaths).toContain(join(base, 'repo/src/AGENTS.md'));
  });
});
