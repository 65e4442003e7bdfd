/**
 * The smuggling corpus with the sandbox on and `autoAllowBashIfSandboxed`: every red-team row
 * (src/permissions/red-team-*) and every calibrated hole the permission check was taught to
 * block is decided again with the sandbox's verdict in the decision, and each row that now runs
 * without a prompt (and did not without the sandbox) is run for real in a fresh scratch project under bubblewrap. None may have any
 * effect outside the writable paths: the folder beside the project, the home folder, and the
 * project's protected files (`.git/config`, `.git/hooks`) stay byte for byte and mtime the same.
 *
 * The scratch folders live in /var/tmp, not /tmp: /tmp is private inside the sandbox, and a
 * folder the command cannot even see would prove nothing.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decideCase } from '../permissions/corpus-test-support';
import { allRedTeamRows, RED_TEAM_CALIBRATED } from '../permissions/red-team-cases';
import { runCommand } from '../tools/builtin/bash/run-command';
import { probeSandbox } from './availability';
import { SandboxManager, sandboxJudge } from './manager';
import { defaultSandboxConfig } from './settings';
import { hasBubblewrap } from './test-support';

/** `fn`, called once; later calls get the first call's promise. */
function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined;
  return () => {
    result ??= fn();
    return result;
  };
}

type Row = { cmd: string; setup?: string; allow?: string[]; deny?: string[]; ask?: string[] };

const base = existsSync('/var/tmp') ? mkdtempSync('/var/tmp/yoke-smuggle-') : '';
afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

const gitEnv = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'a',
  GIT_AUTHOR_EMAIL: 'a@example.com',
  GIT_COMMITTER_NAME: 'a',
  GIT_COMMITTER_EMAIL: 'a@example.com',
};

/** A template scratch: a repository with a hook folder, a secret beside it, a home folder. */
function template(): string {
  const root = join(base, 'template');
  const proj = join(root, 'proj');
  for (const dir of [proj, join(root, 'outside', 'dir'), join(root, 'home', '.ssh')])
    mkdirSync(dir, { recursive: true });
  // As in the calibration runs (calibration-run.ts): a secret, and lists naming it.
  const secret = join(root, 'outside', 'secret.txt');
  writeFileSync(secret, 'SECRET-TOKEN-93\n');
  writeFileSync(join(root, 'outside', 'list0'), `${secret}\0`);
  writeFileSync(join(root, 'outside', 'list'), `${secret}\n`);
  writeFileSync(join(root, 'home', '.bashrc'), '# rc\n');
  writeFileSync(join(root, 'home', '.ssh', 'id_ed25519'), 'KEY\n');
  writeFileSync(join(proj, 'x'), 'b\na\n');
  execFileSync('bash', ['-c', 'git init -q && git add -A && git commit -qm init && echo more >> x'], {
    cwd: proj,
    env: { ...process.env, ...gitEnv, HOME: join(root, 'home') },
  });
  return root;
}

/** Path → size, mtime and content of every file below `dir` (the protected and outside parts). */
function snapshot(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (path: string) => {
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(path, { throwIfNoEntry: false }) ?? statSync(path);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      files.set(path, `dir ${stat.mtimeMs}`);
      for (const name of readdirSync(path)) walk(join(path, name));
    } else files.set(path, `${stat.size} ${stat.mtimeMs} ${readFileSync(path).toString('base64')}`);
  };
  for (const part of ['outside', 'home', 'proj/.git/config', 'proj/.git/hooks']) walk(join(root, part));
  return files;
}

async function rows(): Promise<Row[]> {
  const seen = new Set<string>();
  const all: Row[] = [];
  for (const row of [...(await allRedTeamRows()), ...RED_TEAM_CALIBRATED]) {
    if ('tool' in row && row.tool !== undefined && row.tool !== 'Bash') continue;
    const key = `${row.cmd}\0${'setup' in row ? row.setup : ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    all.push(row as Row);
  }
  return all;
}

const ROWS = await rows();

describe.skipIf(!hasBubblewrap() || !base)('the smuggling corpus under the sandbox', () => {
  const templateRoot = base ? template() : '';
  let ran = 0;
  afterAll(() => {
    // 951 of 1603 rows when written: most of the corpus asks without the sandbox and runs with it.
    expect(ran).toBeGreaterThan(ROWS.length / 2);
  });

  // One probe of bubblewrap for the whole corpus: every manager below would find the same.
  const probe = once(probeSandbox);
  const manager = (projectRoot: string, home: string) =>
    new SandboxManager({
      config: { ...defaultSandboxConfig(), enabled: true, autoAllowBashIfSandboxed: true },
      projectRoot,
      additionalDirs: [],
      home,
      rules: [],
      protectedPaths: [],
      probe,
      // The snapshot after each row must not see the placeholders a run of commands keeps.
      placeholderIdleMs: 0,
    });
  // The verdicts do not depend on the folders: one manager decides every row.
  const judge = sandboxJudge(manager(base, base));
  const sharedRoot = join(base, 'shared');
  if (base) cpSync(templateRoot, sharedRoot, { recursive: true });

  it.each(ROWS.map((row) => [row.cmd, row] as const))('%s', async (_label, row) => {
    const corpusCase = {
      cmd: row.cmd,
      expect: 'allow' as const,
      ...(row.allow ? { allow: row.allow } : {}),
      ...(row.deny ? { deny: row.deny } : {}),
      ...(row.ask ? { ask: row.ask } : {}),
    };
    // Only what the sandbox lets run that the permission check alone would not: the rest was
    // already judged harmless (and is run by the corpus suites of src/permissions/).
    const [alone, sandboxed] = await Promise.all([
      decideCase(corpusCase),
      decideCase(corpusCase, { sandbox: judge }),
    ]);
    if (alone.verdict === 'allow' || sandboxed.verdict !== 'allow') return;
    ran++;
    // A row with a setup gets a fresh copy; the others share one (what a row leaves in the project
    // may change what a later row does, never what the sandbox lets out of it).
    const root = row.setup ? join(base, randomUUID()) : sharedRoot;
    if (row.setup) cpSync(templateRoot, root, { recursive: true });
    const proj = join(root, 'proj');
    const env = { PATH: process.env.PATH, HOME: join(root, 'home'), LC_ALL: 'C', ...gitEnv };
    if (row.setup) execFileSync('bash', ['-c', row.setup], { cwd: proj, env, stdio: 'ignore' });
    const sandbox = manager(proj, env.HOME);
    await sandbox.start();
    try {
      const before = snapshot(root);
      await runCommand({
        command: row.cmd,
        cwd: proj,
        env,
        // Rows like `tail -f /dev/zero` never end: what they could do, they do at once.
        timeoutMs: 3_000,
        signal: new AbortController().signal,
        outputBudget: 2_000,
        spillPath: join(root, 'spill.txt'),
        sandbox,
        killGraceMs: 100,
      });
      expect(snapshot(root)).toEqual(before);
    } finally {
      await sandbox.dispose();
      if (row.setup) rmSync(root, { recursive: true, force: true });
    }
  });
});
