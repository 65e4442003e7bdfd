import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { bundleChildScript, type ChildScript } from '../../testing/child-script';
import {
  fakeBinary,
  fakeServerScript,
  PY_PROJECT,
  pathWithServers,
  TS_PROJECT,
  writeProject,
} from './test-fixtures';

/**
 * A Yoke process that starts the language server for a file and then ends without stopping it
 * (a forced exit: a second Ctrl-C, the shutdown deadline, an uncaught error). It prints what its
 * TMPDIR held while the server ran, and the server's pid.
 */
const FORCED_EXIT_SOURCE = `
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LspSupervisor } from './supervisor';
// vscode-jsonrpc is CommonJS: the ES module bundle's require() calls need one to call.
globalThis.require = createRequire(import.meta.url);
const [file] = process.argv.slice(2);
const supervisor = new LspSupervisor({ env: process.env, trusted: false });
const client = await supervisor.clientFor(file);
const running = readdirSync(tmpdir()).map((name) => [name, readdirSync(join(tmpdir(), name))]);
process.stdout.write(JSON.stringify({ running, pid: client.pid }));
process.exit(0);
`;

/** A language server that answers `initialize` and does not end when its input does. */
const DEAF_SERVER = fakeServerScript(
  "if (message.method === 'initialize') send({ id: message.id, result: { capabilities: {} } });",
  "process.stdin.on('end', () => setInterval(() => {}, 60_000));",
);

let child: ChildScript | undefined;

beforeAll(async () => {
  child = await bundleChildScript(FORCED_EXIT_SOURCE, import.meta.dirname);
});

afterAll(() => child?.remove());

/** Whether the process runs: a killed child of a process that has exited may stay a zombie. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Runs the child on `file` with a TMPDIR of its own; what it printed, and what TMPDIR holds after. */
function exitWithServerRunning(file: string, path: string) {
  const temp = mkdtempSync(join(tmpdir(), 'yoke-forced-exit-'));
  try {
    const out = execFileSync(process.execPath, [child?.path ?? '', file], {
      env: { ...process.env, PATH: path, TMPDIR: temp },
      encoding: 'utf8',
      timeout: 120_000,
    });
    return {
      ...(JSON.parse(out) as { running: [string, string[]][]; pid: number }),
      left: readdirSync(temp),
    };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

describe("a language server's temp folder", () => {
  test('is removed when Yoke exits without stopping the TypeScript server', async () => {
    const root = writeProject(TS_PROJECT);
    const { running, pid, left } = exitWithServerRunning(join(root, 'src/main.ts'), pathWithServers());
    // While it ran: one folder of Yoke's, holding the one typescript-language-server made
    // (for tsserver's cancellation pipe) — the folder that used to be left in /tmp.
    expect(running).toEqual([
      [expect.stringMatching(/^yoke-lsp-tmp-/), [expect.stringMatching(/^[0-9a-f]{32}$/)]],
    ]);
    expect(left).toEqual([]);
    await vi.waitFor(() => expect(isRunning(pid)).toBe(false), { timeout: 10_000 });
  });

  test('goes with a server that outlives its input, which Yoke kills as it exits', async () => {
    // Calibration: without the kill in the exit handler this server ran on under PID 1 and the
    // test failed; typescript-language-server ends with its input, so only a server like this shows it.
    const root = writeProject(PY_PROJECT);
    const bin = fakeBinary('pyright-langserver', DEAF_SERVER);
    const { running, pid, left } = exitWithServerRunning(join(root, 'app.py'), `${bin}:${process.env.PATH}`);
    expect(running).toEqual([[expect.stringMatching(/^yoke-lsp-tmp-/), []]]);
    expect(left).toEqual([]);
    try {
      // The SIGKILL is sent at exit; the server is gone once the kernel has delivered it.
      await vi.waitFor(() => expect(isRunning(pid)).toBe(false), { timeout: 10_000 });
    } finally {
      // Should the test fail, the orphan does not outlive it.
      if (isRunning(pid)) process.kill(pid, 'SIGKILL');
    }
  });
});
