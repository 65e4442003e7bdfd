import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `yoke mock-server` as a separate process (signals, stdout line, exit code) without a full build:
// a tiny entry does what the CLI's command action does (run, then report a failure as one line
// with exit 1), bundled with esbuild. Bundling all of src/cli would tie this test to every command.
const dir = mkdtempSync(join(tmpdir(), 'yoke-mock-cli-'));
const cli = join(dir, 'yoke.mjs');
const entry = join(dir, 'entry.ts');
const children: ChildProcess[] = [];

beforeAll(async () => {
  writeFileSync(
    entry,
    [
      `import { runMockServerCli } from ${JSON.stringify(join(import.meta.dirname, 'cli.ts'))};`,
      `import { reportCliError } from ${JSON.stringify(join(import.meta.dirname, '../../cli/errors.ts'))};`,
      'const args = process.argv.slice(2);',
      "const scenario = args[args.indexOf('--scenario') + 1] ?? '';",
      "process.exitCode = await runMockServerCli({ scenario, port: '0', host: '127.0.0.1' }).then(",
      '  () => 0,',
      '  (error) => reportCliError(error, false),',
      ');',
    ].join('\n'),
  );
  await build({
    entryPoints: [entry],
    outfile: cli,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    logLevel: 'silent',
  });
});

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function runCli(args: string[]) {
  const child = spawn(process.execPath, [cli, 'mock-server', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  // 'close', not 'exit': Node may report the exit before stdout and stderr are read.
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0] ?? '');
    });
    child.on('close', () => reject(new Error(`exited before printing: ${stderr}`)));
  });
  // A test that expects an early exit never awaits the line; keep that from being unhandled.
  firstLine.catch(() => undefined);
  return { child, exited, firstLine, output: () => ({ stdout, stderr }) };
}

describe('yoke mock-server', () => {
  it('prints its URL, serves the scenario, and exits cleanly on SIGTERM', async () => {
    const scenario = join(dir, 'ok.yaml');
    writeFileSync(
      scenario,
      'requireAuth: false\nturns:\n  - reply: { content: [{ type: text, text: from the cli }] }\n',
    );
    const proc = runCli(['--scenario', scenario]);
    const line = await proc.firstLine;
    expect(line).toMatch(/^MOCK_SERVER_URL=http:\/\/127\.0\.0\.1:\d+$/);
    const url = line.slice('MOCK_SERVER_URL='.length);
    const res = await fetch(`${url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(((await res.json()) as { content: Array<{ text: string }> }).content[0]?.text).toBe(
      'from the cli',
    );
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    expect(proc.output().stdout).toBe(`${line}\n`);
  });

  it('reports a bad scenario file in one stderr line and exits 1', async () => {
    const scenario = join(dir, 'bad.json');
    writeFileSync(scenario, JSON.stringify({ turns: [{ reply: { content: [{ type: 'text' }] } }] }));
    const proc = runCli(['--scenario', scenario]);
    expect(await proc.exited).toBe(1);
    const { stdout, stderr } = proc.output();
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('turns[0].reply.content[0].text');
  });
});
