/**
 * What a fresh `npm install` gives a user: a runnable bin after every build, and Grep/Glob that
 * work with no ripgrep on the system (the binary comes from @vscode/ripgrep's platform package),
 * also from an installed layout where dist/ sits in node_modules/yoke/. Where ripgrep cannot be
 * found at all, the search tools are not offered and the reason is said once.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mockEnv, runYoke, tempProject, YOKE_BIN } from './helpers';
import { useWorkspace } from './workspace';

const REPO = join(dirname(YOKE_BIN), '..');

const ws = useWorkspace();

/** A PATH with node but no rg (this machine has none; the assertion below keeps it honest). */
async function pathWithoutRipgrep(): Promise<string> {
  const bin = await tempProject('yoke-path-');
  symlinkSync(process.execPath, join(bin, 'node'));
  return bin;
}

/** One Grep call for a word that only `notes.txt` holds, then a reply quoting the tool result. */
function grepScenario(word: string) {
  ws.server.reset([
    {
      reply: {
        content: [
          { type: 'tool_use', name: 'Grep', input: { pattern: word, output_mode: 'files_with_matches' } },
        ],
      },
    },
    {
      match: { lastToolResultContains: 'notes.txt' },
      reply: { content: [{ type: 'text', text: 'found it' }] },
    },
  ]);
}

function toolResultText(): string {
  const body = ws.server.requests.at(-1)?.body as { messages: { content: unknown }[] };
  return JSON.stringify(body.messages.at(-1)?.content);
}

describe('a fresh install', () => {
  it('leaves dist/yoke.js executable, so a linked `yoke` runs after a rebuild', () => {
    expect(statSync(YOKE_BIN).mode & 0o111).toBe(0o111);
    // Run through its shebang, as the `yoke` symlink npm link made would.
    expect(execFileSync(YOKE_BIN, ['--version'], { encoding: 'utf8' })).toMatch(/\(Yoke\)\n$/);
  });

  it('runs Grep with the ripgrep binary from npm when no rg is on PATH', async () => {
    const PATH = await pathWithoutRipgrep();
    expect(() => execFileSync('rg', ['--version'], { env: { PATH } })).toThrow(/ENOENT/);
    const cwd = await tempProject();
    writeFileSync(join(cwd, 'notes.txt'), 'a marmalade sandwich\n');
    grepScenario('marmalade');
    const { code, stdout, stderr } = await runYoke(['-p', 'find it', '--allowedTools', 'Grep'], {
      cwd,
      env: { ...mockEnv(ws.server.url, ws.home), PATH },
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe('found it\n');
    expect(toolResultText()).toContain('notes.txt');
  });

  it('finds the binary from an installed layout (node_modules/yoke/dist), with and without a code cache', async () => {
    // As `npm install <yoke tarball>` lays a project out: yoke's files in node_modules/yoke, its
    // dependencies hoisted beside it.
    const project = await tempProject('yoke-installed-');
    const modules = join(project, 'node_modules');
    const installed = join(modules, 'yoke');
    mkdirSync(installed, { recursive: true });
    cpSync(join(REPO, 'dist'), join(installed, 'dist'), {
      recursive: true,
      filter: (source) => !source.endsWith('.cache'),
    });
    cpSync(join(REPO, 'package.json'), join(installed, 'package.json'));
    for (const entry of readdirSync(join(REPO, 'node_modules'))) {
      if (entry.startsWith('.')) continue;
      symlinkSync(join(REPO, 'node_modules', entry), join(modules, entry));
    }
    const bin = join(installed, 'dist', 'yoke.js');
    const PATH = await pathWithoutRipgrep();
    const cwd = await tempProject();
    writeFileSync(join(cwd, 'notes.txt'), 'quince jelly\n');
    for (const cache of ['missing', 'used']) {
      grepScenario('quince');
      const { code, stdout, stderr } = await runYoke(['-p', 'find it', '--allowedTools', 'Grep', '--debug'], {
        bin,
        cwd,
        env: { ...mockEnv(ws.server.url, ws.home), PATH },
      });
      expect(stderr).toContain(`code cache: ${cache}`);
      expect(code).toBe(0);
      expect(stdout).toBe('found it\n');
      expect(toolResultText()).toContain('notes.txt');
    }
  });

  it('does not offer Grep and Glob without ripgrep, and says why once', async () => {
    const PATH = await pathWithoutRipgrep();
    ws.server.reset([
      { reply: { content: [{ type: 'tool_use', name: 'Read', input: { file_path: 'notes.txt' } }] } },
      { reply: { content: [{ type: 'text', text: 'done' }] } },
    ]);
    const cwd = await tempProject();
    writeFileSync(join(cwd, 'notes.txt'), 'plain\n');
    const { code, stdout, stderr } = await runYoke(
      ['-p', 'look', '--output-format', 'stream-json', '--verbose'],
      // USE_BUILTIN_RIPGREP=0 (Claude Code's switch) stands in for an install without the binary.
      { cwd, env: { ...mockEnv(ws.server.url, ws.home), PATH, USE_BUILTIN_RIPGREP: '0' } },
    );
    expect(code).toBe(0);
    const init = JSON.parse(stdout.split('\n')[0] as string) as { tools: string[] };
    expect(init.tools).toContain('Read');
    expect(init.tools).not.toContain('Grep');
    expect(init.tools).not.toContain('Glob');
    for (const request of ws.server.requests) {
      const names = (request.body as { tools: { name: string }[] }).tools.map((t) => t.name);
      expect(names).not.toContain('Grep');
    }
    // One line for both tools over a run of two requests, naming the fix.
    const lines = stderr.split('\n').filter((line) => line.includes('ripgrep'));
    expect(lines).toEqual([
      expect.stringMatching(
        /^yoke: warning: Glob and Grep are not available: ripgrep was not found: .*apt install ripgrep/,
      ),
    ]);
  });
});

describe('a Node.js older than Yoke needs', () => {
  // Calibration: run for real with Node 18.20.4 and 12.22.12 (the official builds), `yoke -p hi`
  // printed this line and exited 1; before, Node 18 crashed in the app with a TypeError after a
  // screenful of minified code. Here the running Node is made to report an old version instead.
  it('gets one line naming both versions and exit 1, before the app loads', async () => {
    ws.server.reset([]);
    const dir = await tempProject('yoke-old-node-');
    const preload = join(dir, 'old-node.cjs');
    writeFileSync(
      preload,
      "Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '18.20.4' } });\n",
    );
    const { code, stdout, stderr } = await runYoke(['-p', 'hi'], {
      cwd: dir,
      env: { ...mockEnv(ws.server.url, dir), NODE_OPTIONS: `--require ${preload}` },
    });
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect(stderr).toBe(
      `yoke: Yoke needs Node.js 20.16.0 or later, and this is Node.js 18.20.4 (${process.execPath}). ` +
        'Install a newer Node.js (from nodejs.org, or with your version manager, e.g. "nvm install 22") and run yoke again.\n',
    );
    expect(ws.server.requests).toHaveLength(0);
  });
});
