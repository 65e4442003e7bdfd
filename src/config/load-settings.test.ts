import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from './load-settings';

let root: string;
let cwd: string;
let env: Record<string, string>;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'yoke-settings-'));
  cwd = join(root, 'project');
  await mkdir(cwd, { recursive: true });
  env = {
    HOME: join(root, 'home'),
    YOKE_HOME: join(root, 'home', '.yoke'),
    CLAUDE_CONFIG_DIR: join(root, 'home', '.claude'),
    YOKE_MANAGED_SETTINGS: join(root, 'etc', 'managed-settings.json'),
  };
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function put(path: string, content: unknown): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const files = () => ({
  claudeUser: join(env.CLAUDE_CONFIG_DIR as string, 'settings.json'),
  yokeUser: join(env.YOKE_HOME as string, 'settings.json'),
  claudeProject: join(cwd, '.claude', 'settings.json'),
  yokeProject: join(cwd, '.yoke', 'settings.json'),
  claudeLocal: join(cwd, '.claude', 'settings.local.json'),
  yokeLocal: join(cwd, '.yoke', 'settings.local.json'),
  policy: env.YOKE_MANAGED_SETTINGS as string,
});

describe('loadSettings precedence', () => {
  it('loads nothing and reports nothing when no file exists', async () => {
    const loaded = await loadSettings({ cwd, env });
    expect(loaded).toEqual({ merged: {}, sources: [], errors: [], warnings: [], rules: [] });
  });

  it('ranks the Yoke file above the Claude file at the same level', async () => {
    const f = files();
    await put(f.claudeUser, { model: 'claude-model', cleanupPeriodDays: 5 });
    await put(f.yokeUser, { model: 'yoke-model' });
    const { merged } = await loadSettings({ cwd, env });
    expect(merged.model).toBe('yoke-model');
    expect(merged.cleanupPeriodDays).toBe(5);
  });

  it('ranks local over project over user, CLI over local and policy over all', async () => {
    const f = files();
    await put(f.yokeUser, {
      model: 'user',
      provider: 'user',
      baseUrl: 'user',
      apiKeyHelper: 'user',
      env: { A: 'user' },
    });
    await put(f.yokeProject, {
      model: 'project',
      provider: 'project',
      baseUrl: 'project',
      env: { B: 'project' },
    });
    await put(f.claudeLocal, { model: 'local', provider: 'local' });
    await put(f.policy, { model: 'policy', env: { A: 'policy' } });
    const { merged, sources } = await loadSettings({
      cwd,
      env,
      cliSettings: '{"model":"cli","provider":"cli"}',
    });
    expect(merged.model).toBe('policy');
    expect(merged.provider).toBe('cli');
    expect(merged.baseUrl).toBe('project');
    expect(merged.apiKeyHelper).toBe('user');
    expect(merged.env).toEqual({ A: 'policy', B: 'project' });
    expect(sources.map((s) => s.source)).toEqual([
      'userSettings',
      'projectSettings',
      'localSettings',
      'flagSettings',
      'policySettings',
    ]);
  });

  it('concatenates permission rules and tags each with its source', async () => {
    const f = files();
    await put(f.yokeUser, { permissions: { allow: ['Read', 'Bash(ls:*)'] } });
    await put(f.claudeProject, { permissions: { deny: ['Bash(rm *)'], allow: ['Read'] } });
    await put(f.policy, { permissions: { deny: ['WebFetch'] } });
    const loaded = await loadSettings({ cwd, env });
    expect(loaded.merged.permissions?.allow).toEqual(['Read', 'Bash(ls:*)']);
    expect(loaded.merged.permissions?.deny).toEqual(['Bash(rm *)', 'WebFetch']);
    expect(loaded.rules).toEqual([
      { rule: 'Read', behavior: 'allow', source: 'userSettings', path: f.yokeUser },
      { rule: 'Bash(ls:*)', behavior: 'allow', source: 'userSettings', path: f.yokeUser },
      { rule: 'Bash(rm *)', behavior: 'deny', source: 'projectSettings', path: f.claudeProject },
      { rule: 'Read', behavior: 'allow', source: 'projectSettings', path: f.claudeProject },
      { rule: 'WebFetch', behavior: 'deny', source: 'policySettings', path: f.policy },
    ]);
  });

  it('concatenates hooks per event across sources', async () => {
    const f = files();
    const group = (command: string) => ({ matcher: 'Bash', hooks: [{ type: 'command', command }] });
    await put(f.claudeUser, { hooks: { PreToolUse: [group('a')] } });
    await put(f.yokeLocal, { hooks: { PreToolUse: [group('b')], Stop: [{ hooks: ['c'] }] } });
    const { merged } = await loadSettings({ cwd, env });
    expect(merged.hooks?.PreToolUse?.map((g) => g.hooks[0]?.command)).toEqual(['a', 'b']);
    expect(merged.hooks?.Stop?.[0]?.hooks[0]).toEqual({ type: 'command', command: 'c' });
  });

  it('reads --settings from a path relative to cwd', async () => {
    await put(join(cwd, 'extra.json'), { model: 'from-file' });
    const loaded = await loadSettings({ cwd, env, cliSettings: 'extra.json' });
    expect(loaded.merged.model).toBe('from-file');
    expect(loaded.sources[0]).toMatchObject({ source: 'flagSettings', path: join(cwd, 'extra.json') });
  });

  it('reports a --settings path that does not exist', async () => {
    const loaded = await loadSettings({ cwd, env, cliSettings: 'missing.json' });
    expect(loaded.errors[0]?.message).toContain(`not found: ${join(cwd, 'missing.json')}`);
  });

  it('filters user, project and local with settingSources; CLI and policy always load', async () => {
    const f = files();
    await put(f.yokeUser, { env: { U: '1' } });
    await put(f.yokeProject, { env: { P: '1' } });
    await put(f.yokeLocal, { env: { L: '1' } });
    await put(f.policy, { env: { M: '1' } });
    const cliSettings = '{"env":{"C":"1"}}';
    const some = await loadSettings({ cwd, env, cliSettings, settingSources: ['user', 'local'] });
    expect(some.merged.env).toEqual({ U: '1', L: '1', C: '1', M: '1' });
    const none = await loadSettings({ cwd, env, cliSettings, settingSources: [] });
    expect(none.merged.env).toEqual({ C: '1', M: '1' });
  });

  it('loads managed drop-ins after the main policy file', async () => {
    const f = files();
    await put(f.policy, { model: 'main', permissions: { deny: ['Bash'] } });
    await put(join(dirname(f.policy), 'managed-settings.d', '10-extra.json'), { model: 'drop-in' });
    const { merged } = await loadSettings({ cwd, env });
    expect(merged.model).toBe('drop-in');
    expect(merged.permissions?.deny).toEqual(['Bash']);
  });

  it('keeps unknown keys and normalises known values', async () => {
    await put(files().yokeUser, {
      statusLine: { type: 'command', command: 'x' },
      permissions: { defaultMode: 'manual', futureKey: true },
      bashOutputMaxChars: 1_000_000,
      env: { N: 3 },
    });
    const { merged, errors } = await loadSettings({ cwd, env });
    expect(errors).toEqual([]);
    expect(merged).toMatchObject({
      statusLine: { type: 'command', command: 'x' },
      permissions: { defaultMode: 'default', futureKey: true },
      bashOutputMaxChars: 128_000,
      env: { N: '3' },
    });
  });

  it('lets policy restrict hooks to its own', async () => {
    const f = files();
    await put(f.yokeUser, { hooks: { Stop: [{ hooks: ['user-hook'] }] } });
    await put(f.policy, { allowManagedHooksOnly: true, hooks: { Stop: [{ hooks: ['policy-hook'] }] } });
    const { merged } = await loadSettings({ cwd, env });
    expect(merged.hooks?.Stop?.map((g) => g.hooks[0]?.command)).toEqual(['policy-hook']);
  });
});

