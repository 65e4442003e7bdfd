// Added latency of the shell sandbox: the same command (`true`, then a small pipeline) run by the
// Bash tool's runner outside and inside bubblewrap (no network, and with the proxy relay for
// allowed hosts), alternated, RUNS times each. Target: under 15 ms added per command (median).
// Bubblewrap's own start scales with the machine's load (namespaces, mounts): read the figures
// with the load line, and compare versions interleaved under the same load.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSources, loadLine, median, verdict } from './_bundle.mjs';

try {
  execFileSync('bwrap', ['--unshare-all', '--ro-bind', '/', '/', 'true']);
} catch {
  console.log('sandbox: bubblewrap cannot run here (apt-get install bubblewrap); nothing to measure');
  process.exit(0);
}

const { runCommand, SandboxManager, defaultSandboxConfig } = await importSources(
  'sandbox',
  `export { runCommand } from './src/tools/builtin/bash/run-command';
   export { SandboxManager } from './src/sandbox/manager';
   export { defaultSandboxConfig } from './src/sandbox/settings';`,
);

const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const TARGET_MS = 15;
const work = realpathSync(mkdtempSync(join(tmpdir(), 'yoke-bench-sandbox-')));
const project = join(work, 'project');
mkdirSync(project);
execFileSync('git', ['init', '-q', project]);

const manager = (extra) =>
  new SandboxManager({
    config: { ...defaultSandboxConfig(), enabled: true, ...extra },
    projectRoot: project,
    additionalDirs: [],
    home: work,
    rules: [],
    protectedPaths: [],
  });
const plain = undefined;
const offline = manager({});
const proxied = manager({ allowedDomains: ['example.com'] });
await offline.start();
await proxied.start();

async function time(command, sandbox) {
  const started = process.hrtime.bigint();
  await runCommand({
    command,
    cwd: project,
    env: process.env,
    timeoutMs: 10_000,
    signal: new AbortController().signal,
    outputBudget: 30_000,
    spillPath: join(work, 'spill.txt'),
    ...(sandbox ? { sandbox } : {}),
  });
  return Number(process.hrtime.bigint() - started) / 1e6;
}

console.log(loadLine());
for (const command of ['true', 'ls -la | wc -l']) {
  const samples = { plain: [], offline: [], proxied: [] };
  for (let i = 0; i < RUNS; i++) {
    samples.plain.push(await time(command, plain));
    samples.offline.push(await time(command, offline));
    samples.proxied.push(await time(command, proxied));
  }
  const base = median(samples.plain);
  const added = median(samples.offline) - base;
  const addedProxy = median(samples.proxied) - base;
  console.log(`\`${command}\`: unsandboxed ${base.toFixed(1)} ms median`);
  console.log(
    `  sandboxed, no network: +${added.toFixed(1)} ms (target < ${TARGET_MS} ms: ${verdict(added < TARGET_MS)})`,
  );
  console.log(`  sandboxed, proxy relay for allowed hosts: +${addedProxy.toFixed(1)} ms (not targeted)`);
}

// Yoke's own share of each command: from the policy to bwrap's argument vector (stats of the
// protected paths, the git config, placeholders), without starting anything.
const WRAPS = 500;
const wrapStarted = process.hrtime.bigint();
for (let i = 0; i < WRAPS; i++)
  offline.wrap({ shell: '/bin/sh', shellArgs: ['-c', 'true'], cwd: project, writableFiles: [] }).finish('');
const perWrap = Number(process.hrtime.bigint() - wrapStarted) / 1e6 / WRAPS;
console.log(
  `Yoke's part of it (policy to bwrap arguments): ${perWrap.toFixed(2)} ms per command; the rest is bubblewrap`,
);

await offline.dispose();
await proxied.dispose();
rmSync(work, { recursive: true, force: true });
