/**
 * The path corpus: symlinks, globs, braces, `~`, `cd` and recursive searches, on a real scratch
 * project. Every case that blocks something is calibrated: the shell form is run for real with
 * bash in the same project (the file tools' form is read through the same path) and must show
 * the effect being blocked — the outside or denied file's content, or the file written outside.
 * The controls must keep running without a prompt.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveRipgrep } from '../tools/builtin/shared/ripgrep';
import { type CorpusCase, caseLabel, runCase } from './corpus-test-support';
import { MAX_WALK_ENTRIES } from './folder-walks';
import { diskPathFs } from './real-paths';

const ENV_SECRET = 'ENV_SECRET_7f3a';
const OUTSIDE_SECRET = 'OUTSIDE_SECRET_91c2';
const HOME_SECRET = 'HOME_SECRET_44d0';

let top: string;
let project: string;
let home: string;
let rgDir: string;

function write(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

beforeAll(async () => {
  top = realpathSync(mkdtempSync(join(tmpdir(), 'yoke-path-corpus-')));
  project = join(top, 'proj');
  home = join(top, 'home');
  write(join(project, '.env'), `${ENV_SECRET}\n`);
  write(join(project, 'README.md'), 'readme\n');
  write(join(project, 'src/a.ts'), 'export const a = 1;\n');
  write(join(project, 'src/b.ts'), 'export const b = 2;\n');
  write(join(project, 'config/.env'), `${ENV_SECRET}\n`);
  write(join(project, 'config/app.json'), '{}\n');
  write(join(project, 'docs/guide.md'), 'guide\n');
  write(join(top, 'outside/secret.txt'), `${OUTSIDE_SECRET}\n`);
  write(join(home, 'notes.txt'), `${HOME_SECRET}\n`);
  symlinkSync(join(top, 'outside'), join(project, 'out-link'));
  symlinkSync(join(top, 'outside/secret.txt'), join(project, 'secret-link'));
  symlinkSync('.env', join(project, 'env-link'));
  symlinkSync('src', join(project, 'src-alias'));
  symlinkSync(join(top, 'outside/created.txt'), join(project, 'dangling'));
  symlinkSync(join(top, 'outside'), join(project, 'docs/ext'));
  // A link inside the project into a folder a deny rule may cover.
  mkdirSync(join(project, 'notes'));
  symlinkSync('../config', join(project, 'notes/cfg'));
  write(join(project, 'credentials.json'), `{"token":"${ENV_SECRET}"}\n`);
  // A link to a protected file: writing through it writes the file that makes git run code.
  write(join(project, '.git/config'), '[core]\n');
  symlinkSync('.git/config', join(project, 'cfg-link'));
  // A project with a folder a bounded walk cannot finish.
  for (let i = 0; i <= MAX_WALK_ENTRIES; i++)
    write(join(top, `bigproj/big/${Math.floor(i / 1000)}/${i}.txt`), '');
  // The same project opened through a symlinked folder.
  symlinkSync(project, join(top, 'proj-link'));
  rgDir = dirname(await resolveRipgrep(process.env));
});

afterAll(() => {
  rmSync(top, { recursive: true, force: true });
});

/** What running the shell form for real shows: its output, and whether it wrote outside. */
function runInShell(command: string): string {
  // stdin is /dev/null, as for the Bash tool (rg with no path would otherwise read a pipe).
  const result = spawnSync('bash', ['-c', command], {
    cwd: project,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: `${rgDir}${delimiter}${process.env.PATH}`, HOME: home },
    encoding: 'utf8',
  });
  return result.stdout;
}

type PathCase = CorpusCase & {
  /** Running it for real shows this (an outside or denied file's content). */
  reveals?: string;
  /** Running it for real creates this file outside the project (removed again). */
  creates?: string;
  /** The project root, relative to the scratch folder (default `proj`). */
  root?: string;
};

const at = (file_path: string) => ({ file_path });

