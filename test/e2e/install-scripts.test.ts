/**
 * `npm install` on npm 11 skips every dependency's install script that package.json's
 * `allowScripts` does not cover, and ends with a warning listing them — the first thing a new
 * user reads. Each package with an install script is decided there: allowed when Yoke needs
 * what it builds (esbuild's binary), denied when the package ships what it needs prebuilt
 * (tree-sitter-bash's wasm, ast-grep's language parsers, whose postinstall only looks for a
 * prebuild or tries to compile one with a tree-sitter CLI nobody installed).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = join(import.meta.dirname, '../..');
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'];

type Manifest = { name?: string; scripts?: Record<string, string>; allowScripts?: Record<string, boolean> };
const readManifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/** Every installed package folder under `modules`, scoped and nested ones included. */
function packageDirs(modules: string): string[] {
  if (!existsSync(modules)) return [];
  return readdirSync(modules).flatMap((entry) => {
    if (entry.startsWith('.')) return [];
    const dir = join(modules, entry);
    if (entry.startsWith('@')) return packageDirs(dir);
    if (!existsSync(join(dir, 'package.json'))) return [];
    return [dir, ...packageDirs(join(dir, 'node_modules'))];
  });
}

describe('install scripts', () => {
  it('every installed package with an install script is allowed or denied in allowScripts', () => {
    const allow = readManifest(REPO).allowScripts ?? {};
    const withScripts = packageDirs(join(REPO, 'node_modules'))
      .map(readManifest)
      .filter((m) => INSTALL_SCRIPTS.some((script) => m.scripts?.[script] !== undefined))
      .map((m) => m.name as string);
    expect(withScripts.length).toBeGreaterThan(0);
    expect([...new Set(withScripts.filter((name) => !(name in allow)))]).toEqual([]);
  });
});
