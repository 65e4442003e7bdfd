// Launch to the REPL's first frame, measured in ways a loaded machine does not skew much: CPU time
// (user + system; the main thread's alone where Linux says, with its wait for a CPU) and minor page faults at the write that draws the prompt box, the collections
// before it, and wall ms since the process started (noisy under load). Each build given is run in
// turn (A, B, A, B, …) so a change in load hits all alike; the first round is a warm-up.
//   node bench/first-frame.mjs [rounds] <dist/yoke.js of build A> [<yoke.js of B> …]
// Default: this checkout's dist/yoke.js, 10 rounds. Prints the median of each figure per build,
// and the median of the round-by-round differences from the first build.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median, replEnv, root } from './_bundle.mjs';

const python = spawnSync('python3', ['-c', 'import pty'], { encoding: 'utf8' });
if (python.status !== 0) {
  console.log('first-frame: skipped: python3 with the pty module is needed (.ci/run installs python3).');
  process.exit(0);
}

const args = process.argv.slice(2);
const rounds = /^\d+$/.test(args[0] ?? '') ? Number(args.shift()) : 10;
const builds = args.length > 0 ? args.map((entry) => resolve(entry)) : [join(root, 'dist', 'yoke.js')];

const work = realpathSync(mkdtempSync(join(tmpdir(), 'yoke-bench-first-frame-')));
const cwd = join(work, 'project');
const home = join(work, 'home');
for (const dir of [cwd, home]) mkdirSync(dir, { recursive: true });
// Nothing listens there: the REPL makes no request before a prompt.
const env = replEnv(home, 'http://127.0.0.1:9');
const probe = join(root, 'bench', '_first-frame-probe.cjs');
const nodeArgs = (process.env.FIRST_FRAME_NODE_ARGS ?? '').split(' ').filter(Boolean);

function runOnce(entry) {
  const outFile = join(work, 'probe.json');
  rmSync(outFile, { force: true });
  const argv = [process.execPath, ...nodeArgs, '--require', probe, entry, '--trust'];
  const r = spawnSync('python3', [join(root, 'bench', '_pty-run.py'), ...argv], {
    cwd,
    env: { ...env, FIRST_FRAME_PROBE_OUT: outFile },
    encoding: 'utf8',
  });
  try {
    return JSON.parse(readFileSync(outFile, 'utf8'));
  } catch {
    throw new Error(`${entry}: no first frame (exit ${r.status}) ${r.stderr}`);
  }
}

const results = builds.map(() => []);
for (let round = 0; round <= rounds; round++) {
  builds.forEach((entry, i) => {
    const result = runOnce(entry);
    if (round > 0) results[i].push(result);
    if (process.env.FIRST_FRAME_RAW) console.log(i, JSON.stringify(result));
  });
}
const FIGURES = [
  'mainMs',
  'waitMs',
  'cpuMs',
  'userMs',
  'systemMs',
  'minorFaults',
  'scavenges',
  'gcBeforeMs',
  'ms',
];
console.log(['build', ...FIGURES].join('\t'));
builds.forEach((entry, i) => {
  const row = FIGURES.map((f) => Math.round(median(results[i].map((r) => r[f])) * 10) / 10);
  console.log([entry, ...row].join('\t'));
});
// Each later build against the first, round by round (both ran under much the same load).
for (let i = 1; i < builds.length; i++) {
  const row = FIGURES.map((f) => {
    const diffs = results[i].map((r, round) => r[f] - results[0][round][f]);
    return `${Math.round(median(diffs) * 10) / 10}`;
  });
  console.log([`paired Δ ${i}-0`, ...row].join('\t'));
}
rmSync(work, { recursive: true, force: true });
