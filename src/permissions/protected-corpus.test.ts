/**
 * The protected-file corpus (issue 11 §3): writes to files that make git, the shell or Yoke run
 * code ask in every mode but bypassPermissions, however they are written, and only a rule the
 * model cannot have written lifts that. Each class was calibrated for real in a scratch folder
 * (git 2.39, GNU sed 4.9, bash 5.2, npm 9, GNU make, direnv 2.32):
 *   .git/hooks/pre-commit      ran on `git commit`
 *   core.fsmonitor in .git/config (and in ~/.gitconfig)   ran on `git status`
 *   .gitattributes `diff=x`    selected a textconv program that ran on `git diff` (not without it)
 *   .gitmodules url            `git submodule update --remote` checked out the repository it named
 *   .envrc                     direnv (with a whitelist prefix) ran it on entering the folder
 *   .husky/pre-commit          ran on `git commit` with core.hooksPath=.husky
 *   ~/.bashrc, ~/.profile      ran for `bash -i` / `bash -l`
 *   package.json, .npmrc `script-shell`, Makefile   ran on `npm test` / `make`
 *   hook scripts and .yoke/.claude settings          run by Yoke itself (test/e2e/trust.test.ts)
 * and the in-place editors: `sed -i 's|x|cmd|e'`, `sed -i '1e cmd'`, `sed -i 's/x/y/w f'`,
 * `sed -i '1w f'`, `sed -i '1r /outside'`, `perl -pi -e 'system(…)'`, `awk '{system(…)}'` and
 * `install -s --strip-program=prog` each ran the program or touched the other file; `sed
 * -iibutes 's/a/a/' .gitattr` created `.gitattributes`; `cp -t .git/hooks f` wrote into the hooks.
 * VS Code's `.vscode/` (tasks with `runOn: folderOpen`, launch configurations, settings naming
 * the programs its extensions start), JetBrains' `.idea/` (run configurations, startup tasks), a
 * dev container's `.devcontainer/` (`initializeCommand` runs on the host), `.pre-commit-config.yaml`
 * (its `repo: local` hooks run on `git commit` once pre-commit is installed) and .mcp.json (servers
 * Claude Code starts) follow those programs' documentation: none of them runs in this sandbox.
 */
import { describe, expect, it } from 'vitest';
import type { createModelClassifier } from './classifier';
import { type CorpusCase, caseLabel, HOME, PROJECT, runCase } from './corpus-test-support';
import { ProtectedPaths } from './protected-paths';

const at = (path: string) => ({ file_path: path.startsWith('/') ? path : `${PROJECT}/${path}` });
const write = (path: string, extra: Partial<CorpusCase> = {}): CorpusCase => ({
  tool: 'Write',
  input: at(path),
  mode: 'acceptEdits',
  expect: 'ask',
  ...extra,
});

const PROTECTED_FILES = [
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.yoke/settings.json',
  '.yoke/settings.local.json',
  '.yoke/settings.team.json',
  '.mcp.json',
  '.git/hooks/pre-commit',
  '.git/config',
  '.git',
  'vendor/lib/.git/config',
  '.GIT/hooks/pre-commit',
  '.gitattributes',
  'src/.gitattributes',
  '.gitmodules',
  '.envrc',
  '.husky/pre-commit',
  '.vscode/tasks.json',
  '.vscode/settings.json',
  '.vscode/launch.json',
  '.VSCode/settings.json',
  '.idea/workspace.xml',
  '.idea/runConfigurations/app.xml',
  '.devcontainer/devcontainer.json',
  '.pre-commit-config.yaml',
  '.claude/agents/reviewer.md',
  '.yoke/agents/team/lead.md',
  '.claude/commands/x.md',
  '.yoke/commands/frontend/lint.md',
  '.claude/skills/pdf/SKILL.md',
  '.claude/skills/pdf/scripts/fill.py',
];

