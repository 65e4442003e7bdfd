/**
 * The shortcut must answer as string-width's RGI_Emoji expression does on every string of each
 * shape it decides: every code point alone and followed by U+FE0F; every code point followed by
 * the first skin-tone modifier, and every Emoji code point (the only ones a modifier sequence
 * starts with, UTS #51) followed by each of the others; the keycaps; every pair of regional
 * indicators; and tag sequences.
 */
import { describe, expect, it } from 'vitest';
import { maybeEmoji, rgiEmojiShortcut } from './rgi-emoji-shortcut';

// biome-ignore lint/complexity/useRegexLiterals: TypeScript's target has no `v` flag for a literal.
const RGI = new RegExp(String.raw`^\p{RGI_Emoji}$`, 'v');

/** Every scalar value, as a string. */
function everyCodePoint(): string[] {
  const all: string[] = [];
  for (let code = 0; code <= 0x10ffff; code++)
    if (code < 0xd800 || code > 0xdfff) all.push(String.fromCodePoint(code));
  return all;
}

/** How many candidates the expression matches, and where the shortcut disagrees or leaves it open. */
function compare(candidates: string[]) {
  let matched = 0;
  const wrong: string[] = [];
  const open: string[] = [];
  for (const text of candidates) {
    const expected = RGI.test(text);
    if (expected) matched++;
    const answer = rgiEmojiShortcut(text);
    const hex = [...text].map((c) => (c.codePointAt(0) as number).toString(16)).join(' ');
    if (answer === undefined) open.push(hex);
    else if (answer !== expected) wrong.push(`${hex}: ${answer}`);
  }
  return { matched, wrong, open };
}

const codePoints = everyCodePoint();
const emojiCodePoints = codePoints.filter((c) => /\p{Emoji}/u.test(c));

describe('rgiEmojiShortcut', () => {
  it('answers as the expression for every code point alone', () => {
    const { matched, wrong, open } = compare(codePoints);
    expect(wrong).toEqual([]);
    expect(open).toEqual([]);
    expect(matched).toBeGreaterThan(1000);
  }, 30_000);

  it('answers as the expression for every code point followed by U+FE0F', () => {
    const { matched, wrong, open } = compare(codePoints.map((c) => `${c}\ufe0f`));
    expect(wrong).toEqual([]);
    expect(open).toEqual([]);
    expect(matched).toBeGreaterThan(200);
  }, 30_000);

  it('answers as the expression for every code point followed by a skin tone', () => {
    const first = compare(codePoints.map((c) => `${c}\u{1F3FB}`));
    expect(first.wrong).toEqual([]);
    expect(first.open).toEqual([]);
    expect(first.matched).toBeGreaterThan(100);
    for (const tone of ['\u{1F3FC}', '\u{1F3FD}', '\u{1F3FE}', '\u{1F3FF}']) {
      const { matched, wrong, open } = compare(emojiCodePoints.map((c) => `${c}${tone}`));
      expect({ tone, wrong, open, matched }).toEqual({ tone, wrong: [], open: [], matched: first.matched });
    }
  }, 30_000);

  it('answers for the keycaps, and leaves ZWJ sequences to the expression', () => {
    const keycaps = [...'0123456789#*'].map((c) => `${c}\ufe0f\u20e3`);
    expect(compare(keycaps)).toEqual({ matched: 12, wrong: [], open: [] });
    for (const sequence of ['👨‍👩‍👧', '❤️‍🔥', '👩🏽‍💻', '🏴‍☠️'])
      expect(rgiEmojiShortcut(sequence)).toBeUndefined();
  });

  it('answers as the expression for every pair of regional indicators', () => {
    const indicators = Array.from({ length: 26 }, (_, i) => String.fromCodePoint(0x1f1e6 + i));
    const pairs = indicators.flatMap((a) => indicators.map((b) => a + b));
    const { matched, wrong, open } = compare(pairs);
    expect(wrong).toEqual([]);
    expect(open).toEqual([]);
    expect(matched).toBeGreaterThan(250);
  });

  it('answers as the expression for tag sequences, RGI or not', () => {
    const tagged = (letters: string, end = true) =>
      `\u{1F3F4}${[...letters].map((c) => String.fromCodePoint(0xe0000 + (c.codePointAt(0) as number))).join('')}${end ? '\u{E007F}' : ''}`;
    const candidates = [
      ...['gbeng', 'gbsct', 'gbwls', 'gbxyz', 'usca', 'us', 'g', 'gbengx', 'GBENG'].map((t) => tagged(t)),
      tagged('gbeng', false),
      // Every single tag character after the black flag, with and without the cancel tag.
      ...Array.from({ length: 0x60 }, (_, i) => String.fromCodePoint(0x1f3f4, 0xe0020 + i)),
      ...Array.from({ length: 0x60 }, (_, i) => String.fromCodePoint(0x1f3f4, 0xe0020 + i, 0xe007f)),
    ];
    const { matched, wrong, open } = compare(candidates);
    expect(wrong).toEqual([]);
    expect(open).toEqual([]);
    expect(matched).toBe(3);
  });

  it('says no at once for text with no emoji code point in it', () => {
    for (const text of ['界', 'é', '─', 'e\u0301', '한', 'ｶﾞ'])
      expect([maybeEmoji(text), rgiEmojiShortcut(text)]).toEqual([false, false]);
  });
});