const SHELL_CASES: PathCase[] = [
  // Symlinks inside the project that lead out of it.
  { cmd: 'cat secret-link', expect: 'ask', reveals: OUTSIDE_SECRET },
  { cmd: 'cat out-link/secret.txt', expect: 'ask', reveals: OUTSIDE_SECRET },
  { cmd: 'cat out-link/../outside/secret.txt', expect: 'ask', reveals: OUTSIDE_SECRET },
  { cmd: 'cat < secret-link', expect: 'ask', reveals: OUTSIDE_SECRET },
  { cmd: 'cat secret-link', allow: ['Bash(cat:*)'], expect: 'ask', reveals: OUTSIDE_SECRET },
  { cmd: 'cd out-link && cat secret.txt', expect: 'ask', reveals: OUTSIDE_SECRET },
  { cmd: 'echo x > out-link/made.txt', mode: 'acceptEdits', expect: 'ask', creates: 'outside/made.txt' },
  { cmd: 'echo x > dangling', mode: 'acceptEdits', expect: 'ask', creates: 'outside/created.txt' },
  { cmd: 'cp README.md out-link/copy.md', mode: 'acceptEdits', expect: 'ask', creates: 'outside/copy.md' },
  // A link to a denied file, and a deny on the link itself.
  { cmd: 'cat env-link', deny: ['Read(./.env)'], expect: 'deny', reveals: ENV_SECRET },
  // A deny on a link names the content behind it: the target is denied under its own name too.
  { cmd: 'cat .env', deny: ['Read(./env-link)'], expect: 'deny', reveals: ENV_SECRET },
  { cmd: 'cat env-link', deny: ['Read(./env-link)'], expect: 'deny', reveals: ENV_SECRET },
  // Globs and braces are expanded the way bash expands them.
  { cmd: 'cat .e*', deny: ['Read(./.env)'], expect: 'deny', reveals: ENV_SECRET },
  { cmd: 'cat .[e]nv', deny: ['Read(.env)'], expect: 'deny', reveals: ENV_SECRET },
  { cmd: 'cat e?v-link', deny: ['Read(./.env)'], expect: 'deny', reveals: ENV_SECRET },
  { cmd: 'cat {README.md,.env}', deny: ['Read(.env)'], expect: 'deny', reveals: ENV_SECRET },
  { cmd: 'cat {,/etc/passwd}', expect: 'ask', reveals: 'root:' },
  { cmd: 'cat {README.md,../outside/secret.txt}', expect: 'ask', reveals: OUTSIDE_SECRET },
  { cmd: 'cat ../outs*/secret.txt', expect: 'ask', reveals: OUTSIDE_SECRET },
  { cmd: 'cat ~/notes.txt', expect: 'ask', reveals: HOME_SECRET },
  { cmd: 'cat {~,x}/notes.txt', expect: 'ask', reveals: HOME_SECRET },
  { cmd: 'cat ~+/../outside/secret.txt', expect: 'ask', reveals: OUTSIDE_SECRET },
  // `cd` moves where relative paths lead.
  { cmd: 'cd /etc && cat passwd', expect: 'ask', reveals: 'root:' },
  { cmd: 'cd .. && cat outside/secret.txt', expect: 'ask', reveals: OUTSIDE_SECRET },
  { cmd: 'cd config && cat .env', deny: ['Read(/config/.env)'], expect: 'deny', reveals: ENV_SECRET },
  { cmd: 'cd "$D" && cat README.md', expect: 'ask' },
  // `set -P` makes a cd physical: `out-link/..` is then the outside folder's parent.
  { cmd: 'set -P; cd out-link/.. && cat outside/secret.txt', expect: 'ask', reveals: OUTSIDE_SECRET },
  { cmd: 'PWD=/etc; cat ~+/passwd', expect: 'ask', reveals: 'root:' },
  { cmd: 'cd - && cat README.md', expect: 'ask' },
  // A bare `cd` goes home: `ls` then lists it.
  { cmd: 'cd && ls', expect: 'ask', reveals: 'notes.txt' },
  // Recursive searches over a folder holding a denied file, or too big to check.
  { cmd: 'grep -r ENV_SECRET .', deny: ['Read(./.env)'], expect: 'ask', reveals: ENV_SECRET },
  { cmd: 'grep -r ENV_SECRET', deny: ['Read(.env)'], expect: 'ask', reveals: ENV_SECRET },
  { cmd: 'grep -rl ENV_SECRET config', deny: ['Read(.env)'], expect: 'ask', reveals: 'config/.env' },
  { cmd: 'rg ENV_SECRET', deny: ['Read(credentials.json)'], expect: 'ask', reveals: ENV_SECRET },
  { cmd: 'rg --hidden ENV_SECRET config', deny: ['Read(.env)'], expect: 'ask', reveals: ENV_SECRET },
  {
    cmd: 'grep -r ENV_SECRET .',
    deny: ['Read(./.env)'],
    allow: ['Bash(grep:*)'],
    expect: 'ask',
    reveals: ENV_SECRET,
  },
  { cmd: 'grep -r ENV_SECRET .', deny: ['Read(./.env)'], mode: 'bypassPermissions', expect: 'ask' },
  { cmd: 'grep -rl x big', root: 'bigproj', deny: ['Read(.env)'], expect: 'ask' },
  { cmd: 'grep -R OUTSIDE_SECRET docs', expect: 'ask', reveals: OUTSIDE_SECRET },
  { cmd: 'rg -L OUTSIDE_SECRET docs', expect: 'ask', reveals: OUTSIDE_SECRET },
  // A search that follows links reads a denied folder under a link's name.
  { cmd: 'grep -R ENV_SECRET notes', deny: ['Read(./config/**)'], expect: 'ask', reveals: ENV_SECRET },
  { cmd: 'rg -L --hidden ENV_SECRET notes', deny: ['Read(./config/**)'], expect: 'ask', reveals: ENV_SECRET },
  // File names from input: xargs may be handed a denied file.
  { cmd: 'ls -a | grep env | xargs cat', deny: ['Read(.env)'], expect: 'ask', reveals: ENV_SECRET },
  { cmd: 'ls src | xargs echo', expect: 'allow' },
  // Read and Edit ask rules hold for the shell's paths too, a recursive search included.
  { cmd: 'cat config/app.json', ask: ['Read(./config/app.json)'], expect: 'ask' },
  { cmd: 'cat conf*/app.json', ask: ['Read(./config/app.json)'], expect: 'ask' },
  { cmd: 'grep -r x config', ask: ['Read(app.json)'], expect: 'ask' },
  { cmd: 'echo x >> README.md', ask: ['Edit(README.md)'], mode: 'acceptEdits', expect: 'ask' },
  // Controls: ordinary commands keep running without a prompt.
  { cmd: 'cat README.md', expect: 'allow' },
  { cmd: 'cat README.md', ask: ['Read(config/**)'], expect: 'allow' },
  { cmd: 'grep -r x src', ask: ['Read(config/**)'], expect: 'allow' },
  { cmd: 'cat README.md', deny: ['Read(.env)'], expect: 'allow' },
  { cmd: 'ls src/*.ts', expect: 'allow' },
  { cmd: 'cat src/{a,b}.ts', deny: ['Read(.env)'], expect: 'allow' },
  { cmd: 'cat src-alias/a.ts', expect: 'allow' },
  { cmd: 'cd src && cat ../README.md', expect: 'allow' },
  { cmd: 'cd src && ls', expect: 'allow' },
  { cmd: 'grep -r foo src', deny: ['Read(.env)'], expect: 'allow' },
  { cmd: 'grep -r foo docs', deny: ['Read(.env)'], expect: 'allow' },
  { cmd: 'rg foo src', deny: ['Read(.env)'], expect: 'allow' },
  { cmd: 'grep -rl x big', root: 'bigproj', expect: 'allow' },
  { cmd: 'grep -r OUTSIDE_SECRET docs', expect: 'allow' },
  { cmd: 'grep -r ENV_SECRET notes', deny: ['Read(./config/**)'], expect: 'allow' },
  { cmd: 'grep -R ENV_SECRET notes', deny: ['Read(./src/**)'], expect: 'allow' },
  { cmd: 'echo x > src/new.txt', mode: 'acceptEdits', expect: 'allow' },
  // Protected files are judged where a write really lands.
  { cmd: 'echo x >> cfg-link', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'cp README.md cfg-link', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'echo x > new-dir/f.txt', mode: 'acceptEdits', expect: 'allow' },
];