const USER_FILES = [
  '/home/u/.yoke/settings.json',
  '/home/u/.yoke/state.json',
  '/home/u/.claude/settings.json',
  '/home/u/.claude/settings.local.json',
  '/home/u/.claude.json',
  '/home/u/.bashrc',
  '/home/u/.bash_profile',
  '/home/u/.profile',
  '/home/u/.zshrc',
  '/home/u/.zshenv',
  '/home/u/.config/fish/config.fish',
  '/home/u/.gitconfig',
  '/home/u/.config/git/config',
];

const TOOL_CASES: CorpusCase[] = [
  ...PROTECTED_FILES.map((path) => write(path)),
  ...PROTECTED_FILES.map((path) => write(path, { tool: 'Edit', mode: 'default' })),
  // With the home folder granted (`--add-dir ~`), acceptEdits still asks for the user files.
  ...USER_FILES.map((path) => write(path, { dirs: [HOME] })),
  write('.git/hooks/pre-commit', { mode: 'bypassPermissions', expect: 'allow' }),
  write('.git/hooks/pre-commit', { mode: 'plan', expect: 'deny' }),
  write('.git/hooks/pre-commit', { mode: 'dontAsk', expect: 'deny' }),
  // Controls: ordinary edits and memory files are not protected; folders named agents, commands
  // or skills elsewhere are no extension folders.
  write('src/app.ts', { expect: 'allow' }),
  write('AGENTS.md', { expect: 'allow' }),
  write('CLAUDE.md', { expect: 'allow' }),
  write('src/agents/reviewer.ts', { expect: 'allow' }),
  write('src/commands/x.md', { expect: 'allow' }),
  write('docs/skills/pdf.md', { expect: 'allow' }),
  write('.gitignore', { expect: 'allow' }),
  write('src/git/config.ts', { expect: 'allow' }),
  write('.yoke/notes.json', { expect: 'allow' }),
  write('package.json', { expect: 'allow' }),
  write('Makefile', { expect: 'allow' }),
  // Who lifts it: user settings, the command line and session rules naming the file…
  write('.claude/settings.json', {
    mode: 'default',
    allow: ['Edit(.claude/**)'],
    source: 'userSettings',
    expect: 'allow',
  }),
  write('.claude/settings.json', {
    mode: 'default',
    allow: [`Edit(/${PROJECT}/.claude/settings.json)`],
    source: 'userSettings',
    expect: 'allow',
  }),
  write('.git/hooks/pre-commit', { allow: ['Edit(.git/**)'], source: 'cliArg', expect: 'allow' }),
  write('.git/hooks/pre-commit', { allow: ['Edit(.git/**)'], source: 'flagSettings', expect: 'allow' }),
  write('/home/u/.bashrc', {
    mode: 'default',
    allow: ['Edit(~/.bashrc)'],
    source: 'session',
    expect: 'allow',
  }),
  write('.envrc', { allow: ['Edit(.envrc)'], source: 'policySettings', expect: 'allow' }),
  // …but not project or local settings, nor a rule that does not name the file.
  write('.claude/settings.json', { mode: 'default', allow: ['Edit(.claude/**)'], expect: 'ask' }),
  write('.claude/settings.json', { allow: ['Edit(.claude/**)'], source: 'localSettings', expect: 'ask' }),
  write('.claude/settings.json', { allow: ['Edit'], source: 'userSettings', expect: 'ask' }),
  write('.claude/settings.json', { allow: ['Write'], source: 'userSettings', expect: 'ask' }),
  write('.claude/settings.json', { allow: ['Edit(src/**)'], source: 'userSettings', expect: 'ask' }),
  // Files that define what an allowed runner runs are protected while that rule is in force.
  write('package.json', { allow: ['Bash(npm test)'], source: 'userSettings' }),
  write('packages/a/package.json', { allow: ['Bash(pnpm run:*)'] }),
  write('.npmrc', { allow: ['Bash(npm run build)'] }),
  write('.yarnrc.yml', { allow: ['Bash(yarn test)'] }),
  write('Makefile', { allow: ['Bash(make:*)'] }),
  write('GNUmakefile', { allow: ['Bash(timeout 60 make)'] }),
  write('justfile', { allow: ['Bash(just build)'] }),
  write('Taskfile.yml', { allow: ['Bash(task:*)'] }),
  write('tox.ini', { allow: ['Bash(tox)'] }),
  write('noxfile.py', { allow: ['Bash(nox -s lint)'] }),
  write('package.json', { allow: ['Bash(np*)'] }),
  write('package.json', { allow: ['Bash'] }),
  write('package.json', { allow: ['Bash(node --run test)'] }),
  write('package.json', { allow: ['Bash(git status)', 'Bash(make:*)'], expect: 'allow' }),
  write('Makefile', { allow: ['Bash(npm test)'], expect: 'allow' }),
];

