// ast_grep over a large tree: the TypeScript compiler's own sources as they ship in
// node_modules/typescript/lib (its .d.ts files; the .js bundles are over the 2 MiB a file may
// have) plus this repository's src/, searched for every method call (`$O.$M($$$A)`). Compared
// with @ast-grep/napi's findInFiles on the same folder — ast-grep's Rust walker and parser with
// no permission checks — so the figure is what Yoke's listing, deny rules and per-file parse cost.
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join } from 'node:path';
import { importSources, loadLine, median, root } from './_bundle.mjs';

const y = await importSources(
  'ast-grep',
  `
export { astGrepTool } from './src/tools/builtin/ast-grep';
export { makeTestContext } from './src/tools/builtin/shared/test-context';
`,
);
const napi = createRequire(import.meta.url)('@ast-grep/napi');

const tree = mkdtempSync(join(os.tmpdir(), 'yoke-bench-ast-'));
cpSync(join(root, 'src'), join(tree, 'src'), { recursive: true });
const tsLib = join(root, 'node_modules/typescript/lib');
for (const name of readdirSync(tsLib).filter((n) => n.endsWith('.d.ts')))
  cpSync(join(tsLib, name), join(tree, 'lib', name));
const files = readdirSync(tree, { recursive: true }).filter((n) => String(n).endsWith('.ts')).length;

const PATTERN = '$O.$M($$$A)';
const RUNS = 5;

async function viaTool() {
  const context = y.makeTestContext({ cwd: tree });
  const input = y.astGrepTool.inputSchema.parse({ pattern: PATTERN, language: 'typescript', max_results: 1 });
  const result = await y.astGrepTool.call(input, context, () => {});
  return result.data.totalMatches;
}

async function viaNapi() {
  let matches = 0;
  await napi.findInFiles(
    napi.Lang.TypeScript,
    { paths: [tree], matcher: { rule: { pattern: PATTERN } } },
    (error, nodes) => {
      if (!error) matches += nodes.length;
    },
  );
  return matches;
}

async function time(fn) {
  const ms = [];
  let found = 0;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    found = await fn();
    ms.push(performance.now() - start);
  }
  return { ms: median(ms), found };
}

await viaTool(); // loads napi and the grammars once, as a session's first call would
const tool = await time(viaTool);
const direct = await time(viaNapi);
rmSync(tree, { recursive: true, force: true });

console.log(loadLine());
console.log(`${files} .ts files, pattern ${PATTERN}`);
console.log(
  `ast_grep (listing, deny rules, parse, match): ${tool.ms.toFixed(0)} ms median of ${RUNS}, ${tool.found} matches`,
);
console.log(
  `napi findInFiles (ast-grep's own walker):   ${direct.ms.toFixed(0)} ms median of ${RUNS}, ${direct.found} matches`,
);
console.log(`ratio: ${(tool.ms / direct.ms).toFixed(1)}x`);
