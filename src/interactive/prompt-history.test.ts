/** Prompt history on real files, with concurrent writers. */
import { appendFile, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_ENTRY_CHARS, PromptHistory, ROTATE_BYTES, searchEntries } from './prompt-history';

let root: string;
let env: Record<string, string>;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'yoke-history-'));
  env = { HOME: root, YOKE_HOME: join(root, '.yoke') };
});
afterEach(() => rm(root, { recursive: true, force: true }));

const history = (projectRoot = '/work/app') => new PromptHistory({ env, projectRoot });

describe('prompt history', () => {
  it('persists across instances (runs), newest first, per project', async () => {
    await history().add('first', 1000);
    await history().add('second', 2000);
    await history('/work/other').add('elsewhere', 3000);
    expect(await history().recall()).toEqual(['second', 'first']);
    expect(await history('/work/other').recall()).toEqual(['elsewhere']);
    expect(history().file).toBe(join(root, '.yoke', 'history', '-work-app.jsonl'));
  });

  it('recall lists a repeated prompt once, at its latest use', async () => {
    const h = history();
    await h.add('npm test', 1);
    await h.add('fix it', 2);
    await h.add('npm test', 3);
    expect(await h.recall()).toEqual(['npm test', 'fix it']);
  });

  it('recalls the prompt typed last first, even when the clock was set back in between', async () => {
    // The machine's clock jumped back between two prompts: the newer one has the smaller stamp.
    await history().add('before the jump', Date.UTC(2026, 11, 1));
    await history().add('after the jump', Date.UTC(2020, 0, 1));
    expect(await history().recall()).toEqual(['after the jump', 'before the jump']);
    expect((await history().load()).map((entry) => entry.timestamp)).toEqual([
      Date.UTC(2020, 0, 1),
      Date.UTC(2026, 11, 1),
    ]);
  });

  it('keeps neither empty nor oversized prompts', async () => {
    const h = history();
    expect(await h.add('   ')).toBe(false);
    expect(await h.add('x'.repeat(MAX_ENTRY_CHARS + 1))).toBe(false);
    expect(await h.load()).toEqual([]);
  });

  it('concurrent writers lose no entry and tear no line', async () => {
    // 8 writers (as many Yoke processes) × 12 prompts, all in flight at once on libuv's threads.
    const writers = Array.from({ length: 8 }, () => history());
    // Longer than PIPE_BUF (4 KiB, the pipe's atomic size): regular-file appends are whole anyway.
    const long = 'y'.repeat(4500);
    await Promise.all(
      writers.flatMap((w, i) =>
        Array.from({ length: 12 }, (_, j) => w.add(`w${i} p${j} ${long}`, i * 1000 + j)),
      ),
    );
    const text = await readFile(history().file, 'utf8');
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(96);
    for (const line of lines) expect(JSON.parse(line).display).toMatch(/^w\d p\d+ y{4500}$/);
  });

  it('skips a line a crash cut short and keeps the rest', async () => {
    const h = history();
    await h.add('before', 1);
    await appendFile(h.file, '{"display":"half');
    await appendFile(h.file, '\n');
    await h.add('after', 2);
    expect(await h.recall()).toEqual(['after', 'before']);
  });

  it('stays bounded: rotates into one older file, and still reads both', async () => {
    const h = history();
    const entry = 'z'.repeat(10_000);
    const perFile = Math.ceil(ROTATE_BYTES / 10_040);
    for (let i = 0; i < perFile * 3; i++) await h.add(`${i} ${entry}`, i);
    await h.add('last', perFile * 3);
    const current = (await stat(h.file)).size;
    const older = (await stat(h.file.replace(/\.jsonl$/, '.1.jsonl'))).size;
    expect(current).toBeLessThan(ROTATE_BYTES);
    expect(older).toBeLessThan(ROTATE_BYTES + 11_000);
    const all = await h.load();
    expect(all[0]?.text).toBe('last');
    expect(all[1]?.text.startsWith(`${perFile * 3 - 1} `)).toBe(true);
    // The oldest third went with the first rotation.
    expect(all.some((e) => e.text.startsWith('0 '))).toBe(false);
  });
});

describe('Ctrl+R search', () => {
  const entries = [
    { text: 'run the migration tests', timestamp: 5 },
    { text: 'Refactor the parser', timestamp: 4 },
    { text: 'rename migrate() to upgrade()', timestamp: 3 },
    { text: 'run the migration tests', timestamp: 2 },
    { text: 'fix the README', timestamp: 1 },
  ];

  it('finds substrings case-insensitively, newest first, then fuzzy matches', () => {
    expect(searchEntries(entries, 'MIGRAT').map((m) => [m.text, m.kind, m.at])).toEqual([
      ['run the migration tests', 'substring', 8],
      ['rename migrate() to upgrade()', 'substring', 7],
    ]);
    expect(searchEntries(entries, 'rftp').map((m) => m.text)).toEqual(['Refactor the parser']);
    expect(searchEntries(entries, 'the').map((m) => m.text)).toEqual([
      'run the migration tests',
      'Refactor the parser',
      'fix the README',
    ]);
  });

  it('an empty query lists every distinct prompt', () => {
    expect(searchEntries(entries, '')).toHaveLength(4);
  });

  it('search reads the file once per load, not per keystroke', async () => {
    const h = history();
    await h.add('deploy to staging', 1);
    await h.load();
    await history().add('deploy to prod', 2); // another process
    expect((await h.search('deploy')).map((m) => m.text)).toEqual(['deploy to staging']);
    await h.load();
    expect((await h.search('deploy')).map((m) => m.text)).toEqual(['deploy to prod', 'deploy to staging']);
  });
});
