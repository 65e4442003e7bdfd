import '../testing/hide-ci';
import { afterAll, describe, expect, it, vi } from 'vitest';
// Ink's own Output, the one its renderer uses under the tests (Ink runs unpatched here).
import InkOutput from '../../../node_modules/ink/build/output.js';
import { App } from '../app';
import { ReplSession } from '../session/repl-session';
import { assistantFrame, streamFrame, toolResultFrame } from '../session/scripted-engine';
import { restoreCi } from '../testing/hide-ci';
import { renderView } from '../testing/render-view';
import { colourStyle } from '../views/ansi';
import RowOutput from './row-output';

type Operation =
  | {
      type: 'write';
      x: number;
      y: number;
      text: string;
      transformers: ((line: string, index: number) => string)[];
    }
  | { type: 'clip'; clip: Parameters<RowOutput['clip']>[0] }
  | { type: 'unclip' };

/**
 * Every frame Ink makes while the REPL's real views render is made again by RowOutput from the
 * same writes, and the two strings compared: each mismatch is kept, with its frame's number.
 */
function compareEveryFrame() {
  const checked = { frames: 0, mismatches: [] as string[] };
  const inkGet = InkOutput.prototype.get;
  const spy = vi.spyOn(InkOutput.prototype, 'get').mockImplementation(function (this: InkOutput) {
    const result = inkGet.call(this);
    const ours = new RowOutput({ width: this.width, height: this.height });
    for (const op of (this as unknown as { operations: Operation[] }).operations) {
      if (op.type === 'write') ours.write(op.x, op.y, op.text, { transformers: op.transformers });
      else if (op.type === 'clip') ours.clip(op.clip);
      else ours.unclip();
    }
    const mine = ours.get();
    checked.frames++;
    if (mine.output !== result.output || mine.height !== result.height)
      checked.mismatches.push(
        `frame ${checked.frames}: ${JSON.stringify(mine)} != ${JSON.stringify(result)}`,
      );
    return result;
  });
  return { checked, restore: () => spy.mockRestore() };
}

afterAll(restoreCi);

const actions = {
  submit: () => {},
  exit: () => {},
  suspend: () => {},
  editExternally: () => undefined,
  complete: async () => [],
};

const ANSWER = [
  'Here is **the parser**, with `tokenize` split out — 界 and 🙂 included:\n\n',
  '| step | what | 中文 |\n|---|---|---|\n| 1 | *read* | 读 |\n| 2 | **parse** | 解析 |\n\n',
  '```ts\n',
  ...Array.from(
    { length: 14 },
    (_, i) => `export const step${i} = (s: string) => s.charCodeAt(${i}); // 界 ${i}\n`,
  ),
  '```\n\n',
  '- a list item that is long enough to wrap across the answer width when the terminal is narrow\n',
  '- and [a link](https://example.com) 👨‍👩‍👧\n',
];

describe('RowOutput on the frames of the REPL', () => {
  it('makes every frame Ink makes while an answer streams, a tool runs and keys are typed', async () => {
    const { checked, restore } = compareEveryFrame();
    try {
      const session = new ReplSession();
      const view = renderView(
        <App
          session={session}
          cwd="/project"
          actions={actions}
          history={() => []}
          contextWindow={() => 200_000}
          backgroundShells={() => 0}
        />,
        colourStyle,
      );
      session.transcript.apply(
        streamFrame({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      );
      for (const text of ANSWER) {
        session.transcript.apply(
          streamFrame({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }),
        );
        view.type(text.slice(0, 3).replace(/\W/g, 'x'));
        await new Promise((resolve) => setTimeout(resolve, 55));
      }
      session.transcript.apply(assistantFrame([{ type: 'text', text: ANSWER.join('') }]));
      session.transcript.apply(
        assistantFrame([{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls -la 界' } }]),
      );
      await vi.waitFor(() => expect(view.frame()).toContain('ls -la'));
      session.transcript.apply(toolResultFrame('t1', 'total 0\n漢字.txt\nemoji-🙂.md'));
      view.type('\x15typed again 🙂 漢字');
      await vi.waitFor(() => expect(view.frame()).toContain('typed again'));
      view.unmount();
    } finally {
      restore();
    }
    expect(checked.mismatches).toEqual([]);
    expect(checked.frames).toBeGreaterThan(20);
  });
});
