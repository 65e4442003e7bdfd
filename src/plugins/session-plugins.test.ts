/** Which plugins a session gets, from settings as users write them, and what each contributes. */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SettingsSource } from '../config/settings-merge';
import type { Settings } from '../config/settings-schema';
import { sessionPlugins, withPluginHooks } from './session-plugins';
import { writeInstalled, writeMarketplaces } from './store';
import { samplePlugin, writeTree } from './test-support';

let root: string;
let env: Record<string, string>;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'yoke-session-plugins-')));
  env = { HOME: root, YOKE_HOME: join(root, '.yoke'), PATH: process.env.PATH ?? '' };
});
afterEach(() => rm(root, { recursive: true, force: true }));

const user = (settings: Settings): SettingsSource => ({
  source: 'userSettings',
  path: join(root, 'user.json'),
  settings,
});
const project = (settings: Settings): SettingsSource => ({
  source: 'projectSettings',
  path: join(root, 'proj/.claude/settings.json'),
  settings,
});

/** Installs `names` (from `samplePlugin`) as `<name>@team` by writing the store directly. */
async function installed(...names: string[]): Promise<void> {
  const plugins: Record<string, object> = {};
  for (const name of names) {
    const installPath = join(root, '.yoke/plugins/cache/team', name);
    await writeTree(installPath, samplePlugin(name));
    plugins[`${name}@team`] = { name, marketplace: 'team', source: 'test', installPath, installedAt: 'now' };
  }
  await writeInstalled(env, { plugins } as never);
}

const load = (
  sources: SettingsSource[],
  extra: { trusted?: boolean; pluginDirs?: string[]; strictMcpConfig?: boolean } = {},
) => sessionPlugins({ cwd: root, env, settingsSources: sources, trusted: extra.trusted ?? false, ...extra });

describe('sessionPlugins', () => {
  it('loads what the user enabled; hooks, MCP servers and init entries follow', async () => {
    await installed('formatter', 'linter');
    const result = await load([user({ enabledPlugins: { 'formatter@team': true, 'linter@team': false } })]);
    expect(result.problems).toEqual([]);
    expect(result.plugins.map((p) => p.id)).toEqual(['formatter@team']);
    const root0 = join(root, '.yoke/plugins/cache/team/formatter');
    expect(result.initPlugins).toEqual([{ name: 'formatter', path: root0, version: '1.2.0' }]);
    expect(result.mcpServers.map((s) => [s.name, s.source])).toEqual([['plugin_formatter_tools', 'plugin']]);
    expect(result.hooks?.PostToolUse?.[0]?.hooks[0]).toMatchObject({
      command: `${root0}/hooks/mark.sh`,
      pluginRoot: root0,
    });
    // The settings' own hooks keep their place; the plugin's follow.
    const own = { PostToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'mine' }] }] };
    expect(withPluginHooks(own, result)?.PostToolUse?.map((group) => group.matcher)).toEqual([
      'Edit',
      'Bash',
    ]);
  });

  it("a project's enabledPlugins count only in a trusted folder", async () => {
    await installed('formatter');
    const sources = [project({ enabledPlugins: { 'formatter@team': true } })];
    const untrusted = await load(sources);
    expect(untrusted.plugins).toEqual([]);
    expect(untrusted.problems).toEqual([
      `this folder is not trusted, so the plugins its project settings enable are not loaded: formatter@team (in ${join(root, 'proj/.claude/settings.json')}); run "yoke trust" to load them`,
    ]);
    expect((await load(sources, { trusted: true })).plugins.map((p) => p.id)).toEqual(['formatter@team']);
  });

  it('a later source turns off what an earlier one turned on', async () => {
    await installed('formatter');
    const result = await load(
      [
        user({ enabledPlugins: { 'formatter@team': true } }),
        project({ enabledPlugins: { 'formatter@team': false } }),
      ],
      { trusted: true },
    );
    expect(result.plugins).toEqual([]);
  });

  it('enabled but not installed is one line with the command that installs it; nothing is fetched', async () => {
    const result = await load([user({ enabledPlugins: { 'ghost@team': true, oops: true } })]);
    expect(result.problems).toEqual([
      `plugin "ghost@team" is enabled in ${join(root, 'user.json')} but not installed; run \`yoke plugin install ghost@team\` to install it`,
      `${join(root, 'user.json')}: "enabledPlugins.oops": expected "name@marketplace"; ignored`,
    ]);
  });

  it('a broken plugin is reported once and skipped; the others load; --plugin-dir wins a name clash', async () => {
    await installed('formatter', 'linter');
    await writeTree(join(root, '.yoke/plugins/cache/team/linter'), {
      '.claude-plugin/plugin.json': '{"name": 1}',
    });
    const dev = join(root, 'dev');
    await writeTree(dev, samplePlugin('formatter'));
    const result = await load([user({ enabledPlugins: { 'formatter@team': true, 'linter@team': true } })], {
      pluginDirs: [dev],
    });
    expect(result.plugins.map((p) => [p.id, p.root])).toEqual([['formatter', dev]]);
    expect(result.problems).toEqual([
      `plugin "formatter@team" (${join(root, '.yoke/plugins/cache/team/formatter')}) has the same name as "formatter" (${dev}); only the first is loaded`,
      `${join(root, '.yoke/plugins/cache/team/linter/.claude-plugin/plugin.json')}: "name": Invalid input: expected string, received number; plugin skipped`,
    ]);
  });

  it("a plugin from a marketplace the organisation's policy blocks is not loaded", async () => {
    await installed('formatter');
    await writeMarketplaces(env, {
      marketplaces: {
        team: { source: { source: 'github', repo: 'team/plugins' }, installLocation: root, addedAt: 'now' },
      },
    });
    const policy: SettingsSource = {
      source: 'policySettings',
      path: '/etc/yoke/managed-settings.json',
      settings: { blockedMarketplaces: [{ source: 'github', repo: 'Team/Plugins' }] },
    };
    const result = await load([user({ enabledPlugins: { 'formatter@team': true } }), policy]);
    expect(result.plugins).toEqual([]);
    expect(result.problems).toEqual([
      `plugin "formatter@team" is not loaded: the marketplace github team/plugins is blocked by your organisation's managed settings (blockedMarketplaces)`,
    ]);
    // A user's own file cannot set the policy.
    const fromUser = await load([
      user({
        enabledPlugins: { 'formatter@team': true },
        blockedMarketplaces: [{ source: 'github', repo: 'team/plugins' }],
      }),
    ]);
    expect(fromUser.plugins.map((p) => p.id)).toEqual(['formatter@team']);
  });

  it('disableAllHooks turns plugin hooks off; --strict-mcp-config leaves their servers out', async () => {
    await installed('formatter');
    const on = { enabledPlugins: { 'formatter@team': true } };
    expect((await load([user({ ...on, disableAllHooks: true })])).hooks).toBeUndefined();
    expect((await load([user(on)], { strictMcpConfig: true })).mcpServers).toEqual([]);
  });

  it('nothing is read when no flag or settings file names plugins', async () => {
    await writeTree(join(root, '.yoke/plugins'), { 'installed.json': 'not json' });
    expect(await load([user({ model: 'x' })])).toEqual({
      plugins: [],
      problems: [],
      hooks: undefined,
      mcpServers: [],
      initPlugins: [],
    });
  });
});
