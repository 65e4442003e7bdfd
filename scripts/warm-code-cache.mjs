// Runs the fresh build once per way of starting (a `-p` run, a stream-json session, another
// command) against the bundled mock model server, so that the code caches those starts save
// exist when `npm install` finishes and the first real run is already a fast one. Everything
// runs in a throwaway home and project, with --bare so that no hook a machine-wide policy file
// might name runs during an install. A failure here only costs that first run its speed.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const TIMEOUT_MS = 20_000;

function run(entry, args, { env, cwd, input }) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.stdout.resume();
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else
        reject(new Error(`yoke ${args.join(' ')} exited ${code}: ${stderr.trim().split('\n').at(-1) ?? ''}`));
    });
    child.stdin.end(input ?? '');
  });
}

export async function warmCodeCaches(dist) {
  const entry = join(dist, 'yoke.js');
  const work = mkdtempSync(join(tmpdir(), 'yoke-warm-'));
  const home = join(work, 'home');
  const cwd = join(work, 'project');
  mkdirSync(home);
  mkdirSync(cwd);
  const scenario = join(work, 'scenario.yaml');
  writeFileSync(
    scenario,
    '- repeat: forever\n  reply:\n    content:\n      - type: text\n        text: warm\n',
  );

  const env = {
    // Saved as warm-up caches: they serve until a real run saves its own (src/lib/cached-script.ts).
    YOKE_CODE_CACHE: 'warm',
    PATH: process.env.PATH ?? '',
    HOME: home,
    YOKE_HOME: join(home, '.yoke'),
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
  };
  if (process.env.NODE_EXTRA_CA_CERTS) env.NODE_EXTRA_CA_CERTS = process.env.NODE_EXTRA_CA_CERTS;
  // The mock server is itself "another command": its cache is saved when it exits.
  const server = spawn(process.execPath, [entry, 'mock-server', '--scenario', scenario, '--port', '0'], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const exited = once(server, 'close').then(([code]) => {
      throw new Error(`the mock server exited (${code}) before it listened`);
    });
    const timeout = new Promise((_, reject) =>
      setTimeout(() => reject(new Error('the mock server did not start')), TIMEOUT_MS).unref(),
    );
    const [line] = await Promise.race([
      once(createInterface({ input: server.stdout }), 'line'),
      exited,
      timeout,
    ]);
    const modelEnv = {
      ...env,
      ANTHROPIC_API_KEY: 'sk-ant-warm',
      ANTHROPIC_BASE_URL: String(line).replace(/^MOCK_SERVER_URL=/, ''),
    };
    await run(entry, ['-p', 'warm up', '--bare'], { env: modelEnv, cwd });
    const user = JSON.stringify({ type: 'user', message: { role: 'user', content: 'warm up' } });
    await run(
      entry,
      ['-p', '--bare', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'],
      {
        env: modelEnv,
        cwd,
        input: `${user}\n`,
      },
    );
  } finally {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await once(server, 'close');
    }
    rmSync(work, { recursive: true, force: true });
  }
}
