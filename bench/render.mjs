// The REPL's cost per rendered frame, in-process: the real App (src/tui/app.tsx) on Yoke's Ink
// (its vendor edits and the frame writer, bundled with the build's own plugin) writes to a fake
// 100x100 terminal. Two scenarios, each in a fresh process so its first renders are cold:
// - idle: keys typed at the prompt, each one render;
// - streaming: an answer of ~25 rows of markdown on screen (a code fence growing by a line per
//   render), the input box and the status line; a render for each streamed line and one for a
//   key typed between two of them.
// Each render is timed from the change (a key, a delta) to its bytes reaching the terminal (React
// renders in a microtask after the change), in wall time and in this process's CPU time (all its
// threads: the garbage collector's helpers count too; not read under --cpu-prof). Cold is the first 20 renders, warm the median/p99 of the rest
// (RENDERS, default 500). The bytes the terminal received are hashed: a change that makes renders
// cheaper must leave the hash as it was. `--cpu-prof` profiles the warm renders in-process and
// prints where their time went (self time by module of the bundle); the profile is kept.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { inkForCommonJs } from '../scripts/esbuild-plugins.mjs';
import { cachePath, loadLine, median, quantile, root } from './_bundle.mjs';
import { selfTimeByModule } from './_profile.mjs';

const COLD = 20;
const RENDERS = Number(process.env.RENDERS ?? 500);
const COLUMNS = 100;
const ROWS = 100;

const entry = `
export { render, Box, Text } from 'ink';
export { createElement } from 'react';
export { yogaReady } from './scripts/yoga-shim.mjs';
export { App } from './src/tui/app';
export { ReplSession } from './src/tui/session/repl-session';
export { streamFrame } from './src/tui/session/scripted-engine';
export { StyleContext } from './src/tui/views/style-context';
export { colourStyle } from './src/tui/views/ansi';
export { Keyboard } from './src/tui/input/keyboard';
export { KeyboardContext } from './src/tui/input/use-keys';
`;

