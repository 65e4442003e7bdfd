import '../testing/hide-ci';
import { afterAll, describe, expect, it } from 'vitest';
import { restoreCi } from '../testing/hide-ci';
import { renderView } from '../testing/render-view';
import type { TranscriptSnapshot } from '../transcript/transcript-store';
import { LiveRegion } from './live-region';

afterAll(restoreCi);

const streaming = (text: string): TranscriptSnapshot => ({
  committed: [],
  lastTodoCall: undefined,
  live: [],
  draft: { kind: 'text', text },
  turnTokens: 0,
});

const region = (text: string, maxDraftLines: number) => (
  <LiveRegion
    snapshot={streaming(text)}
    cwd="/p"
    full={false}
    now={0}
    tokens={0}
    turnStartedAt={undefined}
    maxDraftLines={maxDraftLines}
  />
);

describe('the block being streamed', () => {
  // ink-testing-library's terminal is 100 columns wide: the answer has 98 beside its indent.
  it('shows only the last rows of one long paragraph, as the terminal wraps it', () => {
    const words = Array.from({ length: 300 }, (_, i) => `w${String(i + 1).padStart(3, '0')}`);
    const view = renderView(region(words.join(' '), 5));
    const rows = view
      .frame()
      .split('\n')
      .filter((row) => row.trim() !== '');
    expect(rows).toHaveLength(5);
    expect(rows.at(-1)).toMatch(/w300$/);
    expect(view.frame()).not.toContain('w001');
    view.unmount();
  });

  it('leaves a short paragraph its own height', () => {
    const view = renderView(region('Just a few words.', 5));
    expect(
      view
        .frame()
        .split('\n')
        .filter((row) => row.trim() !== ''),
    ).toEqual(['  Just a few words.']);
    view.unmount();
  });
});
