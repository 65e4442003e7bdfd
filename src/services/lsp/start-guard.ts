/**
 * What a server may load from the project besides the files it reads. typescript-language-server
 * runs the workspace's own `node_modules/typescript` and the language-service plugins a tsconfig
 * names: both are code the repository ships, so in a folder that is not trusted the server gets
 * the TypeScript installed beside it, and a project that names plugins is not served at all.
 * rust-analyzer is not started there at all: the one on PATH is usually rustup's proxy, which runs
 * the toolchain a `rust-toolchain.toml` names (`path = "/proc/self/cwd/…"` is the project's own
 * folder, since servers start in the project root), and rust-analyzer itself runs the project's
 * build scripts and proc macros and the programs its `.cargo/config.toml` names. Calibrated in
 * test/e2e/untrusted-language-servers.test.ts.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isWithin } from '../../lib/path-within';
import type { ResolvedServer } from './resolve';

export type StartPlan =
  | { ok: true; initializationOptions: Record<string, unknown> }
  | { ok: false; reason: string };

const isFile = (path: string) =>
  stat(path).then(
    (s) => s.isFile(),
    () => false,
  );

/** The tsserver installed next to the server binary (never one inside the project). */
async function bundledTsserver(command: string, root: string): Promise<string | undefined> {
  const real = await realpath(command).catch(() => command);
  for (let dir = dirname(real); ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', 'typescript', 'lib', 'tsserver.js');
    if (!isWithin(candidate, root) && (await isFile(candidate))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Whether a tsconfig/jsconfig at the root names plugins (`compilerOptions.plugins`). */
async function namesPlugins(root: string): Promise<string | undefined> {
  for (const name of ['tsconfig.json', 'jsconfig.json']) {
    const text = await readFile(join(root, name), 'utf8').catch(() => '');
    if (/"plugins"\s*:/.test(text)) return name;
  }
  return undefined;
}

/**
 * One semantic tsserver, no syntax-only one beside it: while a project loads, the syntax server
 * answers a definition with the import line instead of the declaration, which looks right and
 * is not. With the semantic server alone, a request waits until the project is loaded.
 */
const TSSERVER_OPTIONS = { useSyntaxServer: 'never' };

/** Servers that run the project's code as they load it, whatever Yoke tells them. */
const RUNS_PROJECT_CODE: Partial<Record<ResolvedServer['spec']['id'], string>> = {
  'rust-analyzer':
    "it runs the project's build scripts and proc macros, and rustup runs the toolchain its rust-toolchain.toml names",
};

export async function planStart(server: ResolvedServer, trusted: boolean): Promise<StartPlan> {
  const runsCode = RUNS_PROJECT_CODE[server.spec.id];
  if (runsCode && !trusted)
    return {
      ok: false,
      reason: `${runsCode}; not started because the folder is not trusted (\`yoke trust\`)`,
    };
  if (server.spec.id !== 'typescript') return { ok: true, initializationOptions: {} };
  if (trusted) return { ok: true, initializationOptions: { tsserver: TSSERVER_OPTIONS } };
  const plugins = await namesPlugins(server.root);
  if (plugins)
    return {
      ok: false,
      reason: `${plugins} names language-service plugins, which run code from the project; not started because the folder is not trusted (\`yoke trust\`)`,
    };
  const tsserver = await bundledTsserver(server.command, server.root);
  if (!tsserver)
    return {
      ok: false,
      reason: `no TypeScript installed beside ${server.command}, and the project's own is not used because the folder is not trusted (\`yoke trust\`)`,
    };
  return { ok: true, initializationOptions: { tsserver: { ...TSSERVER_OPTIONS, path: tsserver } } };
}
