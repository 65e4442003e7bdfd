// Core tool figures, calling the real tools (src/tools/builtin) the way the runner does (input
// validated by the tool's schema, then `call`).
// (a) Grep in files_with_matches mode over this repo's installed node_modules, next to plain rg
//     run with the very argv Grep builds (same binary, same flags, output collected in Node).
//     Median of RUNS each, after a warm-up that fills the page cache. Target: Yoke <= 1.2x rg.
// (b) Read of a 10 MB text file: the first page (default limit) and a page deep in the file.
// (c) Glob `**/*.ts` over 100,000 files (100 dirs x 1000 empty files, half of them .ts) in a
//     temporary folder that is deleted afterwards.
// (d) Read of a 200 MB text file with offset/limit (a page near the start, the middle, the end)
//     and of a file that is one 200 MB line: time and peak RSS growth, each read in a fresh
//     process, next to loading the file whole (readFile + decode) as a read used to.
import { spawn, spawnSync } from 'node:child_process';
import {
  accessSync,
  closeSync,
  constants,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleTo, cachePath, importSources, loadLine, median, root, verdict } from './_bundle.mjs';

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

/** Reads the files once so every case finds them in the page cache. */
async function warmPageCache(...paths) {
  const { createReadStream } = await import('node:fs');
  for (const path of paths) for await (const _ of createReadStream(path, { highWaterMark: 1 << 20 }));
}
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

  // (d) Read of 200 MB: each case in its own process, so its peak RSS is its own.
  {
    const MB = 1024 * 1024;
    const bundle = await bundleTo(
      cachePath('tools-read'),
      `export { readTool } from './src/tools/builtin/read';
       export { makeTestContext, callTool } from './src/tools/builtin/shared/test-context';`,
    );
    const line = (i) =>
      `${String(i).padStart(8, '0')} const value = computeSomething(input, options); // a typical line\n`;
    const logFile = join(work, 'big.log');
    let lines = 0;
    {
      const fd = openSync(logFile, 'w');
      let size = 0;
      while (size < 200 * MB) {
        const block = [];
        for (let i = 0; i < 10_000; i++) block.push(line(++lines));
        const text = block.join('');
        writeSync(fd, text);
        size += text.length;
      }
      closeSync(fd);
    }
    const lineFile = join(work, 'one-line.min.js');
    {
      const fd = openSync(lineFile, 'w');
      const chunk = Buffer.alloc(MB, 'x');
      for (let i = 0; i < 200; i++) writeSync(fd, chunk);
      writeSync(fd, '\nend\n');
      closeSync(fd);
    }
    // Prints {ms, peakMB}: the growth of the peak RSS over what the loaded modules already took.
    const probe = (body) => `
      const y = await import(${JSON.stringify(pathToFileURL(bundle).href)});
      const { readFile } = await import('node:fs/promises');
      const ctx = y.makeTestContext({ cwd: ${JSON.stringify(work)} });
      const before = process.resourceUsage().maxRSS;
      const t0 = performance.now();
      const note = await (async () => { ${body} })();
      const ms = performance.now() - t0;
      const peakMB = (process.resourceUsage().maxRSS - before) / 1024;
      console.log(JSON.stringify({ ms, peakMB, note }));
      (await import('node:fs')).rmSync(ctx.sessionDir, { recursive: true, force: true });
    `;
    const measure = (body) => {
      const runs = [];
      for (let i = 0; i < Math.min(RUNS, 3); i++) {
        const out = spawnSync(process.execPath, ['--input-type=module', '-e', probe(body)], {
          cwd: root,
          encoding: 'utf8',
        });
        if (out.status !== 0) throw new Error(out.stderr);
        runs.push(JSON.parse(out.stdout.trim().split('\n').pop()));
      }
      return {
        ms: median(runs.map((r) => r.ms)),
        peakMB: median(runs.map((r) => r.peakMB)),
        note: runs[0].note,
      };
    };
    const readCase = (input) => `
      const r = await y.callTool(y.readTool, ${JSON.stringify(input)}, ctx);
      return 'lines ' + r.data.file.startLine + '-' + (r.data.file.startLine + r.data.file.numLines - 1);`;
    const cases = [
      ['200 MB log, offset 1 limit 2000', readCase({ file_path: logFile, offset: 1, limit: 2000 })],
      [
        `200 MB log, offset ${Math.floor(lines / 2)} limit 500`,
        readCase({ file_path: logFile, offset: Math.floor(lines / 2), limit: 500 }),
      ],
      [
        `200 MB log, offset ${lines - 500} limit 500`,
        readCase({ file_path: logFile, offset: lines - 500, limit: 500 }),
      ],
      ['200 MB single line, offset 1 limit 1', readCase({ file_path: lineFile, offset: 1, limit: 1 })],
      [
        '(loading the 200 MB log whole: readFile + utf8 decode)',
        `const t = (await readFile(${JSON.stringify(logFile)})).toString('utf8'); return t.length + ' chars';`,
      ],
    ];
    await warmPageCache(logFile, lineFile);
    for (const [label, body] of cases) {
      const r = measure(body);
      console.log(
        `Read ${label}: median ${ms(r.ms)}, peak RSS +${r.peakMB.toFixed(0)} MB (${r.note}) — no target, reported`,
      );
    }
    rmSync(bundle, { force: true });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
  for (const dir of sessionDirs) rmSync(dir, { recursive: true, force: true });
}
