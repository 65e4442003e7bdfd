import '../testing/hide-ci';
import { afterAll, describe, expect, it } from 'vitest';
import { restoreCi } from '../testing/hide-ci';
import { renderView } from '../testing/render-view';
import type { TranscriptSnapshot } from '../transcript/transcript-store';
import { LiveRegion } from './live-region';
import { TranscriptItemView } from './transcript-item';

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

describe('an answer line exactly as wide as the answer area', () => {
  // 98 columns beside the indent: a word that ends in the last column, then the rest of the line.
  const cases = [
    { name: 'w-1', first: 'a'.repeat(97) },
    { name: 'w', first: 'a'.repeat(98) },
    { name: 'w, wide characters', first: '中'.repeat(49) },
    { name: 'w+1 (the word itself is cut)', first: 'a'.repeat(99) },
  ];
  for (const { name, first } of cases)
    it(`starts the next row at the indent, streaming and settled (${name})`, () => {
      const text = `${first} next words`;
      const settled = renderView(
        <TranscriptItemView
          item={{ kind: 'assistant', id: 'a1', text, continued: false }}
          cwd="/p"
          full={false}
        />,
      );
      const streamingView = renderView(region(text, 5));
      for (const view of [settled, streamingView]) {
        const rows = view
          .frame()
          .split('\n')
          .filter((row) => row.trim() !== '');
        expect(rows).toHaveLength(2);
        expect(rows[1]).toMatch(/^ {2}\S/);
        expect(rows[1]).toMatch(/next words$/);
        view.unmount();
      }
    });
});
