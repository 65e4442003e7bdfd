/**
 * string-width's `/^\p{RGI_Emoji}$/v.test(grapheme)` (is this grapheme an emoji two columns
 * wide), answered without that expression for the shapes nearly every emoji has. Compiling it
 * takes ~40–100 ms on a small machine (more under load), at its first test: on the main thread, at
 * the first emoji of a session, while the user types. The expression is the union of the RGI emoji sets of
 * UTS #51, and each shape below has a test by code-point properties that compile in a fraction of
 * a millisecond and give the same answer for every string of that shape
 * (rgi-emoji-shortcut.test.ts compares them with the expression on every code point alone, with
 * U+FE0F and with each skin-tone modifier). A flag (two regional indicators) and a tag sequence
 * (a black flag and tag characters) can only be RGI emoji of their own set, whose expressions
 * compile in a few milliseconds; the test compares them with the whole one on every pair of
 * regional indicators and on tag sequences. Other shapes — ZWJ sequences above all — are left to
 * the expression (`undefined`); string-width asks it about a ZWJ sequence only when its own
 * two-pictographs rule has not already made it wide (the build swaps the two tests:
 * scripts/lazy-intl.mjs). The build puts this in front of string-width's test. Both sides read
 * the Unicode data of the Node that runs them; the test is what proves they agree on it (the
 * family's exception, for one, is that data's).
 */

// Made on first use, not when Ink loads (~0.7 ms on the launch path); written with `new RegExp`
// since TypeScript's target has no `v` flag.
const v = (source: string) => new RegExp(source, 'v');
let made: { maybe: RegExp; basic: RegExp; textAsEmoji: RegExp; toned: RegExp; keycap: RegExp } | undefined;
const expressions = () =>
  (made ??= {
    /**
     * What every RGI emoji contains: a non-ASCII Emoji code point (a basic emoji, a modifier base,
     * a regional indicator, a tag sequence's flag, a ZWJ sequence's parts) or the keycap mark
     * U+20E3. Text with neither (CJK, Latin, box drawing) is no emoji.
     */
    maybe: v(String.raw`[\p{Emoji}--\p{ASCII}]|\u20E3`),
    /** One code point: the emoji shown as emoji by default, but the regional indicators alone. */
    basic: v(String.raw`^[\p{Emoji_Presentation}--\p{Regional_Indicator}]$`),
    /** Shown as text by default, asked for as emoji (U+FE0F); digits, # and * only as keycaps. */
    textAsEmoji: v(String.raw`^[\p{Emoji}--\p{Emoji_Presentation}--[0-9#*]]\uFE0F$`),
    /** A skin tone on a base that takes one, but the family (U+1F46A): its toned forms are ZWJ sequences. */
    toned: v(String.raw`^[\p{Emoji_Modifier_Base}--\u{1F46A}]\p{Emoji_Modifier}$`),
    keycap: /^[0-9#*]\uFE0F\u20E3$/,
  });
// The flag and tag sets' own expressions: made at the first flag or tag sequence (~1–5 ms).
const onFirstUse = (source: string) => {
  let made: RegExp | undefined;
  return (text: string) => {
    made ??= v(source);
    return made.test(text);
  };
};
const isFlag = onFirstUse(String.raw`^\p{RGI_Emoji_Flag_Sequence}$`);
const isTagSequence = onFirstUse(String.raw`^\p{RGI_Emoji_Tag_Sequence}$`);
const isRegionalIndicator = (codePoint: number) => codePoint >= 0x1f1e6 && codePoint <= 0x1f1ff;
const isTag = (codePoint: number) => codePoint >= 0xe0020 && codePoint <= 0xe007f;
const BLACK_FLAG = 0x1f3f4;

/** Whether an RGI emoji may be in `text` at all (see `maybe` above). */
export const maybeEmoji = (text: string): boolean => expressions().maybe.test(text);

const units = (codePoint: number) => (codePoint > 0xffff ? 2 : 1);

/** True or false where the shape of `grapheme` decides it; undefined where the expression must. */
export function rgiEmojiShortcut(grapheme: string): boolean | undefined {
  const { maybe, basic, textAsEmoji, toned, keycap } = expressions();
  if (!maybe.test(grapheme)) return false;
  const first = grapheme.codePointAt(0) as number;
  const afterFirst = units(first);
  if (grapheme.length === afterFirst) return basic.test(grapheme);
  const second = grapheme.codePointAt(afterFirst) as number;
  // A black flag and tag characters: only the tag sequences' set holds such a string.
  if (first === BLACK_FLAG && isTag(second) && !grapheme.includes('\u200d')) return isTagSequence(grapheme);
  if (grapheme.length === afterFirst + units(second)) {
    if (second === 0xfe0f) return textAsEmoji.test(grapheme);
    if (second >= 0x1f3fb && second <= 0x1f3ff) return toned.test(grapheme);
    // RGI_Emoji's other sets hold no pair of regional indicators but its flags.
    if (isRegionalIndicator(first) && isRegionalIndicator(second)) return isFlag(grapheme);
    return undefined;
  }
  return keycap.test(grapheme) ? true : undefined;
}
