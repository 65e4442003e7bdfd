// Permission figures. (a) The decision for a 20-segment compound Bash command through the real
// pipeline (`createCanUseTool`: parse, per-segment rules, read-only analysis, paths), with a few
// allow rules, after the bash parser is loaded and one decision has warmed it up. Median of
// RUNS decisions; target < 1 ms (issue 11). (b) The bash parser's cold load in a fresh Node process:
// `loadBashParser()` (import of web-tree-sitter, both wasm files, language setup), timed inside
// a tiny bundled script, median of COLD_RUNS processes; target < 60 ms.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { bundleTo, cachePath, importSources, loadLine, median, quantile, verdict } from './_bundle.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const COLD_RUNS = 9;
const TARGET_DECISION_MS = 1;
const TARGET_LOAD_MS = 60;

const y = await importSources(
  'permissions',
  `
export { createCanUseTool } from './src/permissions/can-use-tool';
export { parseRule } from './src/permissions/rule-string';
export { loadBashParser, parseCommand } from './src/services/bash-parser';
`,
);

console.log(loadLine());

// (a) Warm decision time.
{
  const PROJECT = '/home/u/proj';
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
  const tool = (name, tier) => ({ name, aliases: [], tier, isMcp: false, toAutoClassifierInput: () => '' });
  const rules = [
    'Bash(npm test:*)',
    'Bash(npm run build)',
    'Bash(make lint)',
    'Bash(git status)',
    'Read(/tmp/**)',
  ].map((text) => y.parseRule(text, 'allow', 'projectSettings'));
  const canUseTool = y.createCanUseTool({
    getContext: () => ({ mode: 'default', rules, additionalDirectories: [] }),
    tools: [tool('Bash', 'exec'), tool('Read', 'read'), tool('Edit', 'write')],
    projectRoot: PROJECT,
    home: '/home/u',
  });
  const request = {
    toolName: 'Bash',
    input: { command },
    toolUseId: 'toolu_1',
    toolPermission: { behavior: 'passthrough' },
    isReadOnly: false,
    signal: new AbortController().signal,
  };
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
    `permission decision, ${segments.length} commands joined by && (${simple} simple commands counting pipeline stages), ` +
      `${rules.length} allow rules -> ${first.behavior}:`,
  );
  console.log(
    `  median ${med.toFixed(3)} ms, p90 ${quantile(times, 0.9).toFixed(3)} ms, min ${times[0].toFixed(3)} ms over ${RUNS} runs  ` +
      `target < ${TARGET_DECISION_MS} ms  ${verdict(med < TARGET_DECISION_MS)}`,
  );
  if (first.behavior !== 'allow') console.log(`  (decision detail: ${first.message ?? ''})`);
}

// (b) Cold parser load in fresh processes.
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
