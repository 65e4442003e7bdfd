/** `yoke permissions list/remove` on real settings files in a temporary project and home. */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPermissionsList, runPermissionsRemove } from './permissions';

let root: string;
let cwd: string;
let env: Record<string, string>;

async function writeJson(path: string, value: unknown) {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, JSON.stringify(value, null, 2));
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'yoke-perms-'));
  cwd = join(root, 'proj');
  env = {
    HOME: join(root, 'home'),
    YOKE_HOME: join(root, 'home', '.yoke'),
    YOKE_MANAGED_SETTINGS: join(root, 'managed.json'),
  };
  await writeJson(join(cwd, '.yoke', 'settings.json'), { permissions: { deny: ['Bash(rm:*)'] } });
  await writeJson(join(cwd, '.yoke', 'settings.local.json'), {
    model: 'sonnet',
    permissions: { allow: ['Bash(npm test)', 'Read'] },
  });
});
afterEach(async () => rm(root, { recursive: true, force: true }));

describe('yoke permissions', () => {
  it('lists every rule with behaviour, source and file', async () => {
    const lines: string[] = [];
    await runPermissionsList({ cwd, env, print: (line) => lines.push(line) });
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^deny\s+Bash\(rm:\*\)\s+projectSettings\s+.*\.yoke\/settings\.json$/);
    expect(lines[1]).toMatch(/^allow\s+Bash\(npm test\)\s+localSettings\s+.*settings\.local\.json$/);
  });

  it('marks project allow rules an untrusted folder ignores', async () => {
    await writeJson(join(cwd, '.yoke', 'settings.json'), { permissions: { allow: ['Bash(make)'] } });
    const lines: string[] = [];
    await runPermissionsList({ cwd, env, print: (line) => lines.push(line) });
    expect(lines.find((l) => l.includes('Bash(make)'))).toMatch(
      /projectSettings .*\(ignored: this folder is not trusted; run "yoke trust"\)$/,
    );
    expect(lines.find((l) => l.includes('Bash(npm test)'))).not.toContain('ignored');
  });

  it('removes a rule from the local file and keeps everything else', async () => {
    const changed = await runPermissionsRemove({ cwd, env, rule: 'Bash( npm test )' });
    const path = join(cwd, '.yoke', 'settings.local.json');
    expect(changed).toEqual([path]);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({
      model: 'sonnet',
      permissions: { allow: ['Read'] },
    });
  });

  it('refuses a rule that lives elsewhere, saying where', async () => {
    await expect(runPermissionsRemove({ cwd, env, rule: 'Bash(rm:*)' })).rejects.toThrow(
      /not in a local settings file; it comes from projectSettings \(.*\.yoke\/settings\.json\)/,
    );
    await expect(runPermissionsRemove({ cwd, env, rule: 'Write' })).rejects.toThrow(
      /not in any settings file/,
    );
    await expect(runPermissionsRemove({ cwd, env, rule: 'Bash(' })).rejects.toThrow(/not a permission rule/);
  });

  it('names the file it could not read instead of saying the rule is nowhere, and leaves it as it was', async () => {
    const path = join(cwd, '.yoke', 'settings.local.json');
    const broken = '{\n  "permissions": {"allow": ["Bash(ls)",]}\n}\n';
    await writeFile(path, broken);
    // Before: `"Bash(ls)" is not in any settings file`, while the rule sat in the broken file.
    await expect(runPermissionsRemove({ cwd, env, rule: 'Bash(ls)' })).rejects.toThrow(
      `"Bash(ls)" is not in any settings file Yoke could read, and nothing was changed: Invalid JSON in settings ${path} at line 2, column 40: a comma before ']'`,
    );
    expect(await readFile(path, 'utf8')).toBe(broken);
  });
});
