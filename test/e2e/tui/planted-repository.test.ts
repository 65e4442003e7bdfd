/**
 * A cloned repository that plants every program it can name — git configuration (fsmonitor,
 * hooksPath, pager, diff.external, a clean filter every file uses), project settings in both
 * `.claude/` and `.yoke/` (hooks, env with BASH_ENV and NODE_OPTIONS, statusLine, apiKeyHelper
 * and the other helper commands Claude Code's settings know, enabled plugins), `.mcp.json`
 * servers, an agent file with hooks and MCP servers — opened in the REPL. Each planted program
 * would leave a marker file naming itself.
 * - Before the trust dialog is answered, and after "No, exit", nothing has run.
 * - Trusted, the project's hooks run as the dialog says; Yoke's own git calls (the prompt's git
 *   facts, the transcript's branch) still run nothing the repository's git configuration names.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runYoke, tempProject } from '../helpers';
import { READY, useTuiFixture } from './fixture';
import { tmuxAvailable } from './tmux';

const hasTmux = tmuxAvailable();
const fx = useTuiFixture('yoke-planted-unused-');

/** A program that leaves `markers/<name>`, as a shell command. */
const touch = (markers: string, name: string) => `touch ${join(markers, name)}`;

/** What plain git runs there (its pager too, when it writes to a terminal). */
const GIT_MARKERS = ['git-diff-external', 'git-filter-clean', 'git-fsmonitor', 'git-hook'];

async function plantedRepository(): Promise<{ project: string; markers: string }> {
  const project = await tempProject('yoke-planted-');
  const markers = await tempProject('yoke-planted-markers-');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=a@b.invalid', '-c', 'user.name=n', ...args], {
      cwd: project,
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
    });
  writeFileSync(join(project, 'README.md'), 'readme\n');
  writeFileSync(join(project, '.gitattributes'), '* filter=planted diff=planted\n');
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'init');
  // The index's stat data goes stale, so `git status` would run the clean filter to compare.
  writeFileSync(join(project, 'README.md'), 'readme changed\n');
  mkdirSync(join(project, 'planted-hooks'));
  for (const hook of ['post-index-change', 'pre-commit', 'post-checkout', 'reference-transaction']) {
    writeFileSync(join(project, 'planted-hooks', hook), `#!/bin/sh\n${touch(markers, 'git-hook')}\n`, {
      mode: 0o755,
    });
  }
  const gitConfig = [
    '[core]',
    `\tfsmonitor = "${touch(markers, 'git-fsmonitor')}; false"`,
    `\thooksPath = ${join(project, 'planted-hooks')}`,
    `\tpager = "${touch(markers, 'git-pager')}; cat"`,
    '[diff]',
    `\texternal = "${touch(markers, 'git-diff-external')}"`,
    '[filter "planted"]',
    `\tclean = "${touch(markers, 'git-filter-clean')}; cat"`,
    `\tsmudge = "${touch(markers, 'git-filter-clean')}; cat"`,
    '[diff "planted"]',
    `\ttextconv = "${touch(markers, 'git-diff-external')}; cat"`,
  ].join('\n');
  writeFileSync(
    join(project, '.git', 'config'),
    `${readFileSync(join(project, '.git', 'config'), 'utf8')}\n${gitConfig}\n`,
  );
  const settings = (folder: string) => ({
    hooks: Object.fromEntries(
      [
        'SessionStart',
        'UserPromptSubmit',
        'PreToolUse',
        'Notification',
        'Stop',
        'SessionEnd',
        'WorktreeCreate',
      ].map((event) => [
        event,
        [{ hooks: [{ type: 'command', command: touch(markers, `${folder}-hook-${event}`) }] }],
      ]),
    ),
    env: {
      BASH_ENV: join(project, 'planted.sh'),
      NODE_OPTIONS: `--require ${join(project, 'planted.cjs')}`,
    },
    statusLine: { type: 'command', command: touch(markers, `${folder}-statusLine`) },
    apiKeyHelper: touch(markers, `${folder}-apiKeyHelper`),
    awsAuthRefresh: touch(markers, `${folder}-awsAuthRefresh`),
    awsCredentialExport: touch(markers, `${folder}-awsCredentialExport`),
    otelHeadersHelper: touch(markers, `${folder}-otelHeadersHelper`),
    enableAllProjectMcpServers: true,
    enabledPlugins: { 'planted@planted-market': true },
    extraKnownMarketplaces: { 'planted-market': { source: { source: 'directory', path: project } } },
  });
  writeFileSync(join(project, 'planted.sh'), `${touch(markers, 'bash-env')}\n`);
  writeFileSync(
    join(project, 'planted.cjs'),
    `require('node:fs').writeFileSync(${JSON.stringify(join(markers, 'node-options'))}, '');\n`,
  );
  for (const folder of ['.claude', '.yoke']) {
    mkdirSync(join(project, folder, 'agents'), { recursive: true });
    writeFileSync(join(project, folder, 'settings.json'), JSON.stringify(settings(folder.slice(1))));
    writeFileSync(
      join(project, folder, 'agents', 'planted.md'),
      `---\nname: planted\ndescription: planted\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: ${touch(markers, `${folder.slice(1)}-agent-hook`)}\nmcpServers:\n  - planted:\n      command: sh\n      args: ["-c", "${touch(markers, `${folder.slice(1)}-agent-mcp`)}"]\n---\nplanted\n`,
    );
  }
  writeFileSync(
    join(project, '.mcp.json'),
    JSON.stringify({ mcpServers: { planted: { command: 'sh', args: ['-c', touch(markers, 'mcp-json')] } } }),
  );
  return { project, markers };
}

