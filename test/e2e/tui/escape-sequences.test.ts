/**
 * Text Yoke did not write, drawn in the REPL (tmux, against the mock model server, the bytes
 * recorded with pipe-pane): escape sequences in the model's answer, in a program's output and in
 * a command waiting for permission reach the terminal as visible pictures (␛, ␇, ␍), never as
 * sequences. Before, the clipboard (OSC 52), the window title, a hidden link (OSC 8) and the
 * cursor were the model's to set, and SGR 8 hid the end of a command in the permission question.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { READY, useTuiFixture } from './fixture';
import { tmuxAvailable } from './tmux';

const hasTmux = tmuxAvailable();
const fx = useTuiFixture('yoke-escapes-');

const E = '\x1b';
const BEL = '\x07';
const HOSTILE = `${E}]52;c;UFdORUQ=${BEL}${E}]0;TITLE-PWNED${BEL}${E}]8;;https://evil.example${BEL}link${E}]8;;${BEL}${E}[7;7H`;
const PROBES = [`${E}]52;`, `${E}]0;TITLE`, `${E}]2;BASH`, `${E}]8;;https`, `${E}[7;7H`, `${E}[8m`];

describe.skipIf(!hasTmux)('escape sequences in text Yoke did not write', { timeout: 120_000 }, () => {
  it('reach the terminal as pictures: in the answer, in program output, in a permission question', async () => {
    const printf = `printf '%b' 'out-start \\033]52;c;QkFTSA==\\007\\033]2;BASH-TITLE\\007 out-end'`;
    fx.server.reset([
      {
        reply: {
          content: [
            { type: 'text', text: `model-says ${HOSTILE} end-of-model` },
            { type: 'tool_use', name: 'Bash', input: { command: printf } },
          ],
        },
      },
      {
        reply: {
          content: [
            { type: 'tool_use', name: 'Bash', input: { command: `echo safe${E}[8m; touch concealed.txt` } },
          ],
        },
      },
      { reply: { content: [{ type: 'text', text: `final ${HOSTILE} turn-done` }] } },
    ]);
    const t = await fx.open(['--allowedTools', 'Bash(printf:*)']);
    await t.waitFor(READY, { timeoutMs: 45_000 });
    const bytesFile = join(fx.home, 'escape-bytes');
    await t.record(bytesFile);
    await t.type('go');
    await t.press('Enter');
    const asked = await t.waitFor("don't ask again", { timeoutMs: 30_000 });
    expect(asked).toContain('echo safe␛[8m; touch concealed.txt');
    expect(asked).toContain('Allow Bash: echo safe␛[8m; touch concealed.txt?');
    await t.press('3');
    const screen = await t.waitFor((s) => s.includes('turn-done') && !s.includes('esc to interrupt'));
    expect(screen).toContain('model-says ␛]52;c;UFdORUQ=␇␛]0;TITLE-PWNED␇');
    expect(screen).toContain('out-start ␛]52;c;QkFTSA==␇␛]2;BASH-TITLE␇ out-end');
    const bytes = await readFile(bytesFile, 'utf8');
    expect(bytes).toContain('turn-done');
    for (const probe of PROBES) expect(bytes.includes(probe), JSON.stringify(probe)).toBe(false);
  });
});
