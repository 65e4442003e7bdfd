import '../testing/hide-ci';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { restoreCi } from '../testing/hide-ci';
import { renderView } from '../testing/render-view';
import { type PromptActions, PromptInput, type Suggestion } from './prompt-input';

afterAll(restoreCi);

function setup(history: string[] = [], options: { running?: boolean; suggestions?: Suggestion[] } = {}) {
  const calls: string[] = [];
  const submitted: string[] = [];
  const actions: PromptActions = {
    submit: (text) => submitted.push(text),
    interrupt: () => {
      calls.push('interrupt');
      return options.running ?? false;
    },
    exit: () => calls.push('exit'),
    cycleMode: () => calls.push('cycleMode'),
    toggleFullOutput: () => calls.push('toggleFullOutput'),
    toggleTodos: () => calls.push('toggleTodos'),
    suspend: () => calls.push('suspend'),
    editExternally: (text) => `${text} (edited)`,
    complete: async (token) =>
      token.startsWith('@') || token.startsWith('/') ? (options.suggestions ?? []) : [],
  };
  const view = renderView(
    <PromptInput actions={actions} history={history} running={options.running ?? false} active />,
  );
  return { view, calls, submitted };
}

describe('PromptInput', () => {
  it('draws a typed key in the microtask after the key, before the event loop runs anything else', async () => {
    const { view } = setup();
    await vi.waitFor(() => expect(view.frame()).toContain('>'));
    let laterTurn = false;
    setImmediate(() => {
      laterTurn = true;
    });
    view.type('q');
    await Promise.resolve();
    // A default-priority update would still wait for a scheduler task on a later turn.
    expect(laterTurn).toBe(false);
    expect(view.frame()).toContain('q');
  });

  it('submits on Enter and applies every key of a fast burst, in order', async () => {
    const { view, submitted } = setup();
    view.type('helo\x1b[Dl\r');
    expect(submitted).toEqual(['hello']);
    await vi.waitFor(() => expect(view.frame()).toContain('>'));
  });

  it('continues a line with \\ + Enter, Ctrl+J and Shift+Enter', async () => {
    const { view, submitted } = setup();
    view.type('one\\\rtwo\nthree\x1b[13;2ufour\r');
    expect(submitted).toEqual(['one\ntwo\nthree\nfour']);
  });

  it('edits around an emoji by whole characters, so the prompt never holds half of one', async () => {
    const { view, submitted } = setup();
    view.type('a🎉b\x1b[D\x1b[D');
    // The cursor stands before the whole emoji (drawn as a bar without colours).
    await vi.waitFor(() => expect(view.frame()).toContain('> a|🎉b'));
    view.type('X\r');
    expect(submitted).toEqual(['aX🎉b']);
  });

  it('runs a command chosen with Enter, and a command typed out in full, with one Enter', async () => {
    const help = { value: '/help ', label: '/help', submits: true };
    let { view, submitted } = setup([], { suggestions: [help] });
    view.type('/he');
    await vi.waitFor(() => expect(view.frame()).toContain('/help'));
    view.type('\r');
    expect(submitted).toEqual(['/help']);
    view.unmount();
    ({ view, submitted } = setup([], { suggestions: [{ value: '@src/a.ts ', label: '@src/a.ts' }] }));
    // A file mention typed in full: Enter has nothing to complete, so it sends.
    view.type('read @src/a.ts');
    await vi.waitFor(() => expect(view.frame()).toContain('  @src/a.ts'));
    view.type('\r');
    expect(submitted).toEqual(['read @src/a.ts']);
  });

  it('shows each suggestion on one row, a long description cut short', async () => {
    const long =
      'Summarize the conversation to free context; optional instructions say what to keep and what to drop';
    const { view } = setup([], {
      suggestions: [
        { value: '/compact ', label: '/compact [instructions]', description: long },
        { value: '/context ', label: '/context' },
      ],
    });
    view.type('/co');
    await vi.waitFor(() => expect(view.frame()).toContain('/context'));
    const rows = view.frame().split('\n');
    const compact = rows.findIndex((row) => row.includes('/compact'));
    expect(rows[compact]).toMatch(/…$/);
    expect(rows[compact + 1]).toContain('/context');
  });

  it("shows a repository's file name and command description with their control characters as pictures", async () => {
    const { view } = setup([], {
      suggestions: [{ value: '@x ', label: '@notes\x1b[8m.md', description: 'lists\x1b]0;pwned\x07 things' }],
    });
    view.type('@no');
    await vi.waitFor(() => expect(view.frame()).toContain('@notes␛[8m.md'));
    expect(view.frame()).toContain('lists␛]0;pwned␇ things');
  });

  it('completes a half-typed mention with Enter without sending it', async () => {
    const { view, submitted } = setup([], { suggestions: [{ value: '@src/a.ts ', label: '@src/a.ts' }] });
    view.type('read @src/a');
    await vi.waitFor(() => expect(view.frame()).toContain('  @src/a.ts'));
    view.type('\r');
    await vi.waitFor(() => expect(view.frame()).toContain('> read @src/a.ts |'));
    expect(submitted).toEqual([]);
  });

  it('collapses a long bracketed paste and sends it whole', async () => {
    const { view, submitted } = setup();
    const long = Array.from({ length: 20 }, (_, i) => `row ${i}`).join('\n');
    view.type(`\x1b[200~${long}\x1b[201~`);
    await vi.waitFor(() => expect(view.frame()).toContain('[Pasted text #1 +20 lines]'));
    view.type('\r');
    expect(submitted).toEqual([long]);
  });

  it('recalls a long pasted prompt as a placeholder, sends it whole, and searches it in one line', async () => {
    const log = Array.from({ length: 30 }, (_, i) => `log line ${i}`).join('\n');
    const { view, submitted } = setup([log, 'short one']);
    view.type('\x1b[A\x1b[A');
    await vi.waitFor(() => expect(view.frame()).toContain('> [Pasted text #1 +30 lines]'));
    expect(view.frame()).not.toContain('log line 12');
    view.type('\r');
    expect(submitted).toEqual([log]);
    view.type('\x12log');
    await vi.waitFor(() =>
      expect(view.frame()).toContain("(reverse-i-search)`log': log line 0 (+29 more lines)"),
    );
    expect(view.frame()).not.toContain('log line 12');
  });

  it('recalls history with Up and Down, and searches it with Ctrl+R', async () => {
    const { view, submitted } = setup(['git status', 'npm test', 'npm run build']);
    view.type('\x1b[A\x1b[A');
    await vi.waitFor(() => expect(view.frame()).toContain('npm test'));
    view.type('\x1b[B\x1b[B');
    await vi.waitFor(() => expect(view.frame()).not.toContain('npm'));
    view.type('\x12git');
    await vi.waitFor(() => expect(view.frame()).toContain("(reverse-i-search)`git': git status"));
    view.type('\r');
    expect(submitted).toEqual(['git status']);
  });

  it('Ctrl+C clears the text, then asks for a second press before quitting; Ctrl+D quits on empty input', async () => {
    const { view, calls } = setup();
    view.type('draft\x03');
    await vi.waitFor(() => expect(view.frame()).not.toContain('draft'));
    view.type('\x03');
    await vi.waitFor(() => expect(view.frame()).toContain('Press Ctrl+C again to exit'));
    expect(calls).toEqual([]);
    view.type('\x03');
    expect(calls).toEqual(['exit']);
    view.type('\x04');
    expect(calls).toEqual(['exit', 'exit']);
  });

  it('Esc interrupts; Shift+Tab, Ctrl+O, Ctrl+T and Ctrl+Z reach the session', () => {
    const { view, calls } = setup([], { running: true });
    view.type('\x1b');
    view.type('\x1b[Z\x0f\x14\x1a');
    expect(calls).toEqual(['interrupt', 'cycleMode', 'toggleFullOutput', 'toggleTodos', 'suspend']);
  });

  it('Ctrl+G replaces the text with what the editor returned', async () => {
    const { view } = setup();
    view.type('fix it\x07');
    await vi.waitFor(() => expect(view.frame()).toContain('fix it (edited)'));
  });

  it('completes @paths and /commands with Tab', async () => {
    const { view, submitted } = setup([], { suggestions: [{ value: '@src/app.ts ', label: '@src/app.ts' }] });
    view.type('read @src/a');
    await vi.waitFor(() => expect(view.frame()).toContain('@src/app.ts'));
    view.type('\t');
    view.type('now\r');
    expect(submitted).toEqual(['read @src/app.ts now']);
  });

  it('shows the shell and memory modes by their prefix, drawn once, and sends the line whole', async () => {
    const { view, submitted } = setup();
    view.type('!ls');
    await vi.waitFor(() => expect(view.frame()).toContain('! ls|'));
    expect(view.frame()).not.toContain('!ls');
    view.type('\r#use pnpm');
    await vi.waitFor(() => expect(view.frame()).toContain('# use pnpm|'));
    view.type('\r');
    expect(submitted).toEqual(['!ls', '#use pnpm']);
  });
});

