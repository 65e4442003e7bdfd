// Core tool figures, calling the real tools (src/tools/builtin) the way the runner does (input
// validated by the tool's schema, then `call`).
// (a) Grep in files_with_matches mode over this repo's installed node_modules, next to plain rg
//     run with the very argv Grep builds (same binary, same flags, output collected in Node).
//     Median of RUNS each, after a warm-up that fills the page cache. Target: Yoke <= 1.2x rg.
// (b) Read of a 10 MB text file: the first page (default limit) and a page deep in the file.
// (c) Glob `**/*.ts` over 100,000 files (100 dirs x 1000 empty files, half of them .ts) in a
//     temporary folder that is deleted afterwards.
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSources, loadLine, median, root, verdict } from './_bundle.mjs';

const y = await importSources(
  'tools',
  `
export { grepTool } from './src/tools/builtin/grep';
export { buildGrepArgs } from './src/tools/builtin/grep/args';
export { readTool } from './src/tools/builtin/read';
export { globTool } from './src/tools/builtin/glob';
export { resolveRipgrep } from './src/tools/builtin/shared/ripgrep';
export { makeTestContext, callTool } from './src/tools/builtin/shared/test-context';
`,
);

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const GREP_TARGET = 1.2;
const since = (t0) => performance.now() - t0;
const ms = (x) => `${x.toFixed(1)} ms`;

async function timed(fn) {
  const t0 = performance.now();
  const value = await fn();
  return { ms: since(t0), value };
}

/** Runs `rg` with `args` in `cwd`, collecting stdout as Grep's runner does. */
function rg(bin, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('close', () => resolve(out.split('\n').filter(Boolean).length));
  });
}

console.log(loadLine());
const sessionDirs = [];
const context = (cwd) => {
  const ctx = y.makeTestContext({ cwd });
  sessionDirs.push(ctx.sessionDir);
  return ctx;
};

// (a) Grep vs rg.
{
  const cwd = join(root, 'node_modules');
  const ctx = context(cwd);
  const bin = await y.resolveRipgrep(process.env);
  for (const pattern of ['AbortSignal', 'export default']) {
    const args = y.buildGrepArgs({ pattern, mode: 'files_with_matches' }, '.');
    const input = { pattern, output_mode: 'files_with_matches', head_limit: 0 };
    await rg(bin, args, cwd);
    await y.callTool(y.grepTool, input, ctx);
    const yoke = [];
    const plain = [];
    let files = 0;
    let yokeFiles = 0;
    for (let i = 0; i < RUNS; i++) {
      // Alternated so a burst of load on the box hits both sides alike.
      const r = await timed(() => rg(bin, args, cwd));
      plain.push(r.ms);
      files = r.value;
      const g = await timed(() => y.callTool(y.grepTool, input, ctx));
      yoke.push(g.ms);
      yokeFiles = g.value.data.numFiles;
    }
    if (yokeFiles !== files) throw new Error(`Grep found ${yokeFiles} files, rg ${files}`);
    const ratio = median(yoke) / median(plain);
    console.log(
      `Grep "${pattern}" files_with_matches over node_modules (${files} files match), median of ${RUNS}: ` +
        `Yoke ${ms(median(yoke))}, rg ${ms(median(plain))} -> ${ratio.toFixed(2)}x  ` +
        `target <= ${GREP_TARGET}x  ${verdict(ratio <= GREP_TARGET)}`,
    );
  }
  console.log(
    `  rg binary ${bin}; argv ${JSON.stringify(y.buildGrepArgs({ pattern: 'P', mode: 'files_with_matches' }, '.'))}`,
  );
}

// tmpfs when there is one: creating and deleting 100k files on a busy disk can take half a minute.
const scratch = (() => {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
})();
const work = mkdtempSync(join(scratch, 'yoke-bench-tools-'));
try {
  // (b) Read of a 10 MB file.
  {
    const line = (i) =>
      `${String(i).padStart(7, '0')} const value = computeSomething(input, options); // a typical line\n`;
    const parts = [];
    let size = 0;
    let count = 0;
    while (size < 10 * 1024 * 1024) {
      const l = line(++count);
      parts.push(l);
      size += l.length;
    }
    const file = join(work, 'big.ts');
    writeFileSync(file, parts.join(''));
    const ctx = context(work);
    const deep = count - 1000;
    for (const [label, input] of [
      ['first page (default limit)', { file_path: file }],
      [`offset ${deep} (limit 500)`, { file_path: file, offset: deep, limit: 500 }],
    ]) {
      await y.callTool(y.readTool, input, ctx);
      const times = [];
      let result;
      for (let i = 0; i < RUNS; i++) {
        const r = await timed(() => y.callTool(y.readTool, input, ctx));
        times.push(r.ms);
        result = r.value.data.file;
      }
      console.log(
        `Read 10 MB text file (${count} lines), ${label}: median ${ms(median(times))} of ${RUNS} ` +
          `(lines ${result.startLine}-${result.startLine + result.numLines - 1}) — no target, reported`,
      );
    }
  }

  // (c) Glob over 100k files.
  {
    const tree = join(work, 'tree');
    const t0 = performance.now();
    for (let d = 0; d < 100; d++) {
      const dir = join(tree, `dir${d}`);
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 1000; f++) writeFileSync(join(dir, `file${f}.${f % 2 === 0 ? 'ts' : 'js'}`), '');
    }
    const setupMs = since(t0);
    const ctx = context(tree);
    const input = { pattern: '**/*.ts' };
    await y.callTool(y.globTool, input, ctx);
    const times = [];
    let data;
    for (let i = 0; i < Math.min(RUNS, 5); i++) {
      const r = await timed(() => y.callTool(y.globTool, input, ctx));
      times.push(r.ms);
      data = r.value.data;
    }
    console.log(
      `Glob "**/*.ts" over 100,000 files: median ${ms(median(times))} of ${times.length}, ` +
        `${data.totalMatches} matches (${data.numFiles} returned) — no target, reported ` +
        `(tree in ${scratch}, created in ${ms(setupMs)})`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
  for (const dir of sessionDirs) rmSync(dir, { recursive: true, force: true });
}
