/**
 * The trust dialog is a live-region dialog (tmux): once answered "yes", its rows are gone — from
 * the screen and from the scrollback — and the REPL starts where the dialog stood.
 */
import { describe, expect, it } from 'vitest';
import { tempProject } from '../helpers';
import { READY, useTuiFixture } from './fixture';
import { tmuxAvailable } from './tmux';

const hasTmux = tmuxAvailable();
const fx = useTuiFixture('yoke-trust-dialog-');

describe.skipIf(!hasTmux)('the trust dialog', { timeout: 120_000 }, () => {
  for (const size of [
    { width: 80, height: 24 },
    { width: 100, height: 30 },
  ]) {
    it(`leaves no row of itself behind once trusted (${size.width}×${size.height})`, async () => {
      const folder = await tempProject('yoke-untrusted-');
      const t = await fx.open([], { cwd: folder, ...size });
      await t.waitFor('Do you trust the files in this folder?');
      await t.press('Enter');
      const screen = await t.waitFor(READY, { timeoutMs: 45_000, history: 500 });
      for (const row of [
        'Do you trust',
        'Yes, proceed',
        'No, exit',
        'Enter to confirm',
        'Trust only folders',
      ])
        expect(screen).not.toContain(row);
      // One input box: the dialog's frame left no border either.
      expect(screen.split('\n').filter((line) => line.startsWith('╭')).length).toBe(1);
      // The REPL starts where the dialog stood: on the rows it takes in a folder trusted already.
      const header = (shown: string) => shown.split('\n').findIndex((line) => line.startsWith('Yoke '));
      const afterDialog = header(await t.screen());
      await t.close();
      const trusted = await fx.openReady([], { cwd: folder, ...size });
      expect(afterDialog).toBe(header(await trusted.screen()));
      expect(afterDialog).toBeGreaterThanOrEqual(0);
    });
  }

  it('wraps its paragraph with no space left at the start of a row (100×30)', async () => {
    const folder = await tempProject('yoke-untrusted-');
    const t = await fx.open([], { cwd: folder, width: 100, height: 30 });
    const screen = await t.waitFor('Enter to confirm');
    const paragraph = screen.split('\n').filter((row) => /^│ \S/.test(row) || /^│ {2}\S/.test(row));
    expect(paragraph.join('\n')).toContain('Trust only folders');
    // Ink's own wrap kept the space where a row broke, at the start of the next row.
    expect(paragraph.filter((row) => /^│ {2}\S/.test(row))).toEqual([]);
  });
});
