// Ink's text packages make their Intl.Segmenter (and string-width its RGI_Emoji expression) when
// their modules load. The first Intl object of a process initialises ICU — ~20–30 ms and some 560
// fresh memory pages on a small machine — and compiling that expression ~5–10 ms more: all of it
// on the REPL's launch path, although the first frame segments nothing (its rows are measured by
// src/tui/terminal/single-width.ts). Each is made on first use instead. Every use in these files
// is a `.segment(…)` or `.test(…)` call, which the build checks, so a stand-in with that one
// method behaves the same; the build fails if a package no longer reads as expected.

/**
 * The modules, and how many segmenters (and RGI expressions) each makes at load. The first match
 * wins (esbuild's filters have no look-behind), so wrap-ansi's own string-width comes first.
 */
export const LAZY_INTL_FILES = [
  { file: /[\\/]wrap-ansi[\\/]node_modules[\\/]string-width[\\/]index\.js$/, segmenters: 1, rgiEmoji: 0 },
  { file: /[\\/]node_modules[\\/]string-width[\\/]index\.js$/, segmenters: 1, rgiEmoji: 1 },
  { file: /[\\/]slice-ansi[\\/]tokenize-ansi\.js$/, segmenters: 1, rgiEmoji: 0 },
  {
    file: /[\\/]@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]tokenize\.js$/,
    segmenters: 1,
    rgiEmoji: 0,
    fastPath: true,
  },
];

const SEGMENTER = /const (\w+) = new Intl\.Segmenter\(([^)]*)\);/g;
const RGI_EMOJI = /const (\w+) = (\/\^\\p\{RGI_Emoji\}\$\/v);/g;

/**
 * string-width's RGI_Emoji expression takes ~40–170 ms to compile on a small machine, at its first
 * test — the first emoji of a session, while the user types. Each test asks
 * src/tui/terminal/rgi-emoji-shortcut.ts first: it answers from code-point properties for text
 * with no emoji code point (CJK, Latin, borders) and for the shapes nearly every emoji has (one
 * code point, one with U+FE0F, one with a skin tone, a keycap), the same as the expression on
 * every such string (its test), and for flags and tag sequences from their own sets' small
 * expressions. A ZWJ sequence of two pictographs is wide by string-width's own rule, asked first
 * (nonRgiTestFirst); other ZWJ shapes still compile the expression.
 */
const rgiStandIn = (name, literal) =>
  `const ${name} = (() => { let made; return { test: (text) => __yokeRgiShortcut(text) ?? (made ??= ${literal}).test(text) }; })();`;

/**
 * string-width calls a grapheme wide if it is an RGI emoji or a ZWJ sequence of two or more
 * pictographs (`a || b`, both pure). Nearly every ZWJ emoji is the second, which the package
 * tells from properties; asked first, it spares the first ZWJ emoji of a session the RGI
 * expression's compile (~100 ms; the shortcut cannot answer for ZWJ sequences). Same width for
 * every string: `a || b` and `b || a` agree when neither has an effect.
 */
function nonRgiTestFirst(contents, name, path) {
  const asShipped = `${name}.test(segment) || isDoubleWidthNonRgiEmojiSequence(segment)`;
  if (contents.split(asShipped).length !== 2)
    throw new Error(`lazy-intl: ${path} no longer tests a grapheme's width as expected`);
  return contents.replace(asShipped, `isDoubleWidthNonRgiEmojiSequence(segment) || ${name}.test(segment)`);
}

/** `const name = {member(text) {…}}`, making the real object on the first call. */
const standIn = (name, make, member) =>
  `const ${name} = (() => { let made; return { ${member}: (text) => (made ??= ${make}).${member}(text) }; })();`;

/** The source without its comments (roughly: enough to count where a name is used). */
const withoutComments = (contents) =>
  contents.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