const BASH_CASES: CorpusCase[] = [
  // Every way the shell writes a file reaches the same check.
  { cmd: "echo '{}' > .claude/settings.json", mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'echo evil >> .git/hooks/pre-commit', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'cp hook.sh .git/hooks/pre-commit', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'cp hook.sh .git/hooks/', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'cp -t .git/hooks pre-commit', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'cp --target-directory=.git/hooks pre-commit', allow: ['Bash(cp:*)'], expect: 'ask' },
  { cmd: 'cp payload/.envrc .', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'mv x .gitattributes', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'mv -b -S ributes a .gitatt', allow: ['Bash(mv:*)'], expect: 'ask' },
  { cmd: 'SIMPLE_BACKUP_SUFFIX=rc mv -b a .env', allow: ['Bash(mv:*)'], expect: 'ask' },
  { cmd: 'mv .git git-old', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'ln -sf ../hook.sh .husky/pre-commit', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'tee .envrc < template', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'install -m 755 hook.sh .git/hooks/pre-push', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'touch .mcp.json', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'mkdir -p .vscode && echo {} > .vscode/tasks.json', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'echo {} > .vscode/settings.json', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'tee .vscode/launch.json < x', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'cp x .idea/workspace.xml', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'mv x .devcontainer/devcontainer.json', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'cp payload/.pre-commit-config.yaml .', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'cp x .vs?ode/settings.json', mode: 'acceptEdits', expect: 'ask' },
  { cmd: "sed -i 's/a/b/' .envrc", mode: 'acceptEdits', expect: 'ask' },
  { cmd: "sed -iibutes 's/a/a/' .gitattr", mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'cp x .gi?/hooks/pre-commit', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'cp x .{git,y}/hooks/pre-commit', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'cp x .claude/settings.l*', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'echo x > "$TARGET"', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'echo x > ~/.bashrc', mode: 'acceptEdits', dirs: [HOME], expect: 'ask' },
  { cmd: 'echo x > ~/.yoke/settings.json', mode: 'acceptEdits', dirs: [HOME], expect: 'ask' },
  { cmd: 'cd sub && echo x > .git/config', mode: 'acceptEdits', expect: 'ask' },
  { cmd: "bash -c 'echo x > .git/hooks/pre-commit'", mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'echo evil > package.json', allow: ['Bash(npm test)'], mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'cp x .git/hooks/pre-commit', mode: 'bypassPermissions', expect: 'allow' },
  // A project rule never lifts the protection; an exact user rule that spells out the write does.
  { cmd: 'cp hook.sh .git/hooks/pre-commit', allow: ['Bash(cp:*)'], expect: 'ask' },
  {
    cmd: 'cp hook.sh .git/hooks/pre-commit',
    allow: ['Bash(cp hook.sh .git/hooks/pre-commit)'],
    expect: 'ask',
  },
  { cmd: 'echo x > .envrc', allow: ['Bash(echo x > .envrc)'], expect: 'ask' },
  {
    cmd: 'cp hook.sh .git/hooks/pre-commit',
    allow: ['Bash(cp hook.sh .git/hooks/pre-commit)'],
    source: 'userSettings',
    expect: 'allow',
  },
  { cmd: 'cp hook.sh .git/hooks/pre-commit', allow: ['Bash(cp:*)'], source: 'userSettings', expect: 'ask' },
  {
    cmd: 'cp hook.sh .git/hooks/pre-commit',
    allow: ['Bash(cp:*)', 'Edit(.git/hooks/**)'],
    source: 'userSettings',
    expect: 'allow',
  },
  // Agent, command and skill files name hooks that run and grant tools.
  { cmd: 'echo x > .claude/agents/x.md', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'cp notes.md .yoke/agents/', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'echo x > .claude/commands/x.md', mode: 'acceptEdits', expect: 'ask' },
  {
    cmd: 'mkdir -p .claude/skills/x && tee .claude/skills/x/SKILL.md < notes.md',
    mode: 'acceptEdits',
    expect: 'ask',
  },
  // Controls: ordinary writes keep going through without a prompt.
  { cmd: 'echo hi > src/out.txt', mode: 'acceptEdits', expect: 'allow' },
  { cmd: 'mkdir -p src/{a,b}', mode: 'acceptEdits', expect: 'allow' },
  { cmd: 'cp src/a.ts src/b.ts', mode: 'acceptEdits', expect: 'allow' },
  { cmd: 'echo "# notes" >> AGENTS.md', mode: 'acceptEdits', expect: 'allow' },
  { cmd: 'echo x > src/vscode/settings.json', mode: 'acceptEdits', expect: 'allow' },
  { cmd: 'echo x > .github/workflows/ci.yml', mode: 'acceptEdits', expect: 'allow' },
  { cmd: 'cp README.md docs/', mode: 'acceptEdits', expect: 'allow' },
  { cmd: 'git status', expect: 'allow' },
];

