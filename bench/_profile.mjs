// Shared by the bench scripts (run.mjs skips files starting with `_`): where a CPU profile's time
// went, by the modules of an unminified esbuild bundle (esbuild marks each with a `// path` line).
import { readFileSync } from 'node:fs';

/** Self time of a profile by the bundle's module (esbuild marks each with a `// path` comment). */
export function selfTimeByModule(profilePath, bundleText) {
  const marks = [];
  bundleText.split('\n').forEach((line, index) => {
    const m = /^\/\/ ((?:node_modules|src|scripts)\/\S+)$/.exec(line);
    if (m) marks.push([index, m[1]]);
  });
  const moduleAt = (line) => {
    let lo = 0;
    let hi = marks.length - 1;
    let found = '(bundle)';
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (marks[mid][0] <= line) {
        found = marks[mid][1];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
  const profile = JSON.parse(readFileSync(profilePath, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const modules = new Map();
  const functions = new Map();
  const add = (map, label, us) => map.set(label, (map.get(label) ?? 0) + us);
  const deltas = profile.timeDeltas;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id).callFrame;
    // Waiting for the next change is not the renders' time.
    if (frame.functionName === '(idle)' || frame.functionName === '(program)') return;
    const module = frame.url.includes('yoke-bench-render')
      ? moduleAt(frame.lineNumber)
      : frame.url
        ? frame.url.replace(/^.*\/node_modules\//, 'node_modules/')
        : `(${frame.functionName || 'native'})`;
    add(modules, module, deltas[i] ?? 0);
    add(functions, `${frame.functionName || '(anonymous)'}  ${module.replace(/^.*\//, '')}`, deltas[i] ?? 0);
  });
  const all = [...modules.values()].reduce((s, x) => s + x, 0);
  const top = (map, n) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([label, us]) => `    ${((100 * us) / all).toFixed(1).padStart(5)}%  ${label}`);
  return [
    `  busy ${(all / 1000).toFixed(0)} ms, by module:`,
    ...top(modules, 12),
    '  by function:',
    ...top(functions, 12),
  ];
}
