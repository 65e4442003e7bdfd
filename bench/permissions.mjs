// Permission figures. (a) The decision for a 20-segment compound Bash command through the real
// decision (`createCanUseTool`: parse, per-segment rules, read-only analysis, paths resolved
// through symlinks), with a few allow rules, after the bash parser is loaded and one decision has
// warmed it up. Analysis only: no Read deny rule, so no folder walk. Median of RUNS decisions;
// target < 1 ms. (b) The bounded walk a recursive search needs when a Read deny rule exists:
// `grep -r KEY .` over a scratch folder of WALK_ENTRIES entries, each decision in a new turn (the
// walk runs every time) and in the same turn (the turn's cached listing). (c) The bash parser's
// cold load in a fresh Node process: `loadBashParser()` (import of web-tree-sitter, both wasm
// files, language setup), timed inside a tiny bundled script, median of COLD_RUNS processes;
// target < 60 ms. (d) The check of a git repository's own configuration (git-config-safety) on a
// real repository of 200 files: a cold probe (git rev-parse, config and ls-files), a warm answer
// from the session cache (a stat of each file that decides it), and decision (a) with that
// repository as the project.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleTo, cachePath, importSources, loadLine, median, quantile, verdict } from './_bundle.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const COLD_RUNS = 9;
const TARGET_DECISION_MS = 1;
const WALK_RUNS = Number(process.env.BENCH_WALK_RUNS ?? 30);
/** Just under the walk's bound (10 000 entries), so the whole folder is checked. */
const WALK_ENTRIES = 9_900;
const TARGET_LOAD_MS = 60;

const y = await importSources(
  'permissions',
  `
export { createCanUseTool } from './src/permissions/can-use-tool';
export { GitConfigSafety } from './src/permissions/git-config-safety';
export { parseRule } from './src/permissions/rule-string';
export { loadBashParser, parseCommand } from './src/services/bash-parser';
`,
);

console.log(loadLine());

const segments = [
  'git status',
  'ls -la',
  'cat a.txt | grep x',
  'npm test -- --run',
  'git diff --stat HEAD~1',
  'wc -l src/index.ts',
  'head -n 20 README.md',
  'npm run build',
  'find src -name "*.ts" | sort',
  'git log --oneline -n 5',
  'echo "done building"',
  'grep -rn TODO src | head -5',
  'make lint',
  'tail -n 50 build.log',
  'pwd',
  'git branch --show-current',
  'git show --stat HEAD',
  'du -sh src',
  'diff a.txt b.txt',
  'sort -u names.txt | uniq -c',
];
const command = segments.join(' && ');
/** The shell tool's facts as the decision sees them (tools/builtin/bash declares the same). */
const bash = {
  name: 'Bash',
  aliases: [],
  tier: 'exec',
  isMcp: false,
  access: 'shell',
  toAutoClassifierInput: () => '',
};
/** One call of the shell tool, run in `project` under `rules` in default mode. */
const bashCall = (project, rules, input, extra = {}) => ({
  tool: bash,
  input,
  toolUseId: 'toolu_1',
  context: {
    cwd: project,
    projectRoot: project,
    permissionContext: { mode: 'default', rules, additionalDirectories: [] },
    messages: [],
  },
  toolPermission: { behavior: 'passthrough' },
  isReadOnly: false,
  isDestructive: false,
  signal: new AbortController().signal,
  ...extra,
});

/** Prints median, p90 and min of RUNS warm decisions for `command` with `project` as the project. */
async function benchDecision(label, project, options = {}) {
  const rules = [
    'Bash(npm test:*)',
    'Bash(npm run build)',
    'Bash(make lint)',
    'Bash(git status)',
    'Read(/tmp/**)',
  ].map((text) => y.parseRule(text, 'allow', 'projectSettings'));
  const canUseTool = y.createCanUseTool({ home: '/home/u', ...options });
  const request = bashCall(project, rules, { command });
  const parsed = await y.parseCommand(command);
  const simple = parsed.segments?.length ?? '?';
  const first = await canUseTool(request);
  for (let i = 0; i < 100; i++) await canUseTool(request);
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await canUseTool(request);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const med = quantile(times, 0.5);
  console.log(
    `permission decision${label}, ${segments.length} commands joined by && (${simple} simple commands counting pipeline stages), ` +
      `${rules.length} allow rules -> ${first.behavior}:`,
  );
  console.log(
    `  median ${med.toFixed(3)} ms, p90 ${quantile(times, 0.9).toFixed(3)} ms, min ${times[0].toFixed(3)} ms over ${RUNS} runs  ` +
      `target < ${TARGET_DECISION_MS} ms  ${verdict(med < TARGET_DECISION_MS)}`,
  );
  if (first.behavior !== 'allow') console.log(`  (decision detail: ${first.message ?? ''})`);
}