describe('loadSettings with --managed-settings', () => {
  it("adds the host's policy settings above every other source, named by the flag", async () => {
    await put(files().policy, { model: 'policy-file' });
    const loaded = await loadSettings({
      cwd,
      env,
      cliSettings: '{"model":"cli","permissions":{"allow":["Bash"]}}',
      managedSettings: '{"model":"host","permissions":{"deny":["Bash(rm:*)"]}}',
    });
    expect(loaded.merged.model).toBe('host');
    expect(loaded.sources.at(-1)).toMatchObject({ source: 'policySettings' });
    expect(loaded.rules).toContainEqual({ rule: 'Bash(rm:*)', behavior: 'deny', source: 'policySettings' });
    const bad = await loadSettings({ cwd, env, managedSettings: '{"model": }' });
    expect(bad.errors[0]?.message).toContain('--managed-settings at line 1, column 11');
  });
});

describe('loadSettings with bad files', () => {
  it('reports a JSON syntax error with line and column and loads the other sources', async () => {
    const f = files();
    await put(f.yokeProject, '{\n  "model": "x",\n  "env": { "A": 1, }\n}');
    await put(f.yokeUser, { model: 'user' });
    const loaded = await loadSettings({ cwd, env });
    expect(loaded.merged.model).toBe('user');
    expect(loaded.errors).toHaveLength(1);
    expect(loaded.errors[0]?.file).toBe(f.yokeProject);
    expect(loaded.errors[0]?.message).toContain(f.yokeProject);
    expect(loaded.errors[0]?.message).toContain('line 3, column 20');
  });

  it('lists every problem with its file and key path, what was dropped, and keeps the valid keys', async () => {
    const f = files();
    await put(f.policy, {
      model: 42,
      permissions: { deny: ['Bash(rm *)', 7, 'Read(./.env)', false], defaultMode: 'yolo' },
    });
    await put(f.yokeUser, { model: 'user' });
    const loaded = await loadSettings({ cwd, env });
    expect(loaded.errors.map((e) => [e.file, e.keyPath])).toEqual([
      [f.policy, 'model'],
      [f.policy, 'permissions.defaultMode'],
      [f.policy, 'permissions.deny[1]'],
      [f.policy, 'permissions.deny[3]'],
    ]);
    expect(loaded.errors[2]?.message).toMatch(
      /managed-settings\.json: permissions\.deny\[1\]: .*expected string.*; dropped permissions\.deny\[1\], kept the rest of the file$/,
    );
    expect(loaded.merged.model).toBe('user');
    expect(loaded.merged.permissions?.deny).toEqual(['Bash(rm *)', 'Read(./.env)']);
  });

  it('drops a command hook without a command and keeps its siblings', async () => {
    await put(files().yokeUser, {
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command' }, { type: 'command', command: 'ok' }] }],
      },
    });
    const loaded = await loadSettings({ cwd, env });
    expect(loaded.errors[0]?.keyPath).toBe('hooks.PreToolUse[0].hooks[0].command');
    expect(loaded.errors[0]?.message).toContain(
      'dropped hooks.PreToolUse[0].hooks[0], kept the rest of the file',
    );
    expect(loaded.merged.hooks?.PreToolUse?.[0]?.hooks).toEqual([{ type: 'command', command: 'ok' }]);
  });

  it('reports a top level that is not an object', async () => {
    await put(files().yokeLocal, '[1, 2]');
    const loaded = await loadSettings({ cwd, env });
    expect(loaded.errors[0]?.message).toMatch(/top level must be a JSON object/);
    expect(loaded.sources).toEqual([]);
  });

  it('reports bad inline --settings JSON under the flag name', async () => {
    const loaded = await loadSettings({ cwd, env, cliSettings: '{"model": }' });
    expect(loaded.errors[0]?.message).toContain('--settings at line 1, column 11');
  });
});

