// MCP start-up. (1) Connecting 5 stdio servers (the test fixture server, a Node process each):
// all at once as a session does, against one after another; the parallel start should take well
// under the sequential one (target: at most 0.5x). (2) Proof that the first model request does not
// wait for MCP servers: `yoke -p` with 5 servers that never finish starting reaches the mock
// server about as soon as a run without them (target: within 1.3x plus 100 ms), and that request
// names the servers as still connecting.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSources, loadLine, median, root, verdict } from './_bundle.mjs';

const { McpManager, connectionOptionsFromEnv, startMockServer } = await importSources(
  'mcp',
  `export { McpManager, connectionOptionsFromEnv } from './src/mcp/manager';
   export { startMockServer } from './src/testing/mock-server';`,
);

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SERVERS = 5;
const FIXTURE = join(root, 'test/fixtures/mcp/fixture-server.mjs');
const work = realpathSync(mkdtempSync(join(tmpdir(), 'yoke-bench-mcp-')));
const env = { ...process.env };

const servers = (extraArgs = []) =>
  Array.from({ length: SERVERS }, (_, i) => ({
    name: `s${i}`,
    source: 'dynamic',
    config: { type: 'stdio', command: process.execPath, args: [FIXTURE, ...extraArgs], env: {} },
  }));

async function connect(list) {
  const manager = new McpManager(list, connectionOptionsFromEnv(env, work));
  const started = performance.now();
  manager.start();
  await manager.whenSettled();
  const ms = performance.now() - started;
  if (!manager.statuses().every((s) => s.status === 'connected'))
    throw new Error('a server failed to connect');
  await manager.close();
  return ms;
}

const parallel = [];
const sequential = [];
for (let run = 0; run < RUNS; run++) {
  parallel.push(await connect(servers()));
  let total = 0;
  for (const server of servers()) total += await connect([server]);
  sequential.push(total);
}
const ratio = median(parallel) / median(sequential);
console.log(loadLine());
console.log(
  `connect ${SERVERS} stdio servers: parallel ${median(parallel).toFixed(0)} ms, one after another ${median(sequential).toFixed(0)} ms, ratio ${ratio.toFixed(2)} (target ≤ 0.5) ${verdict(ratio <= 0.5)}`,
);

// (2) The first request with 5 servers stuck in their handshake.
let arrivedAt;
let firstBody;
const mock = await startMockServer({
  scenario: [
    {
      repeat: 'forever',
      reply: (request) => {
        arrivedAt ??= performance.now();
        firstBody ??= request.body;
        return { content: [{ type: 'text', text: 'ok' }] };
      },
    },
  ],
});
const home = join(work, 'home');
mkdirSync(home, { recursive: true });
const cliEnv = {
  ...process.env,
  ANTHROPIC_API_KEY: 'sk-bench',
  ANTHROPIC_BASE_URL: mock.url,
  YOKE_HOME: home,
  CLAUDE_CONFIG_DIR: join(home, '.claude'),
};
for (const key of ['ANTHROPIC_AUTH_TOKEN', 'OPENAI_API_KEY', 'OPENAI_BASE_URL']) delete cliEnv[key];
const stuck = JSON.stringify({
  mcpServers: Object.fromEntries(
    servers(['--wait-for', join(work, 'never')]).map((s) => [
      s.name,
      { command: s.config.command, args: s.config.args },
    ]),
  ),
});

function firstRequestMs(args) {
  return new Promise((resolve, reject) => {
    arrivedAt = undefined;
    firstBody = undefined;
    const started = performance.now();
    const child = spawn(process.execPath, [join(root, 'dist/yoke.js'), '-p', 'hi', ...args], {
      cwd: work,
      env: cliEnv,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => {
      if (code !== 0 || arrivedAt === undefined) reject(new Error(`yoke exited ${code}: ${stderr}`));
      else resolve(arrivedAt - started);
    });
  });
}

const without = [];
const withServers = [];
for (let run = 0; run < RUNS; run++) {
  without.push(await firstRequestMs([]));
  withServers.push(await firstRequestMs(['--mcp-config', stuck]));
}
const named = JSON.stringify(firstBody).includes('MCP server \\"s0\\" is still connecting');
const limit = median(without) * 1.3 + 100;
console.log(
  `first request: without MCP ${median(without).toFixed(0)} ms, with ${SERVERS} servers stuck starting ${median(withServers).toFixed(0)} ms (target ≤ ${limit.toFixed(0)} ms) ${verdict(median(withServers) <= limit)}; pending servers named in it: ${named ? 'yes' : 'NO'}`,
);
await mock.close();
rmSync(work, { recursive: true, force: true });
