// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${CLAUDE_PLUGIN_ROOT} is what plugin files contain, not a JS template.
/**
 * Plugins through the built CLI, as a user gets one: a plugin in a git repository (a local bare
 * repository) is installed with `yoke plugin install`, its hook fires in a `-p` run (a marker file
 * proves it, written with the CLAUDE_PLUGIN_ROOT the hook was given), the model calls a tool of
 * its MCP server (a script inside the plugin, started through `${CLAUDE_PLUGIN_ROOT}`), and
 * `yoke plugin remove` leaves nothing behind. `--plugin-dir` loads a folder for one run; a broken
 * plugin is said once and the rest still load.
 */
import { existsSync } from 'node:fs';
import { readFile, symlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { query, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { bareRepositoryOf, writeTree } from '../../src/plugins/test-support';
import { sdkEnv, tempProject, YOKE_BIN } from './helpers';
import { useWorkspace } from './workspace';

const FIXTURE = resolve(import.meta.dirname, '../fixtures/mcp/fixture-server.mjs');
const ws = useWorkspace();

/** A plugin with a PostToolUse hook on Bash, an MCP server, a command and a skill. */
function markerKit(name: string): Record<string, string | object> {
  return {
    '.claude-plugin/plugin.json': { name, version: '0.3.0' },
    'hooks/hooks.json': {
      hooks: {
        PostToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: 'sh "${CLAUDE_PLUGIN_ROOT}/hooks/mark.sh"' }],
          },
        ],
      },
    },
    'hooks/mark.sh': 'printf "%s" "$CLAUDE_PLUGIN_ROOT" > "$CLAUDE_PROJECT_DIR/hook-fired"\n',
    // The plugin's own server script: the shared test fixture, which creates `ready` once listed.
    'server.mjs': `import ${JSON.stringify(FIXTURE)};\n`,
    '.mcp.json': {
      mcpServers: {
        tools: {
          command: process.execPath,
          args: ['${CLAUDE_PLUGIN_ROOT}/server.mjs', '--ready', '${CLAUDE_PLUGIN_ROOT}/ready'],
        },
      },
    },
    'commands/hello.md': '---\ndescription: Say hello\n---\nSay hello to $ARGUMENTS.\n',
    'skills/greeting/SKILL.md': '---\nname: greeting\ndescription: Greets people\n---\nGreet warmly.\n',
  };
}

type Frame = { type: string; subtype?: string; [key: string]: unknown };
const framesOf = (stdout: string): Frame[] =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Frame);

