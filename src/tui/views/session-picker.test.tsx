import '../testing/hide-ci';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { PickerSession } from '../../interactive/session-picker';
import { restoreCi } from '../testing/hide-ci';
import { renderView } from '../testing/render-view';
import { SessionPicker } from './session-picker';

afterAll(restoreCi);

const now = Date.parse('2026-03-01T12:00:00Z');
const sessions: PickerSession[] = [
  {
    sessionId: 'aaaa-1',
    path: '/s/a.jsonl',
    label: 'fix the parser bug',
    firstPrompt: 'fix the parser bug',
    gitBranch: 'main',
    modifiedMs: now - 5 * 60_000,
    size: 2048,
  },
  {
    sessionId: 'bbbb-2',
    path: '/s/b.jsonl',
    label: 'write the release notes',
    firstPrompt: 'write the release notes',
    gitBranch: 'docs',
    modifiedMs: now - 3 * 3_600_000,
    size: 3 * 1024 * 1024,
  },
  {
    sessionId: 'cccc-3',
    path: '/s/c.jsonl',
    // A title the model made, with an escape sequence that would set the terminal's title.
    label: 'tidy up\x1b]0;pwned\x07 imports',
    firstPrompt: 'tidy up',
    modifiedMs: now - 4 * 3_600_000,
    size: 1024,
  },
];

/** The picker over `sessions`; `picked` records what Enter picked and 'cancelled' for Esc. */
function renderPicker() {
  const picked: string[] = [];
  const view = renderView(
    <SessionPicker
      load={async () => sessions}
      now={now}
      cancelMeans="to go back"
      onPick={(s) => picked.push(s.sessionId)}
      onCancel={() => picked.push('cancelled')}
    />,
  );
  return { picked, view };
}

describe('the resume picker', () => {
  it('lists first prompt, age, size and branch; filters as typed; Enter picks', async () => {
    const { picked, view } = renderPicker();
    await vi.waitFor(() => expect(view.frame()).toContain('fix the parser bug'));
    const frame = view.frame();
    expect(frame).toMatch(/❯ 5m ago\s+2\.0 KB {2}fix the parser bug {2}\[main\]/);
    expect(frame).toMatch(/3h ago\s+3\.0 MB {2}write the release notes {2}\[docs\]/);
    expect(frame).toContain('tidy up␛]0;pwned␇ imports');
    view.type('release');
    await vi.waitFor(() => expect(view.frame()).not.toContain('parser'));
    expect(view.frame()).toContain('filter: release');
    view.type('\r');
    expect(picked).toEqual(['bbbb-2']);
  });

  it('moves with the arrows, says when nothing matches, and Esc cancels', async () => {
    const { picked, view } = renderPicker();
    await vi.waitFor(() => expect(view.frame()).toContain('release notes'));
    view.type('\x1b[B');
    await vi.waitFor(() => expect(view.frame()).toContain('❯ 3h ago'));
    view.type('\r');
    view.type('zzz');
    await vi.waitFor(() => expect(view.frame()).toContain('No other sessions in this folder yet.'));
    view.type('\r');
    view.type('\x1b');
    expect(picked).toEqual(['bbbb-2', 'cancelled']);
  });

  it('says why when the list cannot be read', async () => {
    const view = renderView(
      <SessionPicker
        load={async () => {
          throw new Error('EACCES: permission denied');
        }}
        cancelMeans="to go back"
        onPick={() => {}}
        onCancel={() => {}}
      />,
    );
    await vi.waitFor(() =>
      expect(view.frame()).toContain('The sessions could not be read: EACCES: permission denied'),
    );
  });
});
