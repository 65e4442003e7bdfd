import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editSettingsFile } from './edit-settings';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'yoke-edit-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const addAllow = (rule: string) => (json: Record<string, unknown>) => {
  const permissions = (json.permissions ?? {}) as { allow?: string[] };
  return { ...json, permissions: { ...permissions, allow: [...(permissions.allow ?? []), rule] } };
};

describe('editSettingsFile', () => {
  it('keeps unknown keys and writes 2-space JSON', async () => {
    const path = join(dir, 'settings.local.json');
    await writeFile(path, JSON.stringify({ theme: 'dark', permissions: { allow: ['Read'], extra: 1 } }), {
      mode: 0o600,
    });
    await editSettingsFile(path, addAllow('Bash(npm test)'));
    const text = await readFile(path, 'utf8');
    expect(JSON.parse(text)).toEqual({
      theme: 'dark',
      permissions: { allow: ['Read', 'Bash(npm test)'], extra: 1 },
    });
    expect(text).toContain('\n  "theme": "dark"');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['settings.local.json']);
  });

  it('creates a missing file and its folder', async () => {
    const path = join(dir, 'new', '.yoke', 'settings.local.json');
    await editSettingsFile(path, addAllow('Read'));
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ permissions: { allow: ['Read'] } });
  });

  it('refuses to overwrite a file it cannot parse', async () => {
    const path = join(dir, 'settings.json');
    await writeFile(path, '{"a": 1,,}');
    await expect(editSettingsFile(path, addAllow('Read'))).rejects.toThrow(/line 1, column 9/);
    expect(await readFile(path, 'utf8')).toBe('{"a": 1,,}');
  });
});