const IN_PLACE_CASES: CorpusCase[] = [
  // Pure substitutions on files inside the project are edits…
  { cmd: "sed -i 's/a/b/' src/x.ts", mode: 'acceptEdits', expect: 'allow' },
  { cmd: "sed -i -E 's/(a|b)+/c/g;s/x/y/' src/x.ts src/y.ts", mode: 'acceptEdits', expect: 'allow' },
  { cmd: "sed -i.bak -e 's/a/b/' src/x.ts", mode: 'acceptEdits', expect: 'allow' },
  { cmd: "sed --in-place=.orig '1d' src/x.ts", mode: 'acceptEdits', expect: 'allow' },
  { cmd: "sed -ni '1,5p' src/x.ts", mode: 'acceptEdits', expect: 'allow' },
  // -ie is -i with the backup suffix "e": still an edit, the backup stays beside the file.
  { cmd: "sed -ie 's/a/b/' src/x.ts", mode: 'acceptEdits', expect: 'allow' },
  // …anything that runs a program, writes or reads another file is not.
  { cmd: "sed -i 's/x/touch m/e' src/x.ts", mode: 'acceptEdits', expect: 'ask' },
  { cmd: "sed -i 's/a/b/;s/x/touch m/e' src/x.ts", mode: 'acceptEdits', expect: 'ask' },
  { cmd: "sed -i '1e touch m' src/x.ts", mode: 'acceptEdits', expect: 'ask' },
  { cmd: "sed -i 's/x/y/w out.txt' src/x.ts", mode: 'acceptEdits', expect: 'ask' },
  { cmd: "sed -i '1w out.txt' src/x.ts", mode: 'acceptEdits', expect: 'ask' },
  { cmd: "sed -i '/a/{W out.txt\n}' src/x.ts", mode: 'acceptEdits', expect: 'ask' },
  { cmd: "sed -i '1r /etc/passwd' src/x.ts", mode: 'acceptEdits', expect: 'ask' },
  { cmd: "sed -i '$R /etc/passwd' src/x.ts", mode: 'acceptEdits', expect: 'ask' },
  { cmd: "sed -i'/tmp/*' 's/a/b/' src/x.ts", mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'sed -i -f edit.sed src/x.ts', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'sed -i "$SCRIPT" src/x.ts', mode: 'acceptEdits', expect: 'ask' },
  { cmd: "sed -i 's/a/b/' /etc/hosts", mode: 'acceptEdits', expect: 'ask' },
  { cmd: "perl -pi -e 's/a/b/' src/x.ts", mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'perl -pi -e \'system("touch m")\' src/x.ts', mode: 'acceptEdits', expect: 'ask' },
  { cmd: "ruby -i -pe '$_.upcase!' src/x.ts", mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'awk -i inplace \'{system("touch m")}\' src/x.ts', mode: 'acceptEdits', expect: 'ask' },
  // The file-writing commands themselves: options that run a program or write elsewhere.
  { cmd: 'install -s --strip-program=./evil a b', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'install -m 644 a b', mode: 'acceptEdits', expect: 'allow' },
  { cmd: 'cp -t /etc/cron.d job', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'mv $FILES dest/', mode: 'acceptEdits', expect: 'ask' },
  { cmd: 'cp src/*.ts backup/', mode: 'acceptEdits', expect: 'allow' },
];

