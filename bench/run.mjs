// Runs every bench script in this folder in turn (alphabetical, each in its own process so one
// cannot warm another's caches) and prints their figures. A MISS against a target is a figure,
// not a failure: the exit code is non-zero only when a script itself crashes.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

if (!existsSync(join(root, 'dist', 'yoke.js'))) {
  console.error('bench: dist/yoke.js is missing; run `npm run build` first (or use `npm run bench`).');
  process.exit(1);
}

const only = process.argv.slice(2);
const scripts = readdirSync(here)
  .filter((f) => f.endsWith('.mjs') && f !== 'run.mjs' && !f.startsWith('_'))
  .filter((f) => only.length === 0 || only.some((name) => f.startsWith(name)))
  .sort();

const failed = [];
for (const script of scripts) {
  console.log(`\n== ${script.replace(/\.mjs$/, '')}`);
  const result = spawnSync(process.execPath, [join(here, script)], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) failed.push(`${script} (${result.signal ?? `exit ${result.status}`})`);
}

console.log(`\n${scripts.length - failed.length}/${scripts.length} bench scripts ran.`);
if (failed.length > 0) {
  console.error(`failed: ${failed.join(', ')}`);
  process.exit(1);
}
