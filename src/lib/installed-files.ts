/**
 * Finds a file of an installed package the way Node's resolution looks for packages — in
 * `node_modules` of the starting folder and of each folder above it — but with one `access` per
 * place and no package.json read. A start checks whether tools can work on this machine (a
 * binary, a wasm file) before its first request; `require.resolve` took milliseconds there.
 */
import { accessSync, constants } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `from`: a file URL or path to start at (a module's own `import.meta.url`). */
export function findInstalledFile(
  from: string,
  relativePaths: readonly string[],
  mode: number = constants.F_OK,
): string | undefined {
  let dir = dirname(from.startsWith('file:') ? fileURLToPath(from) : from);
  while (true) {
    for (const relative of relativePaths) {
      const candidate = join(dir, 'node_modules', relative);
      try {
        accessSync(candidate, mode);
        return candidate;
      } catch {
        // Not installed here: the next candidate, then the folder above.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
