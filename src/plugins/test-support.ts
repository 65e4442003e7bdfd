/**
 * Test support: plugin folders written from a file map, and real git repositories made from them
 * (a bare repository under a temp folder stands in for a remote).
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${CLAUDE_PLUGIN_ROOT} is what plugin files contain, not a JS template.
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Writes `files` (relative path → content; objects are written as JSON) under `root`. */
export async function writeTree(root: string, files: Record<string, string | object>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const file = join(root, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
}

const GIT_IDENTITY = [
  '-c',
  'user.name=Yoke Test',
  '-c',
  'user.email=test@yoke.invalid',
  '-c',
  'init.defaultBranch=main',
];

/** Commits everything in `dir` and makes a bare clone of it at `bare`; returns the bare path. */
export async function bareRepositoryOf(dir: string, bare: string): Promise<string> {
  await run('git', [...GIT_IDENTITY, 'init', '--quiet', dir]);
  await run('git', [...GIT_IDENTITY, '-C', dir, 'add', '-A']);
  await run('git', [...GIT_IDENTITY, '-C', dir, 'commit', '--quiet', '-m', 'plugin']);
  await run('git', ['clone', '--quiet', '--bare', dir, bare]);
  return bare;
}

/** A plugin with one of everything: a command, a skill, an agent, a hook and an MCP server. */
export function samplePlugin(
  name: string,
  extra: Record<string, string | object> = {},
): Record<string, string | object> {
  return {
    '.claude-plugin/plugin.json': { name, version: '1.2.0', description: `The ${name} plugin` },
    'commands/hello.md': '---\ndescription: Say hello\n---\nSay hello to $ARGUMENTS.\n',
    'skills/greeting/SKILL.md': '---\nname: greeting\ndescription: Greets people\n---\nGreet warmly.\n',
    'agents/reviewer.md': '---\nname: reviewer\ndescription: Reviews code\n---\nReview the diff.\n',
    'hooks/hooks.json': {
      hooks: {
        PostToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/hooks/mark.sh' }] },
        ],
      },
    },
    '.mcp.json': { mcpServers: { tools: { command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/server.mjs'] } } },
    ...extra,
  };
}
