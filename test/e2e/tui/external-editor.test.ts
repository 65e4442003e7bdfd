/**
 * Ctrl+G in a real terminal (tmux): the prompt goes to `$EDITOR` and comes back edited; an editor
 * that fails says so in a line and keeps the prompt. The editor owns the terminal while it runs,
 * so whatever it prints lands above the REPL's box, which is drawn afresh below it: a failing
 * `$EDITOR` that printed its error once left the box split around Yoke's own line.
 */
import { describe, expect, it } from 'vitest';
import { READY, useTuiFixture } from './fixture';
import { tmuxAvailable } from './tmux';

const hasTmux = tmuxAvailable();
const fx = useTuiFixture('yoke-editor-');

/** The input box's three rows, whole and together, holding `text`. */
const boxHolds = (screen: string, text: string) =>
  new RegExp(`╭─+╮\\n│ > ${text} +│\\n╰─+╯\\n\\s+\\S+ · default mode`).test(screen);

describe.skipIf(!hasTmux)('Ctrl+G in tmux', { timeout: 120_000 }, () => {
  it('puts the prompt through $EDITOR and back', async () => {
    const t = await fx.openReady([], { env: { ...fx.env(), VISUAL: '', EDITOR: 'sed -i s/draft/edited/' } });
    await t.type('draft prompt');
    await t.press('C-g');
    const screen = await t.waitFor((s) => boxHolds(s, 'edited prompt'));
    expect(READY(screen)).toBe(true);
  });

  it('an editor that prints an error and fails leaves the prompt and the box whole, its line above', async () => {
    const editor = 'echo editor-said-no >&2; exit 3; :';
    const t = await fx.openReady([], { env: { ...fx.env(), VISUAL: '', EDITOR: editor } });
    await t.type('draft prompt');
    await t.press('C-g');
    const screen = await t.waitFor((s) => s.includes('exited with status 3') && boxHolds(s, 'draft prompt'));
    expect(screen).toMatch(/editor-said-no\n+.*exited with status 3; the prompt is unchanged\.\n+╭─+╮/);
  });
});
