/** /permissions on real settings files in a temporary project and home. */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { trustFolder } from '../../config/project-trust';
import { commandText, createTestHost, type TestHost, writeJson } from '../test-host';

let host: TestHost;
let localFile: string;
let projectFile: string;
beforeEach(async () => {
  host = await createTestHost();
  localFile = join(host.cwd, '.yoke', 'settings.local.json');
  projectFile = join(host.cwd, '.yoke', 'settings.json');
  await writeJson(projectFile, { permissions: { deny: ['Bash(rm:*)'], allow: ['Bash(make)'] } });
  await writeJson(localFile, { model: 'sonnet', permissions: { allow: ['Bash(npm test)'] } });
});
afterEach(() => host.cleanup());

const textOf = (line: string) => commandText(host, line);
const json = async (path: string) => JSON.parse(await readFile(path, 'utf8'));

describe('/permissions list', () => {
  it('groups the rules by source, deny first, naming each file; flags and session rules too', async () => {
    host.rules.push({ toolName: 'WebFetch', behavior: 'allow', source: 'session' });
    const lines = (await textOf('/permissions')).split('\n');
    expect(lines[0]).toBe('Permission mode: default');
    const local = lines.indexOf('Local settings (yours, this project):');
    const project = lines.indexOf('Project settings (shared):');
    expect(local).toBeGreaterThan(0);
    expect(project).toBeGreaterThan(local);
    expect(lines[local + 1]).toBe(`  allow  Bash(npm test)  ${localFile}`);
    expect(lines[project + 1]).toBe(`  deny   Bash(rm:*)  ${projectFile}`);
    // An untrusted folder ignores the project's allow rules; the list says so.
    expect(lines[project + 2]).toBe(
      `  allow  Bash(make)  ${projectFile}  (ignored: this folder is not trusted)`,
    );
    expect(lines).toContain('This session ("always allow" answers):');
    expect(lines).toContain('  allow  WebFetch');
  });

  it('once the folder is trusted the project allow rule counts', async () => {
    await trustFolder(host.cwd, host.env);
    expect((await textOf('/permissions list')).split('\n')).toContain(`  allow  Bash(make)  ${projectFile}`);
  });
});

describe('/permissions add', () => {
  it('adds to the local settings file by default, keeping its other keys, and reloads the rules', async () => {
    expect(await textOf('/permissions add allow Bash(git status)')).toBe(
      `Added allow Bash(git status) to ${localFile}.`,
    );
    expect(await json(localFile)).toEqual({
      model: 'sonnet',
      permissions: { allow: ['Bash(npm test)', 'Bash(git status)'] },
    });
    expect(host.reloads).toBe(1);
  });

  it('writes the file of the scope asked for, creating it', async () => {
    const userFile = join(host.env.YOKE_HOME, 'settings.json');
    expect(await textOf('/permissions add deny "Read(./secrets/**)" --user')).toBe(
      `Added deny Read(./secrets/**) to ${userFile}.`,
    );
    expect(await json(userFile)).toEqual({ permissions: { deny: ['Read(./secrets/**)'] } });
  });

  it('warns that a project allow rule waits for trust', async () => {
    expect(await textOf('/permissions add allow Bash(ls) --project')).toContain(
      'It has no effect until this folder is trusted',
    );
  });

  it('refuses a malformed rule with the reason and touches no file', async () => {
    const before = await readFile(localFile, 'utf8');
    expect(await textOf('/permissions add deny Bash(rm -rf')).toBe(
      'Not added: "Bash(rm -rf" is not a valid rule: the closing ")" is missing. Write it as Tool or Tool(specifier).',
    );
    expect(await textOf('/permissions add allow bash(ls)')).toContain(
      'tool names are case-sensitive: "bash" should be "Bash"',
    );
    expect(await textOf('/permissions add maybe Bash(ls)')).toMatch(
      /^Say which kind of rule: allow, deny or ask/,
    );
    expect(await readFile(localFile, 'utf8')).toBe(before);
    expect(host.reloads).toBe(0);
  });

  it('does not add a rule twice', async () => {
    expect(await textOf('/permissions add allow Bash( npm test )')).toBe(
      `allow Bash(npm test) is already in ${localFile}.`,
    );
  });

  it('adding the same rule with another behaviour says both count and which wins; removing names both', async () => {
    const text = await textOf('/permissions add deny Bash(npm test)');
    expect(text).toBe(
      `Added deny Bash(npm test) to ${localFile}.\nAlso in your settings: allow Bash(npm test) (${localFile}); deny wins over ask, and ask over allow.`,
    );
    expect(await textOf('/permissions remove Bash(npm test)')).toBe(
      `Removed allow and deny Bash(npm test) from ${localFile}.`,
    );
  });

  it('refuses to rewrite a settings file it cannot parse, leaving it as it was', async () => {
    await writeFile(localFile, '{ "permissions": ');
    expect(await textOf('/permissions add allow Read')).toMatch(
      /^Not added: Cannot update .*settings\.local\.json/,
    );
    expect(await readFile(localFile, 'utf8')).toBe('{ "permissions": ');
  });
});

describe('/permissions remove', () => {
  it('removes the rule from the files that hold it', async () => {
    expect(await textOf('/permissions remove Bash(rm:*)')).toBe(
      `Removed deny Bash(rm:*) from ${projectFile}.`,
    );
    expect((await json(projectFile)).permissions).toEqual({ deny: [], allow: ['Bash(make)'] });
    expect(host.reloads).toBe(1);
  });

  it('with a scope leaves other files alone and says where the rule is', async () => {
    expect(await textOf('/permissions remove Bash(rm:*) --local')).toBe(
      `Bash(rm:*) is not in the local settings; it comes from Project settings (shared) (${projectFile}).`,
    );
    expect(await textOf('/permissions remove Bash(nothing)')).toBe(
      'Bash(nothing) is not in any settings file; /permissions lists the rules.',
    );
  });

  it('a settings file it cannot parse is left as it was while the others are edited', async () => {
    const userFile = join(host.env.YOKE_HOME, 'settings.json');
    await writeJson(userFile, { permissions: { deny: ['Bash(rm:*)'] } });
    await writeFile(projectFile, '{"permissions": {"deny": ["Bash(rm:*)"]}');
    const text = await textOf('/permissions remove Bash(rm:*)');
    expect(text).toBe(`Removed deny Bash(rm:*) from ${userFile}.`);
    expect(await readFile(projectFile, 'utf8')).toBe('{"permissions": {"deny": ["Bash(rm:*)"]}');
  });

  it('never edits managed policy', async () => {
    await writeJson(host.env.YOKE_MANAGED_SETTINGS, { permissions: { deny: ['WebFetch'] } });
    expect(await textOf('/permissions remove WebFetch')).toMatch(
      /^WebFetch is not in your settings files; it comes from Managed policy/,
    );
  });
});
