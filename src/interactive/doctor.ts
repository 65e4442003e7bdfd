/**
 * `/doctor`: what this machine and this session's configuration can and cannot do, as data. Each
 * check has a status and one line that says what was found and, when something is wrong, what to
 * do about it. The checks run in parallel; each external program gets a short deadline so one
 * hanging binary cannot hold up the report.
 */
import { execFile } from 'node:child_process';
import type { Env } from '../config/paths';
import { compareVersions, MIN_NODE_VERSION } from '../lib/node-version';
import { wrapWords } from '../lib/wrap-words';
import { type AvailabilityProblem, describeAvailabilityProblem } from '../tools/availability';
import { locateRipgrep } from '../tools/builtin/shared/ripgrep';
import type { ProviderProbe } from './provider-probe';

export type DoctorStatus = 'ok' | 'warning' | 'error';
export type DoctorCheck = { name: string; status: DoctorStatus; detail: string };

/** package.json's `engines.node`; a unit test keeps the two in step. */
export { MIN_NODE_VERSION };

const PROGRAM_DEADLINE_MS = 5_000;

export type DoctorInputs = {
  env: Env;
  cwd: string;
  nodeVersion?: string;
  settingsProblems: { errors: readonly string[]; warnings: readonly string[] };
  toolAvailability: readonly AvailabilityProblem[];
  probeProvider: (signal: AbortSignal) => Promise<ProviderProbe>;
  signal: AbortSignal;
};

export async function runDoctorChecks(inputs: DoctorInputs): Promise<DoctorCheck[]> {
  const checks = await Promise.all([
    Promise.resolve(nodeCheck(inputs.nodeVersion ?? process.versions.node)),
    Promise.resolve(ripgrepCheck(inputs.env)),
    gitCheck(inputs),
    providerCheck(inputs),
    Promise.resolve(settingsCheck(inputs.settingsProblems)),
    Promise.resolve(toolsCheck(inputs.toolAvailability)),
    sandboxCheck(inputs),
  ]);
  return checks;
}

export function nodeCheck(version: string): DoctorCheck {
  return compareVersions(version, MIN_NODE_VERSION) >= 0
    ? { name: 'Node.js', status: 'ok', detail: `${version} (needs ${MIN_NODE_VERSION} or later)` }
    : {
        name: 'Node.js',
        status: 'error',
        detail: `${version} is older than ${MIN_NODE_VERSION}, which Yoke needs: install Node.js ${MIN_NODE_VERSION} or later.`,
      };
}

export function ripgrepCheck(env: Env): DoctorCheck {
  const lookup = locateRipgrep(env);
  return lookup.found
    ? {
        name: 'ripgrep',
        status: 'ok',
        detail: `${lookup.source === 'bundled' ? 'bundled' : 'on PATH'}: ${lookup.path}`,
      }
    : { name: 'ripgrep', status: 'error', detail: lookup.reason };
}

type ProgramRun = { ok: true; stdout: string } | { ok: false; missing: boolean; message: string };

function runProgram(file: string, args: readonly string[], inputs: DoctorInputs): Promise<ProgramRun> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        cwd: inputs.cwd,
        env: inputs.env,
        timeout: PROGRAM_DEADLINE_MS,
        signal: inputs.signal,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (!error) return resolve({ ok: true, stdout });
        const code = (error as NodeJS.ErrnoException).code;
        const firstLine = `${stderr}`.trim().split('\n')[0] || error.message;
        resolve({ ok: false, missing: code === 'ENOENT', message: firstLine });
      },
    );
  });
}

async function gitCheck(inputs: DoctorInputs): Promise<DoctorCheck> {
  const run = await runProgram('git', ['--version'], inputs);
  if (run.ok) return { name: 'git', status: 'ok', detail: run.stdout.trim() };
  return {
    name: 'git',
    status: 'warning',
    detail: run.missing
      ? 'git is not on PATH: install it (e.g. `apt install git`) for the git status in the prompt and for sessions in worktrees.'
      : `git did not run: ${run.message}`,
  };
}