describe('plugins', () => {
  it('a plugin from a git repository installs, contributes a hook and an MCP server, and uninstalls cleanly', async () => {
    const scratch = await tempProject('yoke-plugin-src-');
    await writeTree(join(scratch, 'src'), markerKit('marker-kit'));
    const bare = await bareRepositoryOf(join(scratch, 'src'), join(scratch, 'marker-kit.git'));

    const install = await ws.yoke(['plugin', 'install', `file://${bare}`]);
    const root = join(ws.home, 'plugins/cache/direct/marker-kit');
    expect(install).toEqual({
      code: 0,
      stdout: [
        `Installed marker-kit@direct 0.3.0 into ${root}; enabled in ${join(ws.home, 'settings.json')}.`,
        'It contributes: 1 command source, 1 skill folder, hooks (PostToolUse), MCP servers (plugin_marker-kit_tools).',
        '',
      ].join('\n'),
      stderr: '',
    });

    const echo = 'mcp__plugin_marker-kit_tools__echo';
    ws.server.reset([
      {
        reply: {
          content: [
            {
              type: 'tool_use',
              id: 'b1',
              name: 'Bash',
              input: { command: `until [ -f '${root}/ready' ]; do sleep 0.05; done; echo up` },
            },
          ],
        },
      },
      {
        match: { hasTool: echo },
        reply: { content: [{ type: 'tool_use', id: 'm1', name: echo, input: { text: 'hi' } }] },
      },
      { match: { lastToolResultContains: 'echo: hi' }, reply: { content: [{ type: 'text', text: 'done' }] } },
    ]);
    const run = await ws.yoke([
      '-p',
      'go',
      '--output-format',
      'stream-json',
      '--verbose',
      '--allowedTools',
      'Bash,mcp__plugin_marker-kit_tools',
    ]);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const frames = framesOf(run.stdout);
    const init = frames.find((f) => f.type === 'system' && f.subtype === 'init');
    expect(init?.plugins).toEqual([{ name: 'marker-kit', path: root, version: '0.3.0' }]);
    expect(init?.mcp_servers).toEqual([
      { name: 'plugin_marker-kit_tools', status: 'pending', source: 'plugin' },
    ]);
    expect(frames.at(-1)).toMatchObject({ type: 'result', result: 'done', is_error: false });
    // The hook ran after Bash, with the plugin's folder in CLAUDE_PLUGIN_ROOT.
    await expect(readFile(join(ws.cwd, 'hook-fired'), 'utf8')).resolves.toBe(root);

    const remove = await ws.yoke(['plugin', 'remove', 'marker-kit']);
    expect(remove).toEqual({ code: 0, stdout: `Removed marker-kit@direct (${root}).\n`, stderr: '' });
    expect(existsSync(root)).toBe(false);
    expect(JSON.parse(await readFile(join(ws.home, 'plugins/installed.json'), 'utf8'))).toEqual({
      plugins: {},
    });
    expect(JSON.parse(await readFile(join(ws.home, 'settings.json'), 'utf8'))).toEqual({});

    ws.answer('plain');
    const after = await ws.yoke(['-p', 'go', '--output-format', 'stream-json', '--verbose']);
    expect(after.stderr).toBe('');
    expect(framesOf(after.stdout).find((f) => f.subtype === 'init')?.plugins).toEqual([]);
  });

  it('--plugin-dir loads a folder for one run; a broken plugin is said once and skipped', async () => {
    const scratch = await tempProject('yoke-plugin-dirs-');
    await writeTree(join(scratch, 'good'), markerKit('dev-kit'));
    await writeTree(join(scratch, 'broken'), {
      '.claude-plugin/plugin.json': { name: 'broken', skills: '/etc' },
    });
    ws.server.reset([
      { reply: { content: [{ type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'echo hi' } }] } },
      { reply: { content: [{ type: 'text', text: 'ok' }] } },
    ]);
    const run = await ws.yoke([
      '-p',
      'go',
      '--allowedTools',
      'Bash',
      '--plugin-dir',
      join(scratch, 'broken'),
      '--plugin-dir',
      join(scratch, 'good'),
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('ok\n');
    const line = `${join(scratch, 'broken/.claude-plugin/plugin.json')}: "skills": "/etc" must be a path inside the plugin starting with "./"; plugin skipped`;
    expect(run.stderr.split('\n').filter((l) => l.includes(line))).toHaveLength(1);
    await expect(readFile(join(ws.cwd, 'hook-fired'), 'utf8')).resolves.toBe(join(scratch, 'good'));
  });

  it("a plugin's command, skill and agent folders load: /plugin:command expands, init lists them", async () => {
    const scratch = await tempProject('yoke-plugin-parts-');
    await writeTree(join(scratch, 'kit'), {
      ...markerKit('dev-kit'),
      'agents/reviewer.md':
        '---\nname: reviewer\ndescription: Reviews a change\ntools: Read\n---\nReview it.\n',
    });
    ws.server.reset([{ reply: { content: [{ type: 'text', text: 'hello sent' }] } }]);
    const run = await ws.yoke([
      '-p',
      '/dev-kit:hello Ada',
      '--output-format',
      'stream-json',
      '--verbose',
      '--plugin-dir',
      join(scratch, 'kit'),
    ]);
    expect(run.code).toBe(0);
    const init = framesOf(run.stdout).find((f) => f.type === 'system' && f.subtype === 'init') as Frame;
    expect(init.slash_commands).toContain('dev-kit:hello');
    expect(init.skills).toContain('dev-kit:greeting');
    expect(init.agents).toContain('dev-kit:reviewer');
    // The command's body, with its argument, is what the model was sent.
    expect(JSON.stringify(ws.server.requests[0]?.body)).toContain('Say hello to Ada.');
  });

  it('single command files, skill folders and agent files a manifest lists load; a listed link out of the plugin is refused', async () => {
    const scratch = await tempProject('yoke-plugin-listed-');
    await writeTree(join(scratch, 'listed'), {
      '.claude-plugin/plugin.json': {
        name: 'listed',
        commands: ['./extra/deploy.md'],
        skills: ['./lone'],
        agents: ['./team/reviewer.md'],
      },
      'extra/deploy.md': '---\ndescription: Deploy somewhere\n---\nDeploy to $ARGUMENTS.\n',
      'lone/SKILL.md': '---\nname: lone\ndescription: A skill on its own\n---\nBe alone.\n',
      'team/reviewer.md': '---\nname: reviewer\ndescription: Reviews a change\n---\nReview it.\n',
    });
    await writeTree(scratch, { 'outside/secret.md': 'SECRET FROM OUTSIDE\n' });
    await writeTree(join(scratch, 'escape'), {
      '.claude-plugin/plugin.json': { name: 'escape', commands: ['./leak.md'] },
    });
    await symlink(join(scratch, 'outside/secret.md'), join(scratch, 'escape/leak.md'));
    // Calibration: the link does reach the outside file, whose text would be the command's body.
    await expect(readFile(join(scratch, 'escape/leak.md'), 'utf8')).resolves.toBe('SECRET FROM OUTSIDE\n');

    ws.server.reset([{ reply: { content: [{ type: 'text', text: 'deployed' }] } }]);
    const run = await ws.yoke([
      '-p',
      '/listed:deploy prod',
      '--output-format',
      'stream-json',
      '--verbose',
      '--plugin-dir',
      join(scratch, 'listed'),
      '--plugin-dir',
      join(scratch, 'escape'),
    ]);
    expect(run.code).toBe(0);
    const init = framesOf(run.stdout).find((f) => f.type === 'system' && f.subtype === 'init') as Frame;
    expect(init.slash_commands).toContain('listed:deploy');
    expect(init.skills).toContain('listed:lone');
    expect(init.agents).toContain('listed:reviewer');
    expect(JSON.stringify(ws.server.requests[0]?.body)).toContain('Deploy to prod.');
    const refusal = `${join(scratch, 'escape/.claude-plugin/plugin.json')}: "commands": "./leak.md" is a link to ${join(scratch, 'outside/secret.md')}, outside the plugin's folder; plugin skipped`;
    expect(run.stderr.split('\n').filter((line) => line.includes(refusal))).toHaveLength(1);
    expect(JSON.stringify(ws.server.requests)).not.toContain('SECRET FROM OUTSIDE');
  });

  it("a project's settings never install a plugin: untrusted they are ignored, trusted they name the install command", async () => {
    const cwd = await tempProject();
    const scratch = await tempProject('yoke-plugin-market-');
    await writeTree(join(scratch, 'src'), {
      '.claude-plugin/marketplace.json': { name: 'team', plugins: [{ name: 'kit', source: './kit' }] },
      ...Object.fromEntries(
        Object.entries(markerKit('kit')).map(([path, content]) => [`kit/${path}`, content]),
      ),
    });
    const bare = await bareRepositoryOf(join(scratch, 'src'), join(scratch, 'team.git'));
    const settings = join(cwd, '.claude/settings.json');
    await writeTree(cwd, {
      '.claude/settings.json': {
        extraKnownMarketplaces: { team: { source: { source: 'git', url: bare } } },
        enabledPlugins: { 'kit@team': true },
      },
    });
    ws.answer('ok');
    const untrusted = await ws.yoke(['-p', 'go'], cwd);
    expect(untrusted.code).toBe(0);
    expect(untrusted.stderr).toContain(
      `this folder is not trusted, so the plugins its project settings enable are not loaded: kit@team (in ${settings}); run "yoke trust" to load them`,
    );
    expect((await ws.yoke(['trust'], cwd)).code).toBe(0);
    ws.answer('ok');
    const trusted = await ws.yoke(['-p', 'go'], cwd);
    expect(trusted.stderr).toContain(
      `plugin "kit@team" is enabled in ${settings} but not installed; run \`yoke plugin install kit@team\` to install it`,
    );
    // Nothing was fetched by either run.
    expect(existsSync(join(ws.home, 'plugins/marketplaces/team'))).toBe(false);
    expect(existsSync(join(ws.home, 'plugins/cache/team'))).toBe(false);
  });

  it("the Agent SDK's plugins option loads a local plugin: listed in system/init, its hook runs", async () => {
    const scratch = await tempProject('yoke-plugin-sdk-');
    const dir = join(scratch, 'sdk-kit');
    await writeTree(dir, markerKit('sdk-kit'));
    const cwd = await tempProject();
    ws.server.reset([
      { reply: { content: [{ type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'echo hi' } }] } },
      { reply: { content: [{ type: 'text', text: 'ok' }] } },
    ]);
    const messages: SDKMessage[] = [];
    for await (const message of query({
      prompt: 'go',
      options: {
        pathToClaudeCodeExecutable: YOKE_BIN,
        cwd,
        env: sdkEnv(ws.server.url, ws.home),
        allowedTools: ['Bash'],
        plugins: [{ type: 'local', path: dir }],
      },
    })) {
      messages.push(message);
    }
    const init = messages.find((m) => m.type === 'system' && m.subtype === 'init');
    expect(init && 'plugins' in init ? init.plugins : undefined).toEqual([
      { name: 'sdk-kit', path: dir, version: '0.3.0' },
    ]);
    expect(messages.at(-1)).toMatchObject({ type: 'result', result: 'ok' });
    await expect(readFile(join(cwd, 'hook-fired'), 'utf8')).resolves.toBe(dir);
  });
});
