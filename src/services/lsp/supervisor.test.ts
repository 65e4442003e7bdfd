import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { documentDiagnostics } from './document-diagnostics';
import { LspSupervisor, LspUnavailableError } from './supervisor';
import {
  fakeBinary,
  pathWithServers,
  REAL_SERVER_SUITE,
  SERVER_BIN,
  TS_PROJECT,
  writeProject,
} from './test-fixtures';

const onlyNode = () => `${process.execPath.replace(/\/node$/, '')}:/usr/bin:/bin`;

describe('which server may start', REAL_SERVER_SUITE, () => {
  test('a root marker without the binary starts nothing, and says the binary is missing', async () => {
    const root = writeProject(TS_PROJECT);
    const supervisor = new LspSupervisor({ env: { PATH: onlyNode() }, trusted: true });
    const error = await supervisor.clientFor(join(root, 'src/main.ts')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LspUnavailableError);
    expect((error as Error).message).toBe('no typescript server: typescript-language-server is not on PATH');
    expect(supervisor.status()).toEqual([]);
  });

  test('the binary without a root marker starts nothing, and says the marker is missing', async () => {
    const root = writeProject({ 'lone.py': 'x = 1\n' });
    const supervisor = new LspSupervisor({ env: { PATH: pathWithServers() }, trusted: true });
    await expect(supervisor.clientFor(join(root, 'lone.py'))).rejects.toThrow(
      `no pyright server: no pyproject.toml / setup.py / setup.cfg / requirements.txt / pyrightconfig.json in ${root} or a folder above it`,
    );
  });

  test("a project's own server binary runs only in a trusted folder", async () => {
    const root = writeProject(TS_PROJECT);
    mkdirSync(join(root, 'node_modules/.bin'), { recursive: true });
    symlinkSync(
      join(SERVER_BIN, 'typescript-language-server'),
      join(root, 'node_modules/.bin/typescript-language-server'),
    );
    const file = join(root, 'src/main.ts');
    const untrusted = new LspSupervisor({ env: { PATH: onlyNode() }, trusted: false });
    await expect(untrusted.clientFor(file)).rejects.toThrow(
      `typescript-language-server is not on PATH; the project's ${root}/node_modules/.bin/typescript-language-server is not used because the folder is not trusted`,
    );
    const trusted = new LspSupervisor({ env: { PATH: onlyNode() }, trusted: true });
    const resolution = await trusted.resolve(file);
    expect(resolution).toMatchObject({ kind: 'ready', via: 'project', root });
  });

  test("in an untrusted folder, the project's own TypeScript is not run: the server's is", async () => {
    // Calibration (run by hand, /tmp/plugin-calib): a project holding a copy of typescript whose
    // lib/tsserver.js first writes a marker file. Trusted, typescript-language-server ran it (the
    // marker appeared); untrusted, the marker stayed absent and diagnostics were answered.
    const marker = join(tmpdir(), `yoke-planted-tsserver-${process.pid}`);
    const root = writeProject({
      ...TS_PROJECT,
      'node_modules/typescript/package.json': JSON.stringify({ name: 'typescript', version: '6.0.3' }),
      'node_modules/typescript/lib/tsserver.js': `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran');`,
    });
    const supervisor = new LspSupervisor({
      env: { ...process.env, PATH: pathWithServers() },
      trusted: false,
    });
    try {
      const file = join(root, 'src/main.ts');
      const client = await supervisor.clientFor(file);
      const synced = await supervisor.syncFromDisk(client, file);
      expect(await documentDiagnostics(client, file, synced, 60_000)).toEqual([]);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await supervisor.dispose();
    }
  });

  test('in an untrusted folder, a tsconfig that names language-service plugins keeps the server off', async () => {
    // Calibration (run by hand, /tmp/plugin-calib): a tsconfig naming "evil-plugin", a copy of
    // typescript in the project's node_modules and node_modules/evil-plugin/index.js writing a
    // marker file on load; a trusted start of typescript-language-server and one didOpen created
    // the marker, so a plugin runs the project's code. Untrusted, it is refused (no marker); the
    // same project with an ordinary tsconfig (the control) starts untrusted and answers.
    const root = writeProject({
      ...TS_PROJECT,
      'tsconfig.json': JSON.stringify({ compilerOptions: { plugins: [{ name: 'evil-plugin' }] } }),
    });
    const supervisor = new LspSupervisor({ env: { PATH: pathWithServers() }, trusted: false });
    await expect(supervisor.clientFor(join(root, 'src/main.ts'))).rejects.toThrow(
      'typescript-language-server not started: tsconfig.json names language-service plugins, which run code from the project; not started because the folder is not trusted',
    );
  });
});

