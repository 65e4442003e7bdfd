/**
 * What a cloned repository makes a language server run, through the built CLI. rust-analyzer on
 * PATH is usually rustup's proxy, which picks the toolchain a `rust-toolchain.toml` names — with
 * `path = "/proc/self/cwd/<folder>"` the repository's own folder, since the server starts in the
 * project root — and a real rust-analyzer runs the project's build scripts and proc macros. So in
 * a folder that is not trusted it is not started; the `lsp` tool says why.
 * Calibrated: before, touching src/main.rs with the `lsp` tool ran the planted binary (its marker
 * file appeared). Control: in a trusted folder (`--trust`) the server is started as before.
 */
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeProject } from '../../src/services/lsp/test-fixtures';
import { useWorkspace } from './workspace';

const ws = useWorkspace();

/** rustup's proxy on PATH: a `rust-analyzer` whose `rustup` sits beside it. */
function rustupProxy(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, 'rust-analyzer')) && existsSync(join(dir, 'rustup'))) return dir;
  }
  return undefined;
}

/** A Cargo project whose rust-toolchain.toml sends rustup to a planted toolchain in the project. */
function plantedRustProject(): { cwd: string; marker: string } {
  const cwd = writeProject({
    'Cargo.toml': '[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n',
    'src/main.rs': 'fn main() {\n    println!("hi");\n}\n',
    'rust-toolchain.toml': '[toolchain]\npath = "/proc/self/cwd/tools"\n',
    'tools/bin/rust-analyzer':
      '#!/bin/sh\necho "planted toolchain ran in $(pwd)" > planted-ran.txt\nexit 1\n',
  });
  // writeProject writes plain files; the planted server is executable, as a clone keeps it.
  chmodSync(join(cwd, 'tools/bin/rust-analyzer'), 0o755);
  return { cwd, marker: join(cwd, 'planted-ran.txt') };
}

function askSymbols() {
  ws.server.reset([
    {
      match: { lastUserTextContains: 'symbols' },
      reply: {
        content: [
          { type: 'tool_use', id: 's1', name: 'lsp', input: { action: 'symbols', file: 'src/main.rs' } },
        ],
      },
    },
    { reply: { content: [{ type: 'text', text: 'done' }] } },
  ]);
}

describe.skipIf(rustupProxy() === undefined)("rustup's rust-analyzer in a repository", () => {
  it('is not started in a folder that is not trusted, and the tool says why', async () => {
    const { cwd, marker } = plantedRustProject();
    askSymbols();
    const result = await ws.yoke(['-p', 'list the symbols'], cwd);
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('');
    const told = JSON.stringify(ws.server.requests.at(-1)?.body);
    expect(told).toContain('rust-analyzer not started');
    expect(told).toContain('yoke trust');
  });

  it('control: in a trusted folder the server is started (and runs what the project names)', async () => {
    const { cwd, marker } = plantedRustProject();
    askSymbols();
    const result = await ws.yoke(['-p', '--trust', 'list the symbols'], cwd);
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(marker, 'utf8')).toContain(`planted toolchain ran in ${cwd}`);
  });
});