const TOOL_CASES: PathCase[] = [
  { tool: 'Read', input: at('secret-link'), expect: 'ask', reveals: OUTSIDE_SECRET },
  { tool: 'Read', input: at('out-link/secret.txt'), expect: 'ask', reveals: OUTSIDE_SECRET },
  { tool: 'Read', input: at('secret-link'), allow: ['Read(/secret-link)'], expect: 'allow' },
  { tool: 'Read', input: at('env-link'), deny: ['Read(./.env)'], expect: 'deny', reveals: ENV_SECRET },
  { tool: 'Read', input: at('env-link'), deny: ['Read(./env-link)'], expect: 'deny', reveals: ENV_SECRET },
  { tool: 'Edit', input: at('out-link/secret.txt'), mode: 'acceptEdits', expect: 'ask' },
  { tool: 'Write', input: at('out-link/new.ts'), mode: 'acceptEdits', expect: 'ask' },
  { tool: 'Write', input: at('dangling'), mode: 'acceptEdits', expect: 'ask' },
  { tool: 'MultiEdit', input: at('secret-link'), mode: 'acceptEdits', expect: 'ask' },
  { tool: 'Write', input: at('cfg-link'), mode: 'acceptEdits', expect: 'ask' },
  { tool: 'Edit', input: at('cfg-link'), mode: 'acceptEdits', expect: 'ask' },
  { tool: 'NotebookEdit', input: { notebook_path: 'out-link/nb.ipynb' }, mode: 'acceptEdits', expect: 'ask' },
  { tool: 'Write', input: at('env-link'), deny: ['Edit(./.env)'], mode: 'bypassPermissions', expect: 'deny' },
  { tool: 'Glob', input: { pattern: '*', path: 'out-link' }, expect: 'ask' },
  { tool: 'Glob', input: { pattern: '../outside/*' }, expect: 'ask' },
  { tool: 'Glob', input: { pattern: '/etc/*' }, expect: 'ask' },
  { tool: 'Glob', input: { pattern: '../../x/**' }, expect: 'ask' },
  { tool: 'Grep', input: { pattern: 'x', path: 'out-link' }, expect: 'ask' },
  { tool: 'Grep', input: { pattern: 'x', path: 'secret-link' }, expect: 'ask' },
  // An MCP server's listing of a folder holding a denied file, under a link's name too.
  {
    tool: 'mcp__fs__read_text_file',
    input: { path: 'notes' },
    allow: ['mcp__fs'],
    deny: ['Read(./config/**)'],
    expect: 'ask',
  },
  {
    tool: 'mcp__fs__read_text_file',
    input: { path: '.' },
    allow: ['mcp__fs'],
    deny: ['Read(.env)'],
    expect: 'ask',
  },
  // Controls.
  { tool: 'Read', input: at('src-alias/a.ts'), expect: 'allow' },
  { tool: 'Read', input: at('src-alias/a.ts'), deny: ['Read(.env)'], expect: 'allow' },
  { tool: 'Write', input: at('new/dir/f.ts'), mode: 'acceptEdits', expect: 'allow' },
  { tool: 'Edit', input: at('src-alias/a.ts'), mode: 'acceptEdits', expect: 'allow' },
  { tool: 'Glob', input: { pattern: 'src/*.ts' }, expect: 'allow' },
  { tool: 'Grep', input: { pattern: 'x' }, deny: ['Read(.env)'], expect: 'allow' },
  {
    tool: 'mcp__fs__read_text_file',
    input: { path: 'src' },
    allow: ['mcp__fs'],
    deny: ['Read(.env)'],
    expect: 'allow',
  },
  // The project opened through a symlinked folder: its real paths are inside too.
  { tool: 'Read', input: at('README.md'), root: 'proj-link', expect: 'allow' },
  { tool: 'Read', input: at('.env'), root: 'proj-link', deny: ['Read(./.env)'], expect: 'deny' },
  { cmd: 'cat env-link', root: 'proj-link', deny: ['Read(/.env)'], expect: 'deny' },
  { cmd: 'cat src/a.ts', root: 'proj-link', expect: 'allow' },
];

