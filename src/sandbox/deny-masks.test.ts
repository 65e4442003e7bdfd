import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolvePathPattern } from '../permissions/path-rules';
import { DenyMasks } from './deny-masks';

function project(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'yoke-masks-')));
  mkdirSync(join(root, 'app', 'config'), { recursive: true });
  mkdirSync(join(root, 'node_modules', 'pkg'), { recursive: true });
  writeFileSync(join(root, '.env'), 'A=1\n');
  writeFileSync(join(root, 'app', 'config', '.env'), 'B=2\n');
  writeFileSync(join(root, 'node_modules', 'pkg', '.env'), 'C=3\n');
  return root;
}

const envRule = (root: string) =>
  resolvePathPattern('**/.env', 'projectSettings', { projectRoot: root, cwd: root });

describe('deny masks', () => {
  it('finds every match of a glob below its folder, skipping node_modules', () => {
    const root = project();
    const masks = new DenyMasks();
    const found = masks
      .resolve([envRule(root)])
      .paths.map((p) => p.path)
      .sort();
    expect(found).toEqual([join(root, '.env'), join(root, 'app', 'config', '.env')]);
    rmSync(root, { recursive: true, force: true });
  });

  it('walks again only when a folder it read has changed', () => {
    const root = project();
    const masks = new DenyMasks();
    const app = join(root, 'app');
    const fixed = new Date('2020-01-01T00:00:00Z');
    utimesSync(app, fixed, fixed);
    masks.resolve([envRule(root)]);
    // A file added with the folder's mtime put back is not seen: the answer came from the cache.
    writeFileSync(join(app, '.env'), 'D=4\n');
    utimesSync(app, fixed, fixed);
    expect(masks.resolve([envRule(root)]).paths.map((p) => p.path)).not.toContain(join(app, '.env'));
    // As it really happens (the mtime moves), the next resolve finds it.
    const later = new Date('2021-01-01T00:00:00Z');
    utimesSync(app, later, later);
    expect(masks.resolve([envRule(root)]).paths.map((p) => p.path)).toContain(join(app, '.env'));
    rmSync(root, { recursive: true, force: true });
  });

  it('takes a literal path as it is, when it exists', () => {
    const root = project();
    const literal = resolvePathPattern(`//${root.slice(1)}/app/config`, 'userSettings', {
      projectRoot: root,
      cwd: root,
    });
    expect(new DenyMasks().resolve([literal]).paths).toEqual([
      { path: join(root, 'app', 'config'), kind: 'dir' },
    ]);
    rmSync(root, { recursive: true, force: true });
  });
});
