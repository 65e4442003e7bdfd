/**
 * The REPL's one grapheme segmenter, made on first use. Making the first `Intl` object of a
 * process initialises ICU (its locale and break data: ~20–30 ms and some 560 fresh memory pages on
 * a small machine), so a segmenter made when its module loads put that on the launch's critical
 * path although the first frame segments nothing (terminal/single-width.ts). The idle warm-up
 * (session/idle-warmup.ts) makes it before the user types; a segmenter holds no state between
 * calls, so one serves every caller.
 */
let segmenter: Intl.Segmenter | undefined;

export function graphemeSegments(text: string): Intl.Segments {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter.segment(text);
}
