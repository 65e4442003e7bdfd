/**
 * The Ink bundle's text packages, built with scripts/lazy-intl.mjs's edits, must answer as the
 * packages do. ansi-tokenize walks a row one code unit at a time when each of its characters
 * stands alone: it must tokenize every row as the package's own `tokenize` — rows the fast path
 * takes (ASCII with escape sequences, box drawing, Latin), rows it must leave to the segmenter
 * (CR LF, combining marks, emoji, wide characters), and random rows of both. string-width tests
 * its RGI_Emoji expression only where rgi-emoji-shortcut.ts cannot answer (its own test compares
 * the two): its cheap first check must hold for every RGI emoji, and the widths must be the
 * package's.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { tokenize as packageTokenize } from '@alcalzone/ansi-tokenize';
import { build } from 'esbuild';
import packageStringWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphemeFastPath, LAZY_INTL_FILES, lazyIntl } from '../../../scripts/lazy-intl.mjs';
import { SAMPLE_ROWS, seededRow } from './sample-rows';

const root = join(import.meta.dirname, '../../..');
type Tokenize = typeof packageTokenize;
let edited: Tokenize;
let editedStringWidth: typeof packageStringWidth;
const builtFiles: string[] = [];

/** The package's module built as the Ink bundle builds it, loaded from a temporary file. */
async function buildEdited<Exports>(
  entry: string,
  fileOf: (entry: (typeof LAZY_INTL_FILES)[number]) => boolean,
) {
  const expected = LAZY_INTL_FILES.find(fileOf);
  if (!expected) throw new Error(`no lazy-intl entry for ${entry}`);
  const result = await build({
    absWorkingDir: root,
    stdin: { contents: entry, resolveDir: root },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'lazy-intl-under-test',
        setup(pluginBuild) {
          pluginBuild.onLoad({ filter: expected.file }, async (args) => {
            const contents = lazyIntl(
              await readFile(args.path, 'utf8'),
              args.path,
              expected,
              join(root, 'src/tui/terminal/rgi-emoji-shortcut.ts'),
            );
            return {
              contents: expected.fastPath
                ? graphemeFastPath(contents, args.path, join(root, 'src/tui/terminal/single-width.ts'))
                : contents,
              loader: 'js',
              resolveDir: dirname(args.path),
            };
          });
        },
      },
    ],
  });
  const file = join(tmpdir(), `yoke-lazy-intl-${process.pid}-${builtFiles.length}.cjs`);
  builtFiles.push(file);
  writeFileSync(file, result.outputFiles[0]?.text ?? '');
  return (await import(file)) as Exports;
}

beforeAll(async () => {
  edited = (
    await buildEdited<{ tokenize: Tokenize }>(
      "export { tokenize } from '@alcalzone/ansi-tokenize';",
      (entry) => entry.fastPath === true,
    )
  ).tokenize;
  editedStringWidth = (
    await buildEdited<{ stringWidth: typeof packageStringWidth }>(
      "import stringWidth from 'string-width';\nexport { stringWidth };",
      (entry) => entry.rgiEmoji > 0,
    )
  ).stringWidth;
});

afterAll(() => {
  for (const file of builtFiles) rmSync(file, { force: true });
});

const ROWS = SAMPLE_ROWS;
const randomRow = (seed: number) => seededRow(seed);

describe('ansi-tokenize with the fast path', () => {
  it.each(ROWS)('tokenizes %j as the package does', (row) => {
    expect(edited(row)).toEqual(packageTokenize(row));
  });

  it('tokenizes 3,000 random rows as the package does', () => {
    for (let seed = 1; seed <= 3000; seed++) {
      const row = randomRow(seed);
      expect(edited(row), `seed ${seed}: ${JSON.stringify(row)}`).toEqual(packageTokenize(row));
    }
  });

  it('stops at the same visible width when given one', () => {
    for (const row of ROWS) expect(edited(row, 5)).toEqual(packageTokenize(row, 5));
  });
});

describe('string-width with its RGI_Emoji expression behind the shortcut', () => {
  it.each([
    '界 漢字 wide',
    'café naïve',
    '🙂 👨‍👩‍👧 👍🏽 ❤️ 🇩🇪 1️⃣ #⃣ 🏴󠁧󠁢󠁥󠁮󠁧󠁿',
    '⚠️ ✅ ☝🏻 ✌️ 👪🏻 🇦🇦 1️ 😀️ 🏻',
    '한국어 ｶﾞ ﾞ',
    'e\u0301 \u200d \ufe0f ©️ ® ™',
    '\x1b[31m界🙂\x1b[39m',
    // ZWJ sequences, RGI and not: string-width's own two-pictographs rule is asked first.
    '🏳️‍🌈 👁️‍🗨️ 🐻‍❄️ 🫱🏻‍🫲🏿 🧑‍🧑‍🧒‍🧒 👩🏽‍💻 🏴‍☠️ ❤️‍🔥',
    '🦊‍🔥 👨‍a a‍👨 👍🏻‍ ‍👨 🙂‍ 1️⃣‍🙂 🇩🇪‍🇫🇷',
  ])('measures %j as the package does', (text) => {
    expect(editedStringWidth(text)).toBe(packageStringWidth(text));
    expect(editedStringWidth(text, { ambiguousIsNarrow: false })).toBe(
      packageStringWidth(text, { ambiguousIsNarrow: false }),
    );
  });
});

describe("the order of string-width's two width tests", () => {
  const shipped = [
    'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;',
    'if (rgiEmojiRegex.test(segment) || isDoubleWidthNonRgiEmojiSequence(segment)) { width += 2; }',
  ].join('\n');
  const expected = { file: /x/, segmenters: 0, rgiEmoji: 1 };

  it("asks the package's ZWJ rule before the RGI expression", () => {
    const out = lazyIntl(shipped, 'string-width/index.js', expected, 'shortcut.ts');
    expect(out).toContain('isDoubleWidthNonRgiEmojiSequence(segment) || rgiEmojiRegex.test(segment)');
    expect(out).not.toContain('rgiEmojiRegex.test(segment) || isDoubleWidthNonRgiEmojiSequence');
  });

  it('stops the build when the package tests a grapheme otherwise', () => {
    const changed = shipped.replace(' || isDoubleWidthNonRgiEmojiSequence(segment)', '');
    expect(() => lazyIntl(changed, 'string-width/index.js', expected, 'shortcut.ts')).toThrow(
      /no longer tests a grapheme's width as expected/,
    );
  });
});