/** Bundles the views with Ink as the build makes it (React's production build, Yoke's edits). */
async function bundle(outfile) {
  await build({
    stdin: { contents: entry, resolveDir: root, loader: 'ts', sourcefile: 'bench-render-entry.ts' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile,
    jsx: 'automatic',
    loader: { '.md': 'text' },
    define: { YOKE_VERSION: '"bench"', 'process.env.NODE_ENV': '"production"' },
    // The CommonJS parts (React) require built-ins.
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
    plugins: [inkForCommonJs({ root })],
    logLevel: 'error',
  });
}

/** A terminal that keeps what it is sent; `writes` counts the writes, to see a render arrive. */
class FakeTerminal extends EventEmitter {
  isTTY = true;
  columns = COLUMNS;
  rows = ROWS;
  writes = 0;
  hash = createHash('sha256');
  bytes = 0;
  /** Reading the CPU clock costs; under the profiler it would be a sixth of the profile. */
  readCpu = () => process.cpuUsage();
  write(chunk) {
    this.writes++;
    // The first write after a change ends its render (the CPU clock is read only then: it costs).
    if (this.timing) {
      this.timing = false;
      this.lastWriteAt = performance.now();
      this.lastWriteCpu = this.readCpu();
      this.onWrite?.();
    }
    this.bytes += Buffer.byteLength(chunk);
    this.hash.update(chunk);
    return true;
  }
}

class FakeKeyboardInput extends EventEmitter {
  isTTY = false;
  setEncoding() {}
  setRawMode() {}
  ref() {}
  unref() {}
  read() {
    return null;
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 2));
/** The App's transcript is throttled to a frame per 50 ms; a delta after that renders at once. */
const frameGap = () => new Promise((resolve) => setTimeout(resolve, 52));

/**
 * The answer streamed, over and over: prose, a list, then a code fence that grows a line per delta
 * to 30 lines and closes (a settled block goes to the scrollback, so the live block stays ~25 rows).
 */
function* answerDeltas() {
  for (let part = 0; ; part++) {
    yield `Here is **part ${part}** of the parser, with \`tokenize\` split out:\n\n`;
    yield '- reads the input once\n- keeps *positions* for errors, even for 界 and 🙂\n\n';
    yield '```ts\n';
    for (let i = 0; i < 30; i++)
      yield `export function step${i}(input: string, at = ${i}): number { return input.charCodeAt(at) ?? -1; } // 界 ${i}\n`;
    yield '```\n\n';
  }
}

async function runChild(bundlePath, scenario, profile) {
  const v = await import(pathToFileURL(bundlePath).href);
  await v.yogaReady;
  const terminal = new FakeTerminal();
  if (profile) terminal.readCpu = () => ({ user: 0, system: 0 });
  const keyboard = new v.Keyboard();
  const session = new v.ReplSession();
  const h = v.createElement;
  const app = h(v.App, {
    session,
    cwd: '/project',
    actions: {
      submit: () => {},
      exit: () => {},
      suspend: () => {},
      editExternally: () => undefined,
      complete: async () => [],
    },
    history: () => [],
    contextWindow: () => 200_000,
    backgroundShells: () => 0,
  });
  const instance = v.render(
    h(
      v.StyleContext.Provider,
      { value: v.colourStyle },
      h(v.KeyboardContext.Provider, { value: keyboard }, app),
    ),
    {
      stdout: terminal,
      stdin: new FakeKeyboardInput(),
      exitOnCtrlC: false,
      maxFps: 1000,
      patchConsole: false,
    },
  );
  await tick();

  /** Times one render: from the change to its first write; null when nothing came in 200 ms. */
  const timed = async (change) => {
    const before = terminal.writes;
    terminal.timing = true;
    const cpu = terminal.readCpu();
    const start = performance.now();
    change();
    if (terminal.writes === before) {
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, 200);
        terminal.onWrite = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      terminal.onWrite = undefined;
    }
    terminal.timing = false;
    if (terminal.writes === before) return null;
    const used = {
      user: terminal.lastWriteCpu.user - cpu.user,
      system: terminal.lastWriteCpu.system - cpu.system,
    };
    // The CPU time too: on a machine shared with other work it moves far less than the wall time.
    return [terminal.lastWriteAt - start, (used.user + used.system) / 1000];
  };
  let typed = 0;
  /** A key at the prompt: a letter, and every 40th key Ctrl+U clears the line again. */
  const key = () =>
    timed(() =>
      keyboard.dispatch(
        ++typed % 40 === 0
          ? { type: 'key', name: 'u', ctrl: true, meta: false, shift: false }
          : { type: 'text', text: String.fromCharCode(97 + (typed % 26)) },
      ),
    );
  const deltas = answerDeltas();
  const delta = () =>
    timed(() =>
      session.transcript.apply(
        v.streamFrame({
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text: deltas.next().value },
        }),
      ),
    );

  const series = { key: [], stream: [] };
  const cpuSeries = { key: [], stream: [] };
  let missed = 0;
  const record = (name, times) => {
    if (times === null) missed++;
    else {
      series[name].push(times[0]);
      cpuSeries[name].push(times[1]);
    }
  };
  let profiler;
  const total = COLD + RENDERS;
  if (scenario === 'streaming') {
    session.transcript.apply(
      v.streamFrame({
        type: 'message_start',
        message: { id: 'msg', usage: { input_tokens: 1000, output_tokens: 1 } },
      }),
    );
    session.transcript.apply(
      v.streamFrame({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    );
  }
  for (let i = 0; i < total; i++) {
    if (i === COLD && profile) {
      profiler = new Session();
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.setSamplingInterval', { interval: 100 });
      await profiler.post('Profiler.start');
    }
    if (scenario === 'streaming') {
      await frameGap();
      record('stream', await delta());
      await tick();
      record('key', await key());
    } else {
      await tick();
      record('key', await key());
    }
  }
  let profilePath;
  if (profiler) {
    const { profile: data } = await profiler.post('Profiler.stop');
    profilePath = join(tmpdir(), `yoke-bench-render-${scenario}-${process.pid}.cpuprofile`);
    writeFileSync(profilePath, JSON.stringify(data));
  }
  instance.unmount();
  process.stdout.write(
    JSON.stringify({
      series,
      cpuSeries,
      missed,
      bytes: terminal.bytes,
      hash: terminal.hash.digest('hex').slice(0, 16),
      profilePath,
    }),
  );
}

const fmt = (ms) => ms.toFixed(2);
function describe(name, values) {
  if (values.length === 0) return `  ${name}: no renders`;
  const cold = values.slice(0, COLD);
  const warm = [...values.slice(COLD)].sort((a, b) => a - b);
  return `  ${name}: cold (first ${cold.length}) median ${fmt(median(cold))} ms, max ${fmt(Math.max(...cold))} ms; warm median ${fmt(quantile(warm, 0.5))} ms, p99 ${fmt(quantile(warm, 0.99))} ms over ${warm.length}`;
}

if (process.argv[2] === '--child') {
  await runChild(process.argv[3], process.argv[4], process.argv[5] === 'profile');
} else {
  const profile = process.argv.includes('--cpu-prof');
  const bundlePath = cachePath('render');
  await bundle(bundlePath);
  try {
    console.log(loadLine());
    console.log(
      `the REPL's App on Yoke's Ink into a fake ${COLUMNS}x${ROWS} terminal; a render = change to bytes written`,
    );
    for (const scenario of ['idle', 'streaming']) {
      const child = spawnSync(
        process.execPath,
        [fileURLToPath(import.meta.url), '--child', bundlePath, scenario, profile ? 'profile' : ''],
        { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
      );
      if (child.status !== 0) {
        console.error(`render: the ${scenario} run failed: ${child.stderr}`);
        process.exit(1);
      }
      const r = JSON.parse(child.stdout);
      console.log(
        `${scenario}: terminal got ${r.bytes} bytes, sha256 ${r.hash}${r.missed ? `; ${r.missed} changes wrote nothing at once` : ''}`,
      );
      if (scenario === 'streaming') console.log(describe('streamed line', r.series.stream));
      console.log(describe('key', r.series.key));
      if (!profile) {
        if (scenario === 'streaming') console.log(describe('streamed line, CPU', r.cpuSeries.stream));
        console.log(describe('key, CPU', r.cpuSeries.key));
      }
      if (r.profilePath) {
        console.log(`  warm renders' self time (${r.profilePath}):`);
        for (const line of selfTimeByModule(r.profilePath, readFileSync(bundlePath, 'utf8')))
          console.log(line);
      }
    }
  } finally {
    rmSync(bundlePath, { force: true });
  }
}
