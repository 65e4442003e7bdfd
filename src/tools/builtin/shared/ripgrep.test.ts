import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundledRipgrep, locateRipgrep, ripgrepAvailability } from './ripgrep';

/** A node_modules laid out as npm installs @vscode/ripgrep: the package and its platform package. */
function fakeInstall(options: { platformPackage: boolean; executable?: boolean }): string {
  const root = mkdtempSync(join(tmpdir(), 'yoke-rg-layout-'));
  const pkg = join(root, 'node_modules', '@vscode', 'ripgrep');
  mkdirSync(join(pkg, 'lib'), { recursive: true });
  writeFileSync(
    join(pkg, 'package.json'),
    JSON.stringify({
      name: '@vscode/ripgrep',
      type: 'module',
      exports: { '.': { default: './lib/index.js' } },
    }),
  );
  writeFileSync(join(pkg, 'lib', 'index.js'), 'export const rgPath = "unused";\n');
  if (options.platformPackage) {
    const bin = join(root, 'node_modules', '@vscode', 'ripgrep-linux-x64', 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, '..', 'package.json'), JSON.stringify({ name: '@vscode/ripgrep-linux-x64' }));
    writeFileSync(join(bin, 'rg'), '#!/bin/sh\necho fake\n');
    chmodSync(join(bin, 'rg'), options.executable === false ? 0o644 : 0o755);
  }
  mkdirSync(join(root, 'app', 'dist'), { recursive: true });
  return root;
}

const fromApp = (root: string) => pathToFileURL(join(root, 'app', 'dist', 'app.js')).href;

describe('bundledRipgrep', () => {
  it('finds the binary npm installed with @vscode/ripgrep, and it runs', () => {
    const found = bundledRipgrep();
    expect(found).toHaveProperty('path');
    const path = (found as { path: string }).path;
    expect(execFileSync(path, ['--version'], { encoding: 'utf8' })).toMatch(/^ripgrep \d+/);
  });

  it("resolves the platform package from the package's own location, as a hoisted install lays it out", () => {
    const root = fakeInstall({ platformPackage: true });
    expect(bundledRipgrep(fromApp(root), 'linux', 'x64')).toEqual({
      path: join(root, 'node_modules', '@vscode', 'ripgrep-linux-x64', 'bin', 'rg'),
    });
  });

  it('names what is missing', () => {
    const empty = mkdtempSync(join(tmpdir(), 'yoke-rg-none-'));
    expect(bundledRipgrep(pathToFileURL(join(empty, 'app.js')).href, 'linux', 'x64')).toEqual({
      problem: 'the @vscode/ripgrep package is not installed',
    });
    const withoutBinary = fakeInstall({ platformPackage: false });
    expect(bundledRipgrep(fromApp(withoutBinary), 'linux', 'x64')).toEqual({
      problem:
        '@vscode/ripgrep-linux-x64, the package that holds its binary for this platform, is not installed',
    });
    const notExecutable = fakeInstall({ platformPackage: true, executable: false });
    expect(bundledRipgrep(fromApp(notExecutable), 'linux', 'x64')).toEqual({
      problem: expect.stringMatching(/ripgrep-linux-x64\/bin\/rg is not executable$/),
    });
  });
});

describe('locateRipgrep', () => {
  it('prefers the bundled binary whatever PATH holds', () => {
    const lookup = locateRipgrep({ PATH: '' });
    expect(lookup).toMatchObject({ found: true, source: 'bundled' });
  });

  it('falls back to rg on PATH when the bundled one is switched off', () => {
    const bin = mkdtempSync(join(tmpdir(), 'yoke-rg-bin-'));
    writeFileSync(join(bin, 'rg'), '#!/bin/sh\n');
    chmodSync(join(bin, 'rg'), 0o755);
    expect(locateRipgrep({ USE_BUILTIN_RIPGREP: '0', PATH: bin })).toEqual({
      found: true,
      path: join(bin, 'rg'),
      source: 'path',
    });
  });

  it('makes Grep and Glob unavailable with a reason that says how to get ripgrep', () => {
    const empty = mkdtempSync(join(tmpdir(), 'yoke-rg-empty-'));
    const availability = ripgrepAvailability({ USE_BUILTIN_RIPGREP: '0', PATH: empty });
    expect(availability).toEqual({
      status: 'unavailable',
      reason: expect.stringContaining('ripgrep was not found: the bundled ripgrep is switched off'),
    });
    expect(availability.status === 'unavailable' && availability.reason).toMatch(/apt install ripgrep/);
  });
});
