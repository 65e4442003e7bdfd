import { describe, expect, it } from 'vitest';
// Ink's own Output, which the vendor bundle's copy replaces (scripts/esbuild-plugins.mjs).
import InkOutput from '../../../node_modules/ink/build/output.js';
import RowOutput from './row-output';

type Transformer = (line: string, index: number) => string;
type Clip = {
  x1: number | undefined;
  x2: number | undefined;
  y1: number | undefined;
  y2: number | undefined;
};
type Step = { write: [number, number, string, Transformer[]] } | { clip: Clip } | { unclip: true };
type Frame = { width: number; height: number; steps: Step[] };

/** Runs the same writes through Ink's Output and Yoke's, and returns both results. */
function both(frame: Frame) {
  const results = [new InkOutput(frame), new RowOutput(frame)].map((output) => {
    for (const step of frame.steps) {
      if ('write' in step) {
        const [x, y, text, transformers] = step.write;
        output.write(x, y, text, { transformers });
      } else if ('clip' in step) output.clip(step.clip);
      else output.unclip();
    }
    return output.get();
  });
  return { ink: results[0], yoke: results[1] };
}

const bold = (s: string) => `\x1b[1m${s}\x1b[22m`;
const dim = (s: string) => `\x1b[2m${s}\x1b[22m`;
const cyan = (s: string) => `\x1b[36m${s}\x1b[39m`;
const orange = (s: string) => `\x1b[38;5;208m${s}\x1b[39m`;
const link = (s: string) => `\x1b]8;;https://example.com\x07${s}\x1b]8;;\x07`;
const upper: Transformer = (line) => line.toUpperCase();
const numbered: Transformer = (line, index) => `${index}│${line}`;
const coloured: Transformer = (line) => cyan(line);
const noClip = { x1: undefined, x2: undefined, y1: undefined, y2: undefined };

// What the REPL's views write: a streamed answer (highlighted code, wide characters, emoji, a
// link), the input box and the status line; clipped the way a DraftBlock clips its rows.
const REAL: Record<string, Frame> = {
  'answer, input box, status': {
    width: 60,
    height: 14,
    steps: [
      { write: [2, 0, `Here is ${bold('part 1')} with ${cyan('`tokenize`')} — 界 and 🙂`, []] },
      { clip: { x1: 2, x2: 60, y1: 1, y2: 6 } },
      {
        write: [
          2,
          -2,
          [
            '```ts',
            ...Array.from({ length: 7 }, (_, i) => `${orange('export')} function step${i}() {} // 界 ${i}`),
          ].join('\n'),
          [],
        ],
      },
      { unclip: true },
      { write: [0, 7, `╭${'─'.repeat(58)}╮`, []] },
      { write: [0, 8, '│', []] },
      { write: [2, 8, `> typed text ${link('docs')} 👨‍👩‍👧 e\u0301`, []] },
      { write: [59, 8, '│', []] },
      { write: [0, 9, `╰${'─'.repeat(58)}╯`, []] },
      { write: [0, 10, dim('  claude-test · default · 12% of context'), []] },
    ],
  },
  'transformers per line': {
    width: 30,
    height: 5,
    steps: [{ write: [1, 1, 'one\ntwo\nthree', [upper, numbered, coloured]] }],
  },
  'overflow past the right edge and a wide character cut by a later write': {
    width: 10,
    height: 3,
    steps: [
      { write: [6, 0, 'overflowing text', []] },
      { write: [0, 1, '漢字漢字', []] },
      { write: [1, 1, 'x', []] },
      { write: [9, 2, '界', []] },
    ],
  },
  'rows above and below the frame, and a clip that covers nothing': {
    width: 20,
    height: 4,
    steps: [
      { write: [0, -1, 'above\nfirst row?', []] },
      { write: [0, 3, 'last\nbelow', []] },
      { clip: { x1: 30, x2: 40, y1: 0, y2: 4 } },
      { write: [0, 1, 'outside the clip', []] },
      { unclip: true },
      { clip: { ...noClip, y1: 1, y2: 2 } },
      { write: [0, 0, 'a\nb\nc', []] },
      { unclip: true },
    ],
  },
  'nested clips, styled text sliced at both ends': {
    width: 24,
    height: 4,
    steps: [
      { clip: { x1: 2, x2: 20, y1: 0, y2: 4 } },
      { clip: { x1: 4, x2: 12, y1: 1, y2: 3 } },
      {
        write: [
          0,
          0,
          `${bold('bold words')} ${cyan('cyan 漢字 words')}\n${link('a link that is long')}\nthird\nfourth`,
          [],
        ],
      },
      { unclip: true },
      { write: [0, 3, orange('under the outer clip only'), []] },
      { unclip: true },
    ],
  },
};

/** A small seeded generator, so a failure names a frame that can be run again. */
function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state;
  };
  return {
    int: (n: number) => next() % n,
    pick: <T>(items: readonly T[]) => items[next() % items.length] as T,
  };
}

const PIECES = [
  'a',
  'word ',
  ' ',
  '界',
  '漢字',
  '🙂',
  '👨‍👩‍👧',
  'e\u0301',
  '─',
  '\t',
  '\x1b[1m',
  '\x1b[22m',
  '\x1b[31m',
  '\x1b[39m',
  '\x1b[38;5;208m',
  '\x1b[48;2;10;20;30m',
  '\x1b[0m',
  '\x1b[4m',
  '\x1b]8;;https://example.com\x07',
  '\x1b]8;;\x07',
  '\n',
];
const TRANSFORMERS: Transformer[][] = [[], [], [upper], [numbered], [coloured, numbered]];

function randomFrame(seed: number): Frame {
  const g = generator(seed);
  const width = 1 + g.int(40);
  const height = 1 + g.int(12);
  const steps: Step[] = [];
  let open = 0;
  const coord = (n: number) => g.int(n + 8) - 4;
  for (let i = 0, n = 1 + g.int(12); i < n; i++) {
    const roll = g.int(10);
    if (roll < 2) {
      const x1 = g.int(3) === 0 ? undefined : coord(width);
      const y1 = g.int(3) === 0 ? undefined : coord(height);
      steps.push({
        clip: {
          x1,
          x2: x1 === undefined ? undefined : x1 + g.int(width),
          y1,
          y2: y1 === undefined ? undefined : y1 + g.int(height),
        },
      });
      open++;
    } else if (roll < 3 && open > 0) {
      steps.push({ unclip: true });
      open--;
    } else {
      let text = '';
      for (let k = 0, m = g.int(14); k < m; k++) text += g.pick(PIECES);
      steps.push({ write: [coord(width), coord(height), text, g.pick(TRANSFORMERS)] });
    }
  }
  return { width, height, steps };
}

describe('RowOutput (Ink vendor seam)', () => {
  it.each(Object.entries(REAL))('makes the frame Ink makes: %s', (_name, frame) => {
    const { ink, yoke } = both(frame);
    expect(yoke).toEqual(ink);
    // Again, with every row now remembered.
    expect(both(frame).yoke).toEqual(ink);
  });

  it('makes the frame Ink makes for 1,600 random frames, made afresh and remembered', () => {
    for (let pass = 0; pass < 2; pass++)
      for (let seed = 1; seed <= 800; seed++) {
        const frame = randomFrame(seed);
        const { ink, yoke } = both(frame);
        expect(yoke, `seed ${seed}, pass ${pass}`).toEqual(ink);
      }
  });
});