/** Makes relative tool paths absolute below the case's project root. */
function forDisk(c: PathCase): PathCase {
  const root = join(top, c.root ?? 'proj');
  if (!c.input) return c;
  const input = { ...c.input };
  for (const key of ['file_path', 'notebook_path', 'path'] as const) {
    const value = input[key];
    if (typeof value === 'string' && !value.startsWith('/')) input[key] = join(root, value);
  }
  return { ...c, input };
}

async function verdict(c: PathCase) {
  const root = join(top, c.root ?? 'proj');
  return runCase(forDisk(c), { projectRoot: root, home, fs: diskPathFs });
}

describe('path corpus (on disk, calibrated)', () => {
  it.each(SHELL_CASES.map((c) => [caseLabel(c), c] as const))('%s', async (_label, c) => {
    if (c.reveals) expect(runInShell(c.cmd as string)).toContain(c.reveals);
    if (c.creates) {
      const created = join(top, c.creates);
      rmSync(created, { force: true });
      runInShell(c.cmd as string);
      expect(existsSync(created)).toBe(true);
      rmSync(created, { force: true });
    }
    expect(await verdict(c)).toBe(c.expect);
  });

  it.each(TOOL_CASES.map((c) => [caseLabel(c), c] as const))('%s', async (_label, c) => {
    if (c.reveals) {
      const path = forDisk(c).input?.file_path as string;
      expect(readFileSync(path, 'utf8')).toContain(c.reveals);
    }
    expect(await verdict(c)).toBe(c.expect);
  });

  it('a recursive search that asks names the denied file and the rule', async () => {
    let message = '';
    await runCase(
      { cmd: 'grep -r ENV_SECRET .', deny: ['Read(./.env)'], expect: 'ask' },
      {
        projectRoot: project,
        home,
        fs: diskPathFs,
        prompt: async (request) => {
          message = request.message;
          return { behavior: 'deny', message: 'no' };
        },
      },
    );
    expect(message).toContain('would read .env, which Read(./.env) (projectSettings) denies');
  });
});
