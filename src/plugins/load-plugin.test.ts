/** One plugin folder on disk: its layout, manifest overrides, `${CLAUDE_PLUGIN_ROOT}`, and what makes it unusable. */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${CLAUDE_PLUGIN_ROOT} is what plugin files contain, not a JS template.
import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPluginFolder, type PluginLoad } from './load-plugin';
import { samplePlugin, writeTree } from './test-support';
import type { LoadedPlugin } from './types';

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'yoke-plugin-')));
});
afterEach(() => rm(root, { recursive: true, force: true }));

const load = (dir: string) => loadPluginFolder({ root: dir, origin: { kind: 'session-dir' } });

function loaded(result: PluginLoad): LoadedPlugin {
  if (!result.ok) throw new Error(`expected the plugin to load: ${result.problem}`);
  return result.plugin;
}

function problem(result: PluginLoad): string {
  if (result.ok) throw new Error('expected the plugin to be skipped');
  return result.problem;
}

describe('loadPluginFolder', () => {
  it('finds the default layout and substitutes the root in hooks and MCP servers', async () => {
    const dir = join(root, 'fmt');
    await writeTree(dir, samplePlugin('formatter'));
    const plugin = loaded(await load(dir));
    expect(plugin).toMatchObject({
      pluginName: 'formatter',
      id: 'formatter',
      root: dir,
      version: '1.2.0',
      commandDirs: [join(dir, 'commands')],
      skillDirs: [join(dir, 'skills')],
      agentDirs: [join(dir, 'agents')],
      commandFiles: [],
      agentFiles: [],
    });
    expect(plugin.hooks?.PostToolUse?.[0]?.hooks[0]).toMatchObject({
      command: `${dir}/hooks/mark.sh`,
      pluginRoot: dir,
    });
    expect(plugin.mcpServers.get('tools')).toEqual({
      type: 'stdio',
      command: 'node',
      args: [`${dir}/server.mjs`],
      env: { CLAUDE_PLUGIN_ROOT: dir },
    });
  });

  it('without a manifest, takes the folder name and whatever parts it has', async () => {
    const dir = join(root, 'bare-bones');
    await writeTree(dir, { 'commands/a.md': 'A' });
    expect(loaded(await load(dir))).toMatchObject({
      pluginName: 'bare-bones',
      commandDirs: [join(dir, 'commands')],
      skillDirs: [],
      agentDirs: [],
      mcpServers: new Map(),
    });
  });

  it('adds the manifest paths to the defaults, files and folders, inline hooks and servers', async () => {
    const dir = join(root, 'custom');
    await writeTree(dir, {
      '.claude-plugin/plugin.json': {
        name: 'custom',
        commands: ['./extra/commands', './one/deploy.md'],
        agents: './team',
        skills: ['./more-skills', './lone-skill'],
        hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo stop' }] }] },
        mcpServers: { inline: { type: 'http', url: 'https://example.invalid/${CLAUDE_PLUGIN_ROOT}' } },
      },
      'commands/a.md': 'A',
      'extra/commands/b.md': 'B',
      'one/deploy.md': 'D',
      'team/x.md': 'X',
      'more-skills/s/SKILL.md': 'S',
      'lone-skill/SKILL.md': 'L',
    });
    const plugin = loaded(await load(dir));
    expect(plugin.commandDirs).toEqual([join(dir, 'commands'), join(dir, 'extra/commands')]);
    expect(plugin.commandFiles).toEqual([join(dir, 'one/deploy.md')]);
    expect(plugin.agentDirs).toEqual([join(dir, 'team')]);
    expect(plugin.skillDirs).toEqual([join(dir, 'more-skills')]);
    expect(plugin.skillFolders).toEqual([join(dir, 'lone-skill')]);
    expect(Object.keys(plugin.hooks ?? {})).toEqual(['Stop']);
    expect(plugin.mcpServers.get('inline')).toMatchObject({ url: `https://example.invalid/${dir}` });
  });

  it('a manifest naming the default hooks file again does not run its hooks twice', async () => {
    const dir = join(root, 'twice');
    await writeTree(dir, {
      ...samplePlugin('twice'),
      '.claude-plugin/plugin.json': { name: 'twice', hooks: './hooks/hooks.json' },
    });
    expect(loaded(await load(dir)).hooks?.PostToolUse).toHaveLength(1);
  });

  it('a root with shell characters is left to the CLAUDE_PLUGIN_ROOT variable in shell commands, spliced into exec forms', async () => {
    const dir = join(root, 'odd $(touch pwned) name');
    await writeTree(dir, {
      '.claude-plugin/plugin.json': { name: 'odd' },
      'hooks/hooks.json': {
        hooks: {
          Stop: [
            {
              hooks: [
                { type: 'command', command: '"${CLAUDE_PLUGIN_ROOT}/run.sh"' },
                { type: 'command', command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/run.js'] },
              ],
            },
          ],
        },
      },
    });
    const [shell, exec] = loaded(await load(dir)).hooks?.Stop?.[0]?.hooks ?? [];
    expect(shell).toMatchObject({ command: '"${CLAUDE_PLUGIN_ROOT}/run.sh"', pluginRoot: dir });
    expect(exec).toMatchObject({ command: 'node', args: [`${dir}/run.js`] });
  });

  it('a broken manifest is one line naming the file and the field', async () => {
    const dir = join(root, 'broken');
    await writeTree(dir, { '.claude-plugin/plugin.json': { name: 'Has Spaces', version: 2 } });
    expect(problem(await load(dir))).toBe(
      `${dir}/.claude-plugin/plugin.json: "name": must be 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit (and 1 more problem); plugin skipped`,
    );
    await writeTree(dir, { '.claude-plugin/plugin.json': '{ "name": "x", }' });
    expect(problem(await load(dir))).toMatch(
      /plugin\.json: invalid JSON at line 1, column \d+.*; plugin skipped$/,
    );
  });

  it('refuses manifest paths that leave the plugin, by name or through a link', async () => {
    const dir = join(root, 'escape');
    const outside = join(root, 'outside');
    await mkdir(outside);
    await writeTree(dir, { '.claude-plugin/plugin.json': { name: 'escape', commands: '../outside' } });
    expect(problem(await load(dir))).toBe(
      `${dir}/.claude-plugin/plugin.json: "commands": "../outside" must be a path inside the plugin starting with "./"; plugin skipped`,
    );
    await writeTree(dir, { '.claude-plugin/plugin.json': { name: 'escape', commands: './x/../../outside' } });
    expect(problem(await load(dir))).toContain('"./x/../../outside" leaves the plugin\'s folder');
    await symlink(outside, join(dir, 'linked'));
    await writeTree(dir, { '.claude-plugin/plugin.json': { name: 'escape', agents: './linked' } });
    expect(problem(await load(dir))).toContain(
      `"./linked" is a link to ${outside}, outside the plugin's folder`,
    );
    await writeTree(dir, { '.claude-plugin/plugin.json': { name: 'escape', hooks: './nope.json' } });
    expect(problem(await load(dir))).toContain('"hooks": "./nope.json" does not exist in the plugin');
  });

  it('a default folder that is a link out of the plugin is not used', async () => {
    const dir = join(root, 'linkdefault');
    const outside = join(root, 'elsewhere');
    await writeTree(outside, { 'x.md': 'X' });
    await writeTree(dir, { '.claude-plugin/plugin.json': { name: 'linkdefault' } });
    await symlink(outside, join(dir, 'commands'));
    expect(loaded(await load(dir)).commandDirs).toEqual([]);
  });

  it('a broken hooks file skips the plugin; a bad MCP entry drops only that server', async () => {
    const dir = join(root, 'parts');
    await writeTree(dir, {
      '.claude-plugin/plugin.json': { name: 'parts' },
      'hooks/hooks.json': { hooks: { Stop: [{ hooks: [{ type: 'command' }] }] } },
    });
    expect(problem(await load(dir))).toBe(
      `${dir}/hooks/hooks.json: "Stop[0].hooks[0].command": a command hook needs a "command" string; plugin skipped`,
    );
    await rm(join(dir, 'hooks'), { recursive: true });
    await writeTree(dir, {
      '.mcp.json': { mcpServers: { good: { command: 'node' }, bad: { command: '' } } },
    });
    const result = await load(dir);
    expect(loaded(result).mcpServers.has('good')).toBe(true);
    expect(result.ok && result.problems).toEqual([
      `${dir}/.mcp.json: MCP server "bad": "command" must be a non-empty string; that server is skipped`,
    ]);
  });

  it('a missing folder is one line', async () => {
    expect(problem(await load(join(root, 'gone')))).toBe(
      `plugin folder ${join(root, 'gone')} does not exist; skipped`,
    );
  });
});