describe('a prompt taller than a third of the terminal', () => {
  /** 10,000 characters typed (not pasted) into an 80×24 terminal, with the keys that move the cursor. */
  async function typedLong() {
    const { view, submitted } = setup();
    Object.defineProperty(view.stdout, 'columns', { value: 80 });
    Object.defineProperty(view.stdout, 'rows', { value: 24 });
    view.stdout.emit('resize');
    const words = Array.from({ length: 2000 }, (_, i) => `w${String(i).padStart(3, '0')}`);
    const text = words.join(' ');
    for (let at = 0; at < text.length; at += 500) view.type(text.slice(at, at + 500));
    return { view, submitted, text };
  }
  const rowsOf = (frame: string) => frame.split('\n');
  // The cursor is drawn as a bar without colours; the word after it is the one it stands before.
  const cursorWord = (frame: string) => /\|(\S*)/.exec(frame)?.[1];

  it('shows a window of at most a third of the rows that holds the cursor, with what is above and below', async () => {
    const { view, submitted, text } = await typedLong();
    await vi.waitFor(() => expect(view.frame()).toContain('w1999|'));
    // 8 rows: a hint row above, 6 of text, a hint row below; then the two borders.
    expect(rowsOf(view.frame())).toHaveLength(10);
    expect(view.frame()).toMatch(/↑ \d+ more rows above/);
    expect(view.frame()).not.toContain('below');

    view.type('\x01'); // Ctrl+A: the start of the line
    await vi.waitFor(() => expect(view.frame()).toContain('> |w000'));
    expect(view.frame()).toMatch(/↓ \d+ more rows below/);
    expect(view.frame()).not.toContain('above');
    expect(rowsOf(view.frame())).toHaveLength(10);

    // Down walks the rows; the window follows once the cursor passes its last row (the 6th).
    for (let i = 0; i < 8; i++) view.type('\x1b[B');
    await vi.waitFor(() => expect(view.frame()).toContain('↑ 3 more rows above'));
    expect(cursorWord(view.frame())).toMatch(/^w1\d\d$/);
    const atRow8 = cursorWord(view.frame());
    // Up inside the window moves the cursor, not the text.
    view.type('\x1b[A');
    await vi.waitFor(() => expect(cursorWord(view.frame())).not.toBe(atRow8));
    expect(view.frame()).toContain('↑ 3 more rows above');

    view.type('\x05'); // Ctrl+E: the end
    await vi.waitFor(() => expect(view.frame()).toContain('w1999|'));
    view.type('\x1b[1;5D\x1b[1;5D'); // Ctrl+Left twice: two words back
    await vi.waitFor(() => expect(cursorWord(view.frame())).toBe('w1998'));
    view.type('\x1b[H'); // Home
    await vi.waitFor(() => expect(view.frame()).toContain('> |w000'));
    view.type('\r');
    expect(submitted).toEqual([text]);
  });

  it('keeps a pasted placeholder in the window with the typed text', async () => {
    const { view } = await typedLong();
    view.type(` \x1b[200~${'pasted line\n'.repeat(30)}\x1b[201~`);
    await vi.waitFor(() => expect(view.frame()).toMatch(/w1999 \[Pasted text #1 \+30\s+│\n│\s+lines\]\|/));
    expect(rowsOf(view.frame())).toHaveLength(10);
  });
});
