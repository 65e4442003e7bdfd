/** /doctor's checks on this machine (real git, ripgrep, bwrap) and on inputs that must fail. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  formatDoctorReport,
  MIN_NODE_VERSION,
  nodeCheck,
  runDoctorChecks,
  settingsCheck,
  toolsCheck,
} from './doctor';

const baseInputs = {
  env: { PATH: process.env.PATH },
  cwd: process.cwd(),
  settingsProblems: { errors: [], warnings: [] },
  toolAvailability: [],
  probeProvider: async () => ({
    ok: true as const,
    provider: 'anthropic',
    model: 'claude-haiku-5-5',
    latencyMs: 42,
  }),
  signal: new AbortController().signal,
};

describe('doctor checks', () => {
  it('MIN_NODE_VERSION is what package.json engines says', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));
    expect(pkg.engines.node).toBe(`>=${MIN_NODE_VERSION.replace(/\.0$/, '')}`);
  });

  it('judges the node version against the minimum', () => {
    expect(nodeCheck('20.16.0').status).toBe('ok');
    expect(nodeCheck('22.1.0').status).toBe('ok');
    expect(nodeCheck('20.9.0')).toEqual({
      name: 'Node.js',
      status: 'error',
      detail: `20.9.0 is older than ${MIN_NODE_VERSION}, which Yoke needs: install Node.js ${MIN_NODE_VERSION} or later.`,
    });
  });

  it('on this machine: node, ripgrep, git and the API pass; the sandbox is reported as it is', async () => {
    const checks = await runDoctorChecks(baseInputs);
    const byName = Object.fromEntries(checks.map((c) => [c.name, c]));
    expect(Object.keys(byName)).toEqual(['Node.js', 'ripgrep', 'git', 'API', 'Settings', 'Tools', 'Sandbox']);
    expect(byName.ripgrep?.status).toBe('ok');
    expect(byName.git?.detail).toMatch(/^git version \d/);
    expect(byName.API?.detail).toBe('anthropic answered for claude-haiku-5-5 in 42 ms');
    // What this machine can do, found out the same way by hand: ok exactly when bwrap starts one.
    const bwrap = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--unshare-net', 'true']);
    expect(byName.Sandbox?.status).toBe(bwrap.status === 0 ? 'ok' : 'warning');
    if (bwrap.status === 0) expect(formatDoctorReport(checks)).toMatch(/All checks passed\.$/);
  });

  it('without git, ripgrep or bwrap on PATH each says what to install', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'yoke-doctor-'));
    try {
      const checks = await runDoctorChecks({
        ...baseInputs,
        env: { PATH: empty, USE_BUILTIN_RIPGREP: '0' },
        probeProvider: async () => ({
          ok: false as const,
          provider: 'anthropic',
          reason: 'no API key: set ANTHROPIC_API_KEY',
        }),
      });
      const byName = Object.fromEntries(checks.map((c) => [c.name, c]));
      expect(byName.git).toMatchObject({
        status: 'warning',
        detail: expect.stringContaining('apt install git'),
      });
      expect(byName.ripgrep).toMatchObject({
        status: 'error',
        detail: expect.stringContaining('ripgrep was not found'),
      });
      expect(byName.Sandbox).toMatchObject({
        status: 'warning',
        detail: expect.stringContaining('apt install bubblewrap'),
      });
      expect(byName.API).toEqual({
        name: 'API',
        status: 'error',
        detail: 'anthropic: no API key: set ANTHROPIC_API_KEY',
      });
      expect(formatDoctorReport(checks)).toMatch(/4 of 7 checks need attention\.$/);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('a bwrap that cannot start a sandbox is reported with its own message', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'yoke-doctor-'));
    try {
      await mkdir(join(dir, 'bin'));
      // A stand-in that fails the way bwrap does without user namespaces.
      await writeFile(
        join(dir, 'bin', 'bwrap'),
        '#!/bin/sh\necho "bwrap: No permissions to creating new namespace" >&2\nexit 1\n',
      );
      await chmod(join(dir, 'bin', 'bwrap'), 0o755);
      await symlink('/usr/bin/git', join(dir, 'bin', 'git')).catch(() => {});
      const checks = await runDoctorChecks({ ...baseInputs, env: { PATH: join(dir, 'bin') } });
      expect(checks.find((c) => c.name === 'Sandbox')?.detail).toMatch(
        /^bubblewrap is installed but cannot start a sandbox \(bwrap: No permissions to creating new namespace\)/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('settings and tool problems name the first problem and how many more', () => {
    expect(settingsCheck({ errors: ['a.json: bad', 'b.json: bad'], warnings: [] })).toEqual({
      name: 'Settings',
      status: 'error',
      detail: 'a.json: bad (and 1 more; /status lists them)',
    });
    expect(settingsCheck({ errors: [], warnings: ['w'] }).status).toBe('warning');
    expect(
      toolsCheck([{ status: 'unavailable', tools: ['Grep', 'Glob'], reason: 'ripgrep was not found' }]),
    ).toEqual({
      name: 'Tools',
      status: 'error',
      detail: 'Grep and Glob are not available: ripgrep was not found',
    });
  });
});

describe('formatDoctorReport', () => {
  const checks = [
    { name: 'Node.js', status: 'ok' as const, detail: '20.20.2 (needs 20.16.0 or later)' },
    {
      name: 'Settings',
      status: 'warning' as const,
      detail:
        'settings: Yoke does not act on these Claude Code settings yet, so they have no effect: cleanupPeriodDays',
    },
  ];

  it("in the REPL's columns, a long detail wraps under itself, not under the marks", () => {
    expect(formatDoctorReport(checks, 60).split('\n')).toEqual([
      '✓ Node.js   20.20.2 (needs 20.16.0 or later)',
      '! Settings  settings: Yoke does not act on these Claude Code',
      '            settings yet, so they have no effect:',
      '            cleanupPeriodDays',
      '1 of 2 checks need attention.',
    ]);
  });

  it('from the shell (no columns) a detail stays one line, for the terminal to wrap', () => {
    expect(formatDoctorReport(checks).split('\n')[1]).toBe(`! Settings  ${checks[1]?.detail}`);
  });
});