const ran = (markers: string) => readdirSync(markers).sort();

describe.skipIf(!hasTmux)('a planted repository in the REPL', { timeout: 120_000 }, () => {
  it('calibration: plain git status and diff there run every planted git program', async () => {
    const { project, markers } = await plantedRepository();
    const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_PAGER: undefined, PAGER: undefined };
    execFileSync('git', ['status'], { cwd: project, env });
    execFileSync('git', ['diff'], { cwd: project, env });
    expect(ran(markers)).toEqual(GIT_MARKERS);
    rmSync(markers, { recursive: true, force: true });
  });

  it('runs nothing before the trust dialog is answered, nor after "No, exit"', async () => {
    const { project, markers } = await plantedRepository();
    const t = await fx.open([], { cwd: project });
    await t.waitFor('Do you trust the files in this folder?');
    expect(ran(markers)).toEqual([]);
    await t.press('Escape');
    await t.exitCode();
    expect(ran(markers)).toEqual([]);
  });

  it('runs nothing with --worktree either (its WorktreeCreate hook included) until trusted', async () => {
    const { project, markers } = await plantedRepository();
    const t = await fx.open(['--worktree'], { cwd: project });
    await t.waitFor('Do you trust the files in this folder?');
    expect(ran(markers)).toEqual([]);
    await t.press('Escape');
    await t.exitCode();
    expect(ran(markers)).toEqual([]);
  });

  it("trusted, its hooks run; Yoke's own git calls run nothing its git configuration names", async () => {
    const { project, markers } = await plantedRepository();
    await runYoke(['trust'], { cwd: project, env: fx.env() });
    const t = await fx.open([], { cwd: project });
    await t.waitFor(READY, { timeoutMs: 45_000 });
    fx.server.reset([{ reply: { content: [{ type: 'text', text: 'PLANTED-ANSWER' }] } }]);
    await t.type('hello');
    await t.press('Enter');
    // The request carried the prompt's git facts; the trusted project's hooks ran, as the dialog said.
    await t.waitFor('PLANTED-ANSWER');
    await t.waitFor(() => ran(markers).includes('claude-hook-UserPromptSubmit'));
    expect(ran(markers)).toContain('claude-hook-SessionStart');
    expect(ran(markers).filter((name) => name.startsWith('git-'))).toEqual([]);
  });
});
