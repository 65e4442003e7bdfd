/**
 * Vitest setup: each test file runs with its own temp folder as TMPDIR, removed with everything
 * in it once the file's tests (and their afterAll cleanups) are done. `os.tmpdir()` and every
 * process a test starts with this environment put their folders there, so what a test leaves
 * behind — a folder it made, a session folder of an engine it never closed, the files of a child
 * it killed — cannot pile up in /tmp run after run. A test still removes what it makes; this
 * catches what it could not.
 *
 * The name is short on purpose: unix socket paths made under it (tmux, MCP, LSP) must stay
 * within the ~108 bytes the kernel allows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const outer = process.env.TMPDIR;
const root = mkdtempSync(join(tmpdir(), 'yt-'));
process.env.TMPDIR = root;

// Registered first, so (hooks run as a stack) it runs after every afterAll of the file itself.
afterAll(() => {
  if (outer === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = outer;
  try {
    rmSync(root, { recursive: true, force: true, maxRetries: 5 });
  } catch (error) {
    // A process the file started may still be writing there; say so rather than fail its tests.
    process.stderr.write(`could not remove the test file's temp folder ${root}: ${String(error)}\n`);
  }
});
