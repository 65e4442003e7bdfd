/**
 * `yoke plugin …` on real files and real git: a marketplace in a bare repository (one plugin in
 * the marketplace itself, one in a repository of its own), installs by id, git URL and folder,
 * enable/disable, a clean uninstall, and what a project's settings may not do untrusted.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { trustFolder } from '../../config/project-trust';
import { installedFile, marketplacesFile } from '../../plugins/store';
import { bareRepositoryOf, samplePlugin, writeTree } from '../../plugins/test-support';
import { runPluginCommand } from './plugin';
import { commandWorkspace } from './test-support';

let root: string;
let cwd: string;
let env: Record<string, string>;
let lines: string[];
beforeEach(async () => {
  ({ root, cwd, env } = await commandWorkspace('yoke-plugin-cmd-'));
  lines = [];
});
afterEach(() => rm(root, { recursive: true, force: true }));

const run = (...args: string[]) => runPluginCommand(args, { cwd, env, print: (line) => lines.push(line) });
const json = async (file: string) => JSON.parse(await readFile(file, 'utf8'));
const userSettings = () => json(join(root, '.yoke', 'settings.json'));

/** A marketplace repository: `formatter` inside it, `linter` in a repository of its own. */
async function marketplaceRepo(): Promise<string> {
  const linter = await bareRepositoryOf(
    await folder('linter-src', samplePlugin('linter')),
    join(root, 'linter.git'),
  );
  const dir = await folder('market-src', {
    '.claude-plugin/marketplace.json': {
      name: 'team-tools',
      owner: { name: 'Team' },
      plugins: [
        { name: 'formatter', source: './plugins/formatter', description: 'Formats code' },
        { name: 'linter', source: { source: 'url', url: linter } },
        { name: 'from-npm', source: { source: 'npm', package: 'x' } },
      ],
    },
    ...Object.fromEntries(
      Object.entries(samplePlugin('formatter')).map(([path, content]) => [
        `plugins/formatter/${path}`,
        content,
      ]),
    ),
  });
  return bareRepositoryOf(dir, join(root, 'market.git'));
}

async function folder(name: string, files: Record<string, string | object>): Promise<string> {
  const dir = join(root, name);
  await writeTree(dir, files);
  return dir;
}

const clonesDir = () => join(root, '.yoke/plugins/marketplaces');

