// Shared by the benches that time the built CLI (run.mjs skips files starting with `_`): a mock
// model server in this process that answers every request with "Hello!" and notes when the first
// one arrived, the environment that points `dist/yoke.js` at it, and a spawn that resolves with
// the time from just before spawn to that first request, plus on request the child's peak RSS or
// its CPU time (user + system, steadier than wall time on a shared machine).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { importSources, root } from './_bundle.mjs';

export const entry = join(root, 'dist', 'yoke.js');

/** Exits with a hint when the CLI is not built. */
export function requireBuild(bench) {
  if (existsSync(entry)) return;
  console.error(`${bench}: dist/yoke.js is missing; run \`npm run build\` first.`);
  process.exit(1);
}

const MARK = 'YOKE_BENCH_USAGE=';
// The child's own figures at exit: peak RSS (KB) and CPU time (µs).
const hook = `data:text/javascript,process.on('exit',()=>{const u=process.resourceUsage();process.stderr.write('\\n${MARK}'+u.maxRSS+','+(u.userCPUTime+u.systemCPUTime)+'\\n')})`;

/** Whether GNU time works here: peak RSS as cold-start.mjs takes it, else the exit hook's. */
async function gnuTimeWorks() {
  if (process.env.BENCH_RSS_METHOD === 'hook' || !existsSync('/usr/bin/time')) return false;
  return new Promise((resolve) => {
    const child = spawn('/usr/bin/time', ['-f', `${MARK}%M`, 'true'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0 && new RegExp(`${MARK}\\d+`).test(err)));
  });
}

/**
 * Starts the mock server. `run(args, { cwd, measure, extraEnv })` spawns `node <args>` and
 * resolves with `{ firstRequestMs, stdout, rssMb?, cpuMs? }`; `measure` is 'rss' or 'cpu'.
 */
export async function startCliBench(name, { home }) {
  const { startMockServer } = await importSources(
    name,
    `export { startMockServer } from './src/testing/mock-server';`,
  );
  let arrivedAt;
  const server = await startMockServer({
    scenario: [
      {
        repeat: 'forever',
        reply: () => {
          arrivedAt ??= performance.now();
          return { content: [{ type: 'text', text: 'Hello!' }] };
        },
      },
    ],
  });
  const env = {
    ...process.env,
    ANTHROPIC_API_KEY: 'sk-ant-bench',
    ANTHROPIC_BASE_URL: server.url,
    YOKE_HOME: home,
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
  };
  for (const key of ['ANTHROPIC_AUTH_TOKEN', 'OPENAI_API_KEY', 'OPENAI_BASE_URL']) delete env[key];
  const useGnuTime = await gnuTimeWorks();

  function run(args, { cwd, measure, extraEnv = {} }) {
    return new Promise((resolve, reject) => {
      const useTime = measure === 'rss' && useGnuTime;
      const [cmd, argv] = useTime
        ? ['/usr/bin/time', ['-f', `${MARK}%M`, process.execPath, ...args]]
        : [process.execPath, measure ? ['--import', hook, ...args] : args];
      arrivedAt = undefined;
      const startedAt = performance.now();
      const child = spawn(cmd, argv, {
        cwd,
        env: { ...env, ...extraEnv },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => {
        stdout += d;
      });
      child.stderr.on('data', (d) => {
        stderr += d;
      });
      child.on('error', reject);
      child.on('close', (code) => {
        if (code !== 0 || arrivedAt === undefined) {
          reject(
            new Error(
              `node ${args.join(' ')} in ${cwd} exited ${code} (request seen: ${arrivedAt !== undefined})\n${stdout}\n${stderr}`,
            ),
          );
          return;
        }
        const m = new RegExp(`${MARK}(\\d+)(?:,(\\d+))?`).exec(stderr);
        if (measure && !m) {
          reject(new Error(`the ${measure} measurement failed: ${stderr}`));
          return;
        }
        resolve({
          firstRequestMs: arrivedAt - startedAt,
          stdout,
          ...(measure === 'rss' && m ? { rssMb: Number(m[1]) / 1024 } : {}),
          ...(measure === 'cpu' && m?.[2] ? { cpuMs: Number(m[2]) / 1000 } : {}),
        });
      });
    });
  }

  return {
    server,
    run,
    rssMethod: useGnuTime
      ? 'GNU /usr/bin/time -f %M'
      : 'process.resourceUsage().maxRSS from an --import exit hook',
    close: () => server.close(),
  };
}