describe('a server that crashes', () => {
  test('on start: each failure is reported with its reason, and after 3 it is not restarted until reload', async () => {
    const root = writeProject({ 'pyproject.toml': '', 'a.py': 'x = 1\n' });
    const bin = fakeBinary('pyright-langserver', '#!/bin/sh\necho "cannot load the analyzer" >&2\nexit 3\n');
    const supervisor = new LspSupervisor({ env: { PATH: `${bin}:${onlyNode()}` }, trusted: false });
    const file = join(root, 'a.py');
    await expect(supervisor.clientFor(file)).rejects.toThrow(
      /pyright-langserver for .* failed: .*exited on start \(code 3\): cannot load the analyzer\. Crash 1 of 3; the next call restarts it\./,
    );
    await expect(supervisor.clientFor(file)).rejects.toThrow(/Crash 2 of 3/);
    await expect(supervisor.clientFor(file)).rejects.toThrow(
      /crashed 3 times in a row and is not restarted until `lsp` action `reload`/,
    );
    await expect(supervisor.clientFor(file)).rejects.toThrow(
      /crashed 3 times in a row \(last: .*cannot load the analyzer\)/,
    );
    expect(supervisor.status()[0]).toMatch(/^pyright — root .* — stopped after 3 crashes in a row/);
    expect(await supervisor.reload()).toHaveLength(1);
    await expect(supervisor.clientFor(file)).rejects.toThrow(/Crash 1 of 3/);
  });

  test('a stopped server leaves nothing in the temp folder, where typescript-language-server makes a folder at each start', async () => {
    const root = writeProject(TS_PROJECT);
    const before = new Set(readdirSync(tmpdir()));
    const added = () => readdirSync(tmpdir()).filter((name) => !before.has(name));
    const supervisor = new LspSupervisor({
      env: { ...process.env, PATH: pathWithServers() },
      trusted: false,
    });
    await supervisor.clientFor(join(root, 'src/main.ts'));
    // While it runs, the folder it made (for tsserver's cancellation pipe) is in its own TMPDIR.
    const [own] = added();
    expect(added()).toEqual([expect.stringMatching(/^yoke-lsp-tmp-/)]);
    expect(readdirSync(join(tmpdir(), own as string))).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/)]);
    await supervisor.dispose();
    expect(added()).toEqual([]);
  });

  test('while running: the next call starts it again, and the session end stops it', async () => {
    const root = writeProject(TS_PROJECT);
    const supervisor = new LspSupervisor({
      env: { ...process.env, PATH: pathWithServers() },
      trusted: false,
    });
    const file = join(root, 'src/main.ts');
    const first = await supervisor.clientFor(file);
    const exited = new Promise<void>((resolve) => {
      const poll = () => (first.alive ? setImmediate(poll) : resolve());
      poll();
    });
    process.kill(first.pid as number, 'SIGKILL');
    await exited;
    expect(supervisor.status()[0]).toMatch(
      /crashed 1× \(last: exited \(SIGKILL\)\); restarts on the next call/,
    );
    const second = await supervisor.clientFor(file);
    expect(second.pid).not.toBe(first.pid);
    expect(second.alive).toBe(true);
    await supervisor.dispose();
    expect(second.alive).toBe(false);
    expect(() => process.kill(second.pid as number, 0)).toThrow();
    await expect(supervisor.clientFor(file)).rejects.toThrow('the session has ended');
  });
});

test('writing a root marker makes a folder that had no server get one', async () => {
  const root = writeProject({ 'a.py': 'x = 1\n' });
  const supervisor = new LspSupervisor({ env: { PATH: pathWithServers() }, trusted: false });
  const file = join(root, 'a.py');
  expect((await supervisor.resolveForWrite(file))?.kind).toBe('no-marker');
  writeFileSync(join(root, 'pyproject.toml'), '');
  expect((await supervisor.resolveForWrite(file))?.kind).toBe('no-marker');
  supervisor.noteWritten(join(root, 'pyproject.toml'));
  expect((await supervisor.resolveForWrite(file))?.kind).toBe('ready');
});