describe('yoke plugin marketplace', () => {
  it('add clones a git marketplace, list shows its plugins, remove deletes the clone', async () => {
    const market = await marketplaceRepo();
    expect(await run('marketplace', 'add', market)).toBe(0);
    const clone = join(clonesDir(), 'team-tools');
    expect(lines).toEqual([
      `warning: ${clone}/.claude-plugin/marketplace.json: "plugins[2].source": source "npm" is not supported by Yoke (use "./folder", github, url or git-subdir); that plugin is not offered`,
      `Added marketplace "team-tools" (git ${market}) with 2 plugins.`,
      'Install from it with `yoke plugin install <plugin>@team-tools`.',
    ]);
    expect(existsSync(join(clone, '.claude-plugin/marketplace.json'))).toBe(true);

    lines = [];
    await run('marketplace', 'list');
    expect(lines).toEqual([`team-tools: git ${market}`, '  formatter, linter']);

    await expect(run('marketplace', 'add', market)).rejects.toThrow(
      `a marketplace named "team-tools" is already added (git ${market}); remove it first with \`yoke plugin marketplace remove team-tools\``,
    );
    // The refused second fetch left no clone behind.
    expect(await readdir(clonesDir())).toEqual(['team-tools']);

    lines = [];
    expect(await run('marketplace', 'remove', 'team-tools')).toBe(0);
    expect(lines).toEqual([`Removed marketplace "team-tools" (git ${market}).`]);
    expect(existsSync(clone)).toBe(false);
    expect(await json(marketplacesFile(env))).toEqual({ marketplaces: {} });
    await expect(run('marketplace', 'remove', 'team-tools')).rejects.toThrow(
      'no marketplace named "team-tools" is added',
    );
  });

  it('update fetches a git marketplace again and swaps in the new catalogue', async () => {
    const market = await marketplaceRepo();
    await run('marketplace', 'add', market);
    const src = join(root, 'market-src');
    await writeTree(src, {
      '.claude-plugin/marketplace.json': {
        name: 'team-tools',
        plugins: [
          { name: 'formatter', source: './plugins/formatter' },
          { name: 'extra', source: './plugins/formatter' },
        ],
      },
    });
    await promisify(execFile)('git', [
      '-C',
      src,
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@t',
      'commit',
      '-qam',
      'more',
    ]);
    await promisify(execFile)('git', ['-C', src, 'push', '-q', market, 'HEAD:main']);
    lines = [];
    expect(await run('marketplace', 'update')).toBe(0);
    expect(lines).toEqual(['Updated marketplace "team-tools": 2 plugins.']);
    lines = [];
    await run('marketplace', 'list');
    expect(lines).toEqual([`team-tools: git ${market}`, '  formatter, extra']);
    expect(await readdir(clonesDir())).toEqual(['team-tools']);
  });

  it('a local folder is used in place and never deleted', async () => {
    const dir = await folder('local-market', {
      '.claude-plugin/marketplace.json': { name: 'mine', owner: { name: 'me' }, plugins: [] },
    });
    await run('marketplace', 'add', './../local-market');
    expect(lines[0]).toBe(`Added marketplace "mine" (directory ${dir}) with 0 plugins.`);
    await run('marketplace', 'update', 'mine');
    expect(lines[2]).toBe('Marketplace "mine" is read in place; nothing to fetch.');
    await run('marketplace', 'remove', 'mine');
    expect(existsSync(join(dir, '.claude-plugin/marketplace.json'))).toBe(true);
  });

  it('refuses what it cannot fetch, in one line', async () => {
    await expect(run('marketplace', 'add', 'ext::sh -c touch% /tmp/x')).rejects.toThrow(
      /"ext::" URLs run a git remote helper/,
    );
    await expect(run('marketplace', 'add', 'https://example.com/marketplace.json')).rejects.toThrow(
      'remote marketplace.json URLs are not fetched by Yoke; give the git repository that holds it',
    );
    await expect(run('marketplace', 'add', './nowhere')).rejects.toThrow(
      `${join(cwd, 'nowhere')} does not exist`,
    );
    const empty = await folder('empty', { 'README.md': 'no catalogue' });
    await expect(run('marketplace', 'add', empty)).rejects.toThrow(
      `${empty}/.claude-plugin/marketplace.json not found: a marketplace needs .claude-plugin/marketplace.json`,
    );
  });
});