describe('loadSettings: problems that lose a restriction', () => {
  it('marks a file that cannot be read as JSON, or as settings, as losing all it may restrict', async () => {
    const f = files();
    await put(f.claudeProject, '{ "permissions": { "deny": ["Read(./.env)",] } }');
    await put(f.yokeLocal, '"deny everything"');
    // A folder where the file should be: unreadable whatever the user's rights (CI runs as root).
    await mkdir(f.claudeUser, { recursive: true });
    const loaded = await loadSettings({ cwd, env });
    expect(loaded.errors.map((e) => [e.file, e.source, e.lostRestrictions])).toEqual([
      [f.claudeUser, 'userSettings', 'deny rules, ask rules and hooks'],
      [f.claudeProject, 'projectSettings', 'deny rules, ask rules and hooks'],
      [f.yokeLocal, 'localSettings', 'deny rules, ask rules and hooks'],
    ]);
  });

  it('marks a dropped deny or ask rule, hook or sandbox value, and nothing whose loss only asks more', async () => {
    const f = files();
    await put(f.yokeUser, {
      model: 42,
      permissions: { allow: [1], additionalDirectories: 'src', deny: ['Bash(rm:*)', { tool: 'Bash' }] },
    });
    await put(f.yokeProject, {
      permissions: { ask: 'Bash', defaultMode: 'plann', disableBypassPermissionsMode: true },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command' }] }] },
      sandbox: { enabled: 'yes' },
    });
    const loaded = await loadSettings({ cwd, env });
    const lost = Object.fromEntries(loaded.errors.map((e) => [e.keyPath, e.lostRestrictions ?? null]));
    expect(lost).toEqual({
      model: null,
      'permissions.allow[0]': null,
      'permissions.additionalDirectories': null,
      'permissions.deny[1]': 'deny rules',
      'permissions.ask': 'ask rules',
      'permissions.defaultMode': null,
      'permissions.disableBypassPermissionsMode': 'disableBypassPermissionsMode',
      'hooks.PreToolUse[0].hooks[0].command': 'hooks',
      'sandbox.enabled': 'sandbox settings',
    });
  });
});
