/**
 * The REPL's start with a settings file whose deny rules cannot be read: the full UI and the line
 * mode both show the one-line refusal (file, line and column, how to go on) where the session
 * would have started, and nothing reaches the model or runs: a prompt typed then is refused with
 * the reason, and the status line says the session did not start.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileExists } from '../helpers';
import { useTuiFixture } from './fixture';
import { tmuxAvailable } from './tmux';

const hasTmux = tmuxAvailable();
const fx = useTuiFixture('yoke-broken-settings-', async (cwd) => {
  await mkdir(join(cwd, '.claude'));
  await writeFile(join(cwd, '.claude', 'settings.json'), '{ "permissions": { "deny": ["Bash(touch:*)",] } }');
});

const REFUSAL =
  "at line 1, column 45: a comma before ']' (JSON allows no comma after the last item; remove it); its deny rules, ask rules and hooks cannot be read, so nothing was run without them: fix the file, or leave the project settings out with --setting-sources=user,local.";

function touchTurn() {
  fx.server.reset([
    { reply: { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch marker' } }] } },
    { reply: { content: [{ type: 'text', text: 'done' }] } },
  ]);
}

describe.skipIf(!hasTmux)('the REPL with a settings file it cannot read', { timeout: 120_000 }, () => {
  for (const term of ['xterm-256color', 'dumb']) {
    it(`shows the refusal and runs nothing (TERM=${term})`, async () => {
      touchTurn();
      const t = await fx.open(['--permission-mode', 'acceptEdits'], { term, width: 400, height: 30 });
      const file = join(fx.cwd, '.claude', 'settings.json');
      const screen = await t.waitFor(REFUSAL, { timeoutMs: 45_000 });
      expect(screen).toContain(`The session could not start: Invalid JSON in settings ${file} ${REFUSAL}`);
      // A prompt typed now is refused with the reason, not kept for a start that is over.
      await t.type('touch the marker');
      await t.press('Enter');
      const after = await t.waitFor('Nothing can run: the session did not start');
      // The line holds the project's path, so where it wraps depends on the temp folder's name.
      expect(after.replace(/\s+/g, ' ')).toContain('/exit or Ctrl+D quits');
      if (term !== 'dumb') expect(after).toContain('not started ·');
      expect(fx.server.requests).toHaveLength(0);
      expect(await fileExists(join(fx.cwd, 'marker'))).toBe(false);
    });
  }
});
