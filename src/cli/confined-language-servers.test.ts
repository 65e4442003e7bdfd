/**
 * Language servers run inside the shell sandbox while it is active (real bubblewrap): a server
 * binary that writes outside the project leaves nothing there, and a real TypeScript server still
 * answers from inside.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { hasBubblewrap, sandboxFixture, sandboxManager } from '../sandbox/test-support';
import { documentDiagnostics } from '../services/lsp/document-diagnostics';
import { LspSupervisor } from '../services/lsp/supervisor';
import { pathWithServers, TS_PROJECT } from '../services/lsp/test-fixtures';
import { confineLanguageServers } from './session-sandbox';

const disposals: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const dispose of disposals.splice(0)) await dispose();
});

/**
 * A project with a Python marker and a fake pyright, installed under /tmp outside the project (the
 * sandbox's private /tmp must still show it), that notes it ran in the project and writes
 * `escaped.txt` into `outside`.
 */
function plantedServer() {
  const fixture = sandboxFixture();
  writeFileSync(join(fixture.project, 'pyproject.toml'), '[project]\nname = "x"\n');
  writeFileSync(join(fixture.project, 'main.py'), 'x = 1\n');
  const bin = join(fixture.root, 'server-bin');
  mkdirSync(bin);
  const server = join(bin, 'pyright-langserver');
  writeFileSync(
    server,
    `#!/bin/sh\necho ran > '${fixture.project}/ran.txt'\necho escaped > '${fixture.outside}/escaped.txt'\nexit 3\n`,
  );
  chmodSync(server, 0o755);
  const env = { PATH: `${bin}:/usr/bin:/bin` };
  return {
    fixture,
    env,
    ran: join(fixture.project, 'ran.txt'),
    marker: join(fixture.outside, 'escaped.txt'),
  };
}

describe.skipIf(!hasBubblewrap())('language servers in the sandbox', () => {
  test('a server that writes outside the project leaves nothing there (and does, unconfined)', async () => {
    const confined = plantedServer();
    const manager = sandboxManager(confined.fixture);
    disposals.push(() => manager.dispose());
    expect((await manager.start()).kind).toBe('active');
    const supervisor = new LspSupervisor({
      env: confined.env,
      trusted: true,
      confine: confineLanguageServers(manager),
    });
    disposals.push(() => supervisor.dispose());
    await expect(supervisor.clientFor(join(confined.fixture.project, 'main.py'))).rejects.toThrow(
      /exited on start/,
    );
    // It ran (from its folder under /tmp, shown read-only), wrote inside the project, not outside.
    expect(existsSync(confined.ran)).toBe(true);
    expect(existsSync(confined.marker)).toBe(false);

    // The control: the same server without the sandbox writes its file.
    const open = plantedServer();
    const unconfined = new LspSupervisor({ env: open.env, trusted: true });
    disposals.push(() => unconfined.dispose());
    await expect(unconfined.clientFor(join(open.fixture.project, 'main.py'))).rejects.toThrow(
      /exited on start/,
    );
    expect(existsSync(open.ran)).toBe(true);
    expect(existsSync(open.marker)).toBe(true);
  });

  test('a real typescript-language-server answers from inside the sandbox', async () => {
    const fixture = sandboxFixture();
    for (const [name, text] of Object.entries(TS_PROJECT)) {
      mkdirSync(join(fixture.project, name, '..'), { recursive: true });
      writeFileSync(join(fixture.project, name), text);
    }
    const manager = sandboxManager(fixture);
    disposals.push(() => manager.dispose());
    expect((await manager.start()).kind).toBe('active');
    const supervisor = new LspSupervisor({
      env: { ...process.env, PATH: pathWithServers() },
      trusted: false,
      confine: confineLanguageServers(manager),
    });
    disposals.push(() => supervisor.dispose());
    const file = join(fixture.project, 'src/main.ts');
    writeFileSync(file, `${TS_PROJECT['src/main.ts']}export const wrong: string = 1;\n`);
    const client = await supervisor.clientFor(file);
    const synced = await supervisor.syncFromDisk(client, file);
    const diagnostics = await documentDiagnostics(client, file, synced, 60_000);
    expect(diagnostics?.map((d) => d.message)).toEqual(["Type 'number' is not assignable to type 'string'."]);
  }, 120_000);
});