/** Every mention of `name` but its declaration must be a call of `member`. */
function checkUses(source, name, member, path) {
  const contents = withoutComments(source);
  const mentions = contents.match(new RegExp(`\\b${name}\\b`, 'g'))?.length ?? 0;
  const calls = contents.match(new RegExp(`\\b${name}\\.${member}\\(`, 'g'))?.length ?? 0;
  if (mentions !== calls + 1)
    throw new Error(
      `lazy-intl: ${path} uses ${name} other than through .${member}(); it can no longer be made lazily`,
    );
}

/** `rgiShortcutModule`: the path of rgi-emoji-shortcut.ts, which a file with an RGI expression imports. */
export function lazyIntl(contents, path, expected, rgiShortcutModule) {
  let segmenters = 0;
  let rgiEmoji = 0;
  let out = contents.replace(SEGMENTER, (_, name, args) => {
    checkUses(contents, name, 'segment', path);
    segmenters++;
    return standIn(name, `new Intl.Segmenter(${args})`, 'segment');
  });
  const rgiNames = [];
  out = out.replace(RGI_EMOJI, (_, name, literal) => {
    checkUses(contents, name, 'test', path);
    rgiEmoji++;
    rgiNames.push(name);
    return rgiStandIn(name, literal);
  });
  for (const name of rgiNames) out = nonRgiTestFirst(out, name, path);
  if (segmenters !== expected.segmenters || rgiEmoji !== expected.rgiEmoji)
    throw new Error(
      `lazy-intl: ${path} made ${segmenters} segmenters and ${rgiEmoji} RGI_Emoji expressions at load, ` +
        `not ${expected.segmenters} and ${expected.rgiEmoji}: its source changed`,
    );
  if (/new Intl\.Segmenter/.test(out.replace(/made \?\?= new Intl\.Segmenter/g, '')))
    throw new Error(`lazy-intl: ${path} still makes a segmenter at load`);
  if (rgiEmoji === 0) return out;
  if (!rgiShortcutModule) throw new Error(`lazy-intl: ${path} needs the RGI emoji shortcut's module`);
  return `import { rgiEmojiShortcut as __yokeRgiShortcut } from ${JSON.stringify(rgiShortcutModule)};\n${out}`;
}

/**
 * Ink paints each row through @alcalzone/ansi-tokenize's `tokenize`, which walks the row by
 * graphemes — so even made lazily, its segmenter (and ICU with it) would come with the first
 * frame. A row whose characters each stand alone needs no segmenting: ASCII (escape sequences
 * included) but a carriage return (CR LF is one grapheme), and the characters
 * src/tui/terminal/single-width.ts lists, none of which joins a neighbour. Such a row is walked
 * one code unit at a time, which gives the same segments; any other row is segmented as before.
 * src/tui/terminal/lazy-intl.test.ts compares the two on real and random rows.
 */
export function graphemeFastPath(contents, path, singleWidthModule) {
  const loop = 'for (const { segment, index } of segmenter.segment(str)) {';
  if (contents.split(loop).length !== 2)
    throw new Error(`lazy-intl: ${path} no longer walks a row as expected`);
  const helpers = [
    `import { isSingleWidth as __yokeSingleWidth } from ${JSON.stringify(singleWidthModule)};`,
    // One result object for the whole row, not a generator's two per character (a painted row
    // was ~7 MB of the streaming phase's allocation): the only loop over it destructures each
    // unit before asking for the next (the check above holds it to that loop).
    'function __yokeUnits(str) {',
    "  let index = -1; const unit = { segment: '', index: 0 }; const step = { value: unit, done: false };",
    '  return { [Symbol.iterator]() { return this; }, next() {',
    '    if (++index >= str.length) return { value: undefined, done: true };',
    '    unit.segment = str[index]; unit.index = index; return step;',
    '  } };',
    '}',
    'function __yokeGraphemes(str) {',
    '  for (let i = 0; i < str.length; i++) {',
    '    const c = str.charCodeAt(i);',
    '    if (c < 0x80 ? c === 13 : !__yokeSingleWidth(c)) return segmenter.segment(str);',
    '  }',
    '  return __yokeUnits(str);',
    '}',
  ].join('\n');
  return `${helpers}\n${contents.replace(loop, 'for (const { segment, index } of __yokeGraphemes(str)) {')}`;
}