// (a) Warm decision time.
await benchDecision('', '/home/u/proj');

// (b) The bounded walk of a recursive search, with a Read deny rule in force.
{
  const project = mkdtempSync(join(tmpdir(), 'yoke-bench-walk-'));
  try {
    for (let d = 0; d < 99; d++) {
      mkdirSync(join(project, `d${d}`));
      for (let f = 0; f < 99; f++) writeFileSync(join(project, `d${d}`, `f${f}.txt`), '');
    }
    const rules = [y.parseRule('Read(.env)', 'deny', 'projectSettings')];
    const canUseTool = y.createCanUseTool({ home: '/home/u' });
    const decide = (turn) =>
      canUseTool(
        bashCall(
          project,
          rules,
          { command: 'grep -r KEY .' },
          { isReadOnly: true, assistantMessage: { uuid: turn } },
        ),
      );
    const first = await decide('warm');
    const time = async (turnOf) => {
      const times = [];
      for (let i = 0; i < WALK_RUNS; i++) {
        const t0 = performance.now();
        await decide(turnOf(i));
        times.push(performance.now() - t0);
      }
      return median(times);
    };
    const walked = await time((i) => `turn-${i}`);
    const cached = await time(() => 'same-turn');
    console.log(
      `recursive search walk (grep -r KEY . over ${WALK_ENTRIES + 99} entries, 1 Read deny rule) -> ${first.behavior}:`,
    );
    console.log(
      `  new turn (walks): median ${walked.toFixed(2)} ms; same turn (cached listing): median ${cached.toFixed(3)} ms over ${WALK_RUNS} runs`,
    );
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

// (c) Cold parser load in fresh processes.
{
  const script = await bundleTo(
    cachePath('parser-cold'),
    `import { loadBashParser } from './src/services/bash-parser/loader';
const t0 = performance.now();
const parser = await loadBashParser();
const ms = performance.now() - t0;
if (!parser.parse('echo hi')) process.exit(1);
console.log(JSON.stringify({ ms }));`,
  );
  try {
    const times = [];
    spawnSync(process.execPath, [script]);
    for (let i = 0; i < COLD_RUNS; i++) {
      const r = spawnSync(process.execPath, [script], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`parser load failed: ${r.stderr}`);
      times.push(JSON.parse(r.stdout).ms);
    }
    const med = median(times);
    console.log(
      `bash parser cold load (loadBashParser() in a fresh process): median ${med.toFixed(1)} ms, ` +
        `min ${Math.min(...times).toFixed(1)} ms over ${COLD_RUNS} processes  target < ${TARGET_LOAD_MS} ms  ${verdict(med < TARGET_LOAD_MS)}`,
    );
  } finally {
    rmSync(script, { force: true });
  }
}

// (d) The git repository check on a real repository, cold and from the session cache.
{
  const repo = mkdtempSync(join(tmpdir(), 'yoke-bench-git-'));
  const git = (...args) => spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
  try {
    git('init', '-q', '.');
    for (let i = 0; i < 200; i++) {
      mkdirSync(join(repo, 'src', String(i % 10)), { recursive: true });
      writeFileSync(join(repo, 'src', String(i % 10), `f${i}.ts`), `export const x${i} = ${i};\n`);
    }
    git('add', '.');
    git('-c', 'user.email=b@example.invalid', '-c', 'user.name=bench', 'commit', '-qm', 'bench');
    const cold = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      const check = new y.GitConfigSafety({ changeSlackMs: 0 });
      const t0 = performance.now();
      await check.check(repo);
      cold.push(performance.now() - t0);
    }
    const session = new y.GitConfigSafety({ changeSlackMs: 0 });
    await session.check(repo);
    const warm = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await session.check(join(repo, 'src'));
      warm.push(performance.now() - t0);
    }
    warm.sort((a, b) => a - b);
    console.log(
      `git repository check (git-config-safety, ${session.probes} probes for ${RUNS + 1} checks): ` +
        `cold median ${median(cold).toFixed(1)} ms over ${COLD_RUNS} fresh sessions; ` +
        `cached median ${quantile(warm, 0.5).toFixed(3)} ms, p90 ${quantile(warm, 0.9).toFixed(3)} ms over ${RUNS}`,
    );
    await benchDecision(' in that repository', repo, { gitConfig: session });
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}