describe('yoke plugin install, list, enable, disable, remove', () => {
  it('installs from a marketplace, lists, disables, enables and uninstalls cleanly', async () => {
    await run('marketplace', 'add', await marketplaceRepo());
    lines = [];
    expect(await run('install', 'formatter@team-tools')).toBe(0);
    const installPath = join(root, '.yoke/plugins/cache/team-tools/formatter');
    expect(lines).toEqual([
      `Installed formatter@team-tools 1.2.0 into ${installPath}; enabled in ${join(root, '.yoke/settings.json')}.`,
      'It contributes: 1 command source, 1 skill folder, 1 agent source, hooks (PostToolUse), MCP servers (plugin_formatter_tools).',
    ]);
    expect(existsSync(join(installPath, 'commands/hello.md'))).toBe(true);
    expect(await userSettings()).toEqual({ enabledPlugins: { 'formatter@team-tools': true } });
    expect((await json(installedFile(env))).plugins['formatter@team-tools']).toMatchObject({
      name: 'formatter',
      marketplace: 'team-tools',
      source: 'team-tools:plugins/formatter',
      installPath,
      version: '1.2.0',
    });

    // The marketplace's other plugin lives in a repository of its own: cloned, without its .git.
    await run('install', 'linter@team-tools');
    const linter = join(root, '.yoke/plugins/cache/team-tools/linter');
    expect(existsSync(join(linter, 'skills/greeting/SKILL.md'))).toBe(true);
    expect(existsSync(join(linter, '.git'))).toBe(false);
    expect((await json(installedFile(env))).plugins['linter@team-tools'].commit).toMatch(/^[0-9a-f]{40}$/);

    lines = [];
    await run('disable', 'formatter');
    expect(lines).toEqual([`Disabled formatter@team-tools in ${join(root, '.yoke/settings.json')}.`]);
    lines = [];
    await run('list');
    expect(lines).toEqual([
      `formatter@team-tools 1.2.0: disabled, from team-tools:plugins/formatter`,
      '  1 command source, 1 skill folder, 1 agent source, hooks (PostToolUse), MCP servers (plugin_formatter_tools)',
      expect.stringMatching(/^linter@team-tools 1\.2\.0: enabled, from .*linter\.git$/),
      '  1 command source, 1 skill folder, 1 agent source, hooks (PostToolUse), MCP servers (plugin_linter_tools)',
    ]);
    await run('enable', 'formatter@team-tools', '--scope', 'local');
    expect(await json(join(cwd, '.yoke/settings.local.json'))).toEqual({
      enabledPlugins: { 'formatter@team-tools': true },
    });

    lines = [];
    expect(await run('remove', 'formatter@team-tools')).toBe(0);
    expect(lines).toEqual([
      `Removed formatter@team-tools (${installPath}).`,
      `warning: ${join(cwd, '.yoke/settings.local.json')} still names formatter@team-tools in enabledPlugins; sessions will say it is not installed until that entry goes`,
    ]);
    expect(existsSync(installPath)).toBe(false);
    expect(Object.keys((await json(installedFile(env))).plugins)).toEqual(['linter@team-tools']);
    expect(await userSettings()).toEqual({ enabledPlugins: { 'linter@team-tools': true } });
    await expect(run('remove', 'formatter')).rejects.toThrow(
      'plugin "formatter" is not installed (installed: linter@team-tools); see `yoke plugin list`',
    );
  });

  it('installs straight from a git URL or a folder, as name@direct', async () => {
    const repo = await bareRepositoryOf(
      await folder('lone-src', samplePlugin('lone')),
      join(root, 'lone.git'),
    );
    await run('install', `file://${repo}`);
    expect(lines[0]).toBe(
      `Installed lone@direct 1.2.0 into ${join(root, '.yoke/plugins/cache/direct/lone')}; enabled in ${join(root, '.yoke/settings.json')}.`,
    );
    const dir = await folder('dev-plugin', samplePlugin('devtool'));
    lines = [];
    await run('install', dir, '-s', 'project');
    expect(lines[0]).toBe(
      `Installed devtool@direct 1.2.0 into ${join(root, '.yoke/plugins/cache/direct/devtool')}; enabled in ${join(cwd, '.yoke/settings.json')}.`,
    );
  });

  it('a plugin that does not load is not installed, and nothing is left behind', async () => {
    const dir = await folder('broken', {
      '.claude-plugin/plugin.json': { name: 'broken', commands: '../../etc' },
    });
    await expect(run('install', dir)).rejects.toThrow(
      /^not installed: .*\/plugin\.json: "commands": "\.\.\/\.\.\/etc" must be a path inside the plugin starting with "\.\/"; plugin skipped$/,
    );
    expect(await readdir(join(root, '.yoke/plugins/cache/direct'))).toEqual([]);
    expect(existsSync(installedFile(env))).toBe(false);
    expect(existsSync(join(root, '.yoke/settings.json'))).toBe(false);
  });

  it("a project's marketplace is used only in a trusted folder, and only when the user runs install", async () => {
    const market = await marketplaceRepo();
    await writeTree(cwd, {
      '.claude/settings.json': {
        extraKnownMarketplaces: { 'team-tools': { source: { source: 'git', url: market } } },
      },
    });
    await expect(run('install', 'formatter@team-tools')).rejects.toThrow(
      `this folder is not trusted, so the marketplaces team-tools in ${join(cwd, '.claude/settings.json')} are ignored; run "yoke trust" to use them`,
    );
    expect(existsSync(clonesDir())).toBe(false);
    await trustFolder(cwd, env);
    expect(await run('install', 'formatter@team-tools')).toBe(0);
    expect(existsSync(join(clonesDir(), 'team-tools'))).toBe(true);
  });

  it("installs by an id Claude Code's settings use, from a marketplace Claude Code knows", async () => {
    const market = await folder('cc-market', {
      '.claude-plugin/marketplace.json': {
        name: 'cc-tools',
        plugins: [{ name: 'formatter', source: './formatter' }],
      },
      ...Object.fromEntries(
        Object.entries(samplePlugin('formatter')).map(([path, content]) => [`formatter/${path}`, content]),
      ),
    });
    await writeTree(join(root, '.claude/plugins'), {
      'known_marketplaces.json': {
        'cc-tools': { source: { source: 'directory', path: market }, installLocation: market },
      },
    });
    expect(await run('install', 'formatter@cc-tools')).toBe(0);
    expect(lines.at(-2)).toBe(
      `Installed formatter@cc-tools 1.2.0 into ${join(root, '.yoke/plugins/cache/cc-tools/formatter')}; enabled in ${join(root, '.yoke/settings.json')}.`,
    );
  });

  it('a skills collection whose catalogue entry lists its skill folders (strict: false) installs with them', async () => {
    const market = await folder('skills-repo', {
      '.claude-plugin/marketplace.json': {
        name: 'agent-skills',
        plugins: [
          {
            name: 'document-skills',
            description: 'Office documents',
            source: './',
            strict: false,
            skills: ['./document-skills/xlsx', './document-skills/pdf'],
          },
        ],
      },
      'document-skills/xlsx/SKILL.md': '---\nname: xlsx\ndescription: Spreadsheets\n---\nUse openpyxl.\n',
      'document-skills/pdf/SKILL.md': '---\nname: pdf\ndescription: PDF files\n---\nUse pypdf.\n',
    });
    await run('marketplace', 'add', market);
    lines = [];
    await run('install', 'document-skills@agent-skills');
    expect(lines).toEqual([
      `Installed document-skills@agent-skills into ${join(root, '.yoke/plugins/cache/agent-skills/document-skills')}; enabled in ${join(root, '.yoke/settings.json')}.`,
      'It contributes: 2 skill folders.',
    ]);
    const installed = join(root, '.yoke/plugins/cache/agent-skills/document-skills');
    expect(await json(join(installed, '.claude-plugin/plugin.json'))).toEqual({
      name: 'document-skills',
      description: 'Office documents',
      skills: ['./document-skills/xlsx', './document-skills/pdf'],
    });
    // The user's marketplace folder itself is not written to.
    expect(existsSync(join(market, '.claude-plugin/plugin.json'))).toBe(false);
  });

  it("an organisation's managed settings block marketplaces, or allow only some", async () => {
    const market = await marketplaceRepo();
    const managed = join(root, 'managed-settings.json');
    env.YOKE_MANAGED_SETTINGS = managed;
    await writeTree(root, {
      'managed-settings.json': { blockedMarketplaces: [{ source: 'git', url: market }] },
    });
    await expect(run('marketplace', 'add', market)).rejects.toThrow(
      `the marketplace git ${market} is blocked by your organisation's managed settings (blockedMarketplaces)`,
    );
    expect(existsSync(clonesDir())).toBe(false);

    await writeTree(root, {
      'managed-settings.json': { strictKnownMarketplaces: [{ source: 'github', repo: 'acme/approved' }] },
    });
    await expect(run('marketplace', 'add', market)).rejects.toThrow(
      `the marketplace git ${market} is not among those your organisation's managed settings allow (strictKnownMarketplaces)`,
    );
    await expect(run('install', await folder('lone', samplePlugin('lone')))).rejects.toThrow(
      "plugins installed without a marketplace are not allowed while your organisation's managed settings list strictKnownMarketplaces",
    );

    // Added before the policy: its plugins can no longer be installed from it.
    await writeTree(root, { 'managed-settings.json': {} });
    await run('marketplace', 'add', market);
    await writeTree(root, {
      'managed-settings.json': { blockedMarketplaces: [{ source: 'git', url: market }] },
    });
    await expect(run('install', 'formatter@team-tools')).rejects.toThrow(
      /is blocked by your organisation's managed settings/,
    );
  });

  it('usage errors name the problem and show the usage', async () => {
    await expect(run('install')).rejects.toThrow(
      /^missing required argument 'plugin'\nusage: yoke plugin install/,
    );
    await expect(run('enable', 'x', '--scope', 'global')).rejects.toThrow(
      /option '-s, --scope <scope>' argument 'global' is invalid/,
    );
    await expect(run('install', 'not-a-plugin')).rejects.toThrow(
      `"not-a-plugin" is not a plugin: give name@marketplace, a git URL or a plugin folder (no such folder: ${join(cwd, 'not-a-plugin')})`,
    );
  });
});