describe('protected files: the file tools', () => {
  it.each(TOOL_CASES.map((c) => [caseLabel(c), c] as const))('%s', async (_label, c) => {
    expect(await runCase(c)).toBe(c.expect);
  });
});

describe('protected files: the shell', () => {
  it.each(BASH_CASES.map((c) => [caseLabel(c), c] as const))('%s', async (_label, c) => {
    expect(await runCase(c)).toBe(c.expect);
  });
});

describe('in-place editors under acceptEdits', () => {
  it.each(IN_PLACE_CASES.map((c) => [caseLabel(c), c] as const))('%s', async (_label, c) => {
    expect(await runCase(c)).toBe(c.expect);
  });
});

describe('the session list', () => {
  const protectedPaths = new ProtectedPaths({
    home: HOME,
    yokeHome: '/srv/yoke-home',
    claudeHome: '/srv/claude-config',
    hookScripts: [`${PROJECT}/.claude/hooks/guard.sh`],
    settingsFiles: [`${PROJECT}/ci/settings.json`],
  });

  it('protects the scripts hooks run, moved config homes and --settings files', async () => {
    for (const path of [
      `${PROJECT}/.claude/hooks/guard.sh`,
      '/srv/yoke-home/settings.json',
      '/srv/claude-config/settings.json',
      '/srv/claude-config/.claude.json',
      `${PROJECT}/ci/settings.json`,
    ]) {
      expect(await runCase(write(path, { dirs: ['/srv'] }), { protectedPaths })).toBe('ask');
    }
    // A sibling of a hook script is an ordinary file.
    expect(await runCase(write('.claude/hooks/notes.md'), { protectedPaths })).toBe('allow');
    expect(
      await runCase(
        { cmd: 'echo x > .claude/hooks/guard.sh', mode: 'acceptEdits', expect: 'ask' },
        { protectedPaths },
      ),
    ).toBe('ask');
  });

  it('never lets the auto-mode classifier decide a protected write', async () => {
    let consulted = false;
    const classifier: ReturnType<typeof createModelClassifier> = async () => {
      consulted = true;
      return { behavior: 'allow', reason: 'looks fine' };
    };
    expect(await runCase(write('.git/hooks/pre-commit', { mode: 'auto' }), { classifier })).toBe('ask');
    expect(consulted).toBe(false);
    expect(await runCase(write('src/a.ts', { mode: 'auto' }), { classifier })).toBe('allow');
    expect(consulted).toBe(true);
  });
});