async function providerCheck(inputs: DoctorInputs): Promise<DoctorCheck> {
  const probe = await inputs.probeProvider(inputs.signal);
  return probe.ok
    ? {
        name: 'API',
        status: 'ok',
        detail: `${probe.provider} answered for ${probe.model} in ${probe.latencyMs} ms`,
      }
    : { name: 'API', status: 'error', detail: `${probe.provider}: ${probe.reason}` };
}

export function settingsCheck(problems: DoctorInputs['settingsProblems']): DoctorCheck {
  if (problems.errors.length > 0) {
    const more =
      problems.errors.length > 1 ? ` (and ${problems.errors.length - 1} more; /status lists them)` : '';
    return { name: 'Settings', status: 'error', detail: `${problems.errors[0]}${more}` };
  }
  if (problems.warnings.length > 0) {
    const more = problems.warnings.length > 1 ? ` (and ${problems.warnings.length - 1} more)` : '';
    return { name: 'Settings', status: 'warning', detail: `${problems.warnings[0]}${more}` };
  }
  return { name: 'Settings', status: 'ok', detail: 'every settings file loaded without problems' };
}

export function toolsCheck(problems: readonly AvailabilityProblem[]): DoctorCheck {
  if (problems.length === 0)
    return { name: 'Tools', status: 'ok', detail: 'every built-in tool can work here' };
  const unavailable = problems.some((p) => p.status === 'unavailable');
  return {
    name: 'Tools',
    status: unavailable ? 'error' : 'warning',
    detail: problems.map(describeAvailabilityProblem).join(' '),
  };
}

/**
 * The sandbox needs bubblewrap and user namespaces. Rather than reading sysctls that differ per
 * distribution, it starts a real one: `bwrap` with a new network namespace running `true`.
 */
async function sandboxCheck(inputs: DoctorInputs): Promise<DoctorCheck> {
  if (process.platform !== 'linux')
    return {
      name: 'Sandbox',
      status: 'warning',
      detail: `not available on ${process.platform}; commands run unsandboxed.`,
    };
  const run = await runProgram(
    'bwrap',
    ['--ro-bind', '/', '/', '--dev', '/dev', '--unshare-net', '--die-with-parent', 'true'],
    inputs,
  );
  if (run.ok) return { name: 'Sandbox', status: 'ok', detail: 'bubblewrap runs with user namespaces' };
  if (run.missing)
    return {
      name: 'Sandbox',
      status: 'warning',
      detail:
        'bubblewrap (bwrap) is not installed: install it (e.g. `apt install bubblewrap`) to run commands sandboxed.',
    };
  return {
    name: 'Sandbox',
    status: 'warning',
    detail: `bubblewrap is installed but cannot start a sandbox (${run.message}); user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone / user.max_user_namespaces).`,
  };
}

const MARK: Readonly<Record<DoctorStatus, string>> = { ok: '✓', warning: '!', error: '✗' };

export function formatDoctorReport(checks: readonly DoctorCheck[], columns?: number): string {
  const width = Math.max(...checks.map((c) => c.name.length));
  // In the REPL, a long detail (the settings' warnings) wraps under itself, not under the marks.
  const under = ' '.repeat(width + 4);
  const wrap = (detail: string) =>
    columns === undefined
      ? detail.split('\n')
      : detail.split('\n').flatMap((line) => wrapWords(line, Math.max(columns - under.length, 20)));
  const lines = checks.flatMap((c) => {
    const [first = '', ...rest] = wrap(c.detail);
    return [`${MARK[c.status]} ${c.name.padEnd(width)}  ${first}`, ...rest.map((line) => `${under}${line}`)];
  });
  const failing = checks.filter((c) => c.status !== 'ok').length;
  lines.push(failing === 0 ? 'All checks passed.' : `${failing} of ${checks.length} checks need attention.`);
  return lines.join('\n');
}
