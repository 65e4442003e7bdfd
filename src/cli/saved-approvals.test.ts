import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ruleSaver } from './saved-approvals';

function folder() {
  const root = mkdtempSync(join(tmpdir(), 'yoke-saved-approvals-'));
  const cwd = join(root, 'project');
  mkdirSync(cwd);
  return { cwd, env: { HOME: join(root, 'home') } };
}

const read = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe('ruleSaver', () => {
  it("adds the rules to the folder's .yoke/settings.local.json, keeping what the file had", async () => {
    const { cwd, env } = folder();
    const file = join(cwd, '.yoke', 'settings.local.json');
    mkdirSync(join(cwd, '.yoke'));
    writeFileSync(
      file,
      JSON.stringify({ model: 'x', permissions: { allow: ['Read'], deny: ['Bash(rm:*)'] } }),
    );
    const lines: string[] = [];
    await ruleSaver(cwd, env, (line) => lines.push(line))(['Bash(npm test)', 'Read'], 'localSettings');
    expect(read(file)).toEqual({
      model: 'x',
      permissions: { allow: ['Read', 'Bash(npm test)'], deny: ['Bash(rm:*)'] },
    });
    expect(lines).toEqual([]);
  });

  it('user settings go to ~/.yoke/settings.json', async () => {
    const { cwd, env } = folder();
    await ruleSaver(cwd, env, () => {})(['WebFetch(domain:example.com)'], 'userSettings');
    expect(read(join(env.HOME, '.yoke', 'settings.json'))).toEqual({
      permissions: { allow: ['WebFetch(domain:example.com)'] },
    });
  });

  it('a file it cannot read is left alone, and the line says the rule holds for this session only', async () => {
    const { cwd, env } = folder();
    const file = join(cwd, '.yoke', 'settings.local.json');
    mkdirSync(join(cwd, '.yoke'));
    writeFileSync(file, '{ "permissions": ');
    const lines: string[] = [];
    await ruleSaver(cwd, env, (line) => lines.push(line))(['Bash(npm test)'], 'localSettings');
    expect(readFileSync(file, 'utf8')).toBe('{ "permissions": ');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`Could not save Bash(npm test) in ${file}`);
    expect(lines[0]).toContain('this session only');
  });
});
