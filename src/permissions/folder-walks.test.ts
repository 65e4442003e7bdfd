import { describe, expect, it } from 'vitest';
import type { AssistantMessage } from '../session/messages';
import { createCanUseTool } from './can-use-tool';
import { corpusRequest } from './corpus-test-support';
import { FolderWalks, MAX_WALK_ENTRIES } from './folder-walks';
import { type EntryKind, type PathFs, RealPaths } from './real-paths';
import { parseRule } from './rule-string';
import type { ToolPermissionContext } from './types';

/** An in-memory tree (`path → kind`, links as `path → '->target'`) that counts its listings. */
function memoryFs(tree: Record<string, string>): PathFs & { listings: number } {
  const kindOf = (value: string): EntryKind => (value.startsWith('->') ? 'symlink' : (value as EntryKind));
  const fs = {
    listings: 0,
    kind: (path: string) => (tree[path] === undefined ? undefined : kindOf(tree[path] as string)),
    readlink: (path: string) => tree[path]?.slice(2),
    list(dir: string) {
      fs.listings++;
      if (tree[dir] !== 'dir') return undefined;
      return Object.keys(tree)
        .filter((p) => p.startsWith(`${dir}/`) && !p.slice(dir.length + 1).includes('/'))
        .map((p) => ({ name: p.slice(dir.length + 1), kind: kindOf(tree[p] as string) }));
    },
  };
  return fs;
}

const TREE = {
  '/p': 'dir',
  '/p/src': 'dir',
  '/p/src/a.ts': 'file',
  '/p/src/.env': 'file',
  '/p/link': '->/out',
  '/out': 'dir',
  '/out/x': 'file',
};

describe('FolderWalks', () => {
  it('lists everything below a folder; links are followed only when asked', async () => {
    const paths = new RealPaths(memoryFs(TREE));
    const plain = await new FolderWalks().list('/p', false, paths);
    expect(plain.entries.map((e) => e.rel).sort()).toEqual(['link', 'src', 'src/.env', 'src/a.ts']);
    expect(plain.links).toEqual([]);
    const following = await new FolderWalks().list('/p', true, paths);
    expect(following.entries.find((e) => e.rel === 'link/x')).toEqual({
      rel: 'link/x',
      real: '/out/x',
      kind: 'file',
    });
    expect(following.links).toEqual([{ rel: 'link', target: '/out' }]);
  });

  it(`stops after ${MAX_WALK_ENTRIES} entries and says so`, async () => {
    const tree: Record<string, string> = { '/big': 'dir' };
    for (let i = 0; i <= MAX_WALK_ENTRIES; i++) tree[`/big/${i}`] = 'file';
    const listing = await new FolderWalks().list('/big', false, new RealPaths(memoryFs(tree)));
    expect(listing.complete).toBe(false);
    expect(listing.entries.length).toBe(MAX_WALK_ENTRIES);
  });

  it('keeps walks for one turn: a new turn, or none, walks again', async () => {
    const fs = memoryFs(TREE);
    const paths = new RealPaths(fs);
    const walks = new FolderWalks();
    walks.beginTurn('turn-1');
    await walks.list('/p', false, paths);
    const once = fs.listings;
    await walks.list('/p', false, paths);
    expect(fs.listings).toBe(once);
    walks.beginTurn('turn-2');
    await walks.list('/p', false, paths);
    expect(fs.listings).toBe(2 * once);
  });
});

describe('the pipeline caches walks per model reply', () => {
  const turn = (uuid: string) => ({ uuid }) as AssistantMessage;

  it('walks a folder once for the read-only calls of one reply, again after a call that may write', async () => {
    const fs = memoryFs(TREE);
    const canUseTool = createCanUseTool({ home: '/home/u', fs });
    const permissionContext: ToolPermissionContext = {
      mode: 'default',
      rules: [parseRule('Read(*.key)', 'deny', 'projectSettings')].filter((r) => r !== undefined),
      additionalDirectories: [],
    };
    const call = (command: string, isReadOnly: boolean, message: AssistantMessage) =>
      canUseTool(
        corpusRequest(
          'Bash',
          { command },
          { permissionContext, projectRoot: '/p' },
          { isReadOnly, assistantMessage: message },
        ),
      );
    expect((await call('grep -r x src', true, turn('a'))).behavior).toBe('allow');
    const first = fs.listings;
    await call('grep -r y src', true, turn('a'));
    expect(fs.listings).toBe(first);
    await call('touch src/new', false, turn('a'));
    await call('grep -r y src', true, turn('a'));
    expect(fs.listings).toBeGreaterThan(first);
    const second = fs.listings;
    await call('grep -r y src', true, turn('b'));
    expect(fs.listings).toBeGreaterThan(second);
  });
});
