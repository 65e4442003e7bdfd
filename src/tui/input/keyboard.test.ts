/**
 * Who gets a key: the newest handler, except the rest of a burst of typing that was going to the
 * input line when a dialog opened over it (a permission question must not be answered by the
 * Enter or the digit of a prompt typed ahead).
 */
import { describe, expect, it } from 'vitest';
import type { KeyEvent } from './key-parser';
import { Keyboard, type KeyHandler, TYPING_BURST_GAP_MS } from './keyboard';

const text = (t: string): KeyEvent => ({ type: 'text', text: t });
const enter: KeyEvent = { type: 'key', name: 'return', ctrl: false, meta: false, shift: false };

function setUp() {
  let clock = 0;
  const keyboard = new Keyboard(() => clock);
  const log: string[] = [];
  const handler = (name: string): { current: KeyHandler } => ({
    current: (event) => {
      log.push(
        `${name}:${event.type === 'text' ? event.text : event.type === 'key' ? event.name : event.type}`,
      );
      return true;
    },
  });
  const input = handler('input');
  const unregisterInput = keyboard.register(input, { typing: true });
  const press = (event: KeyEvent, afterMs: number) => {
    clock += afterMs;
    keyboard.dispatch(event);
  };
  // A dialog opens as the REPL does it: the input line goes inactive, the dialog registers.
  const openDialog = () => {
    unregisterInput();
    return keyboard.register(handler('dialog'));
  };
  return { keyboard, log, press, openDialog };
}

describe('Keyboard', () => {
  it('gives the rest of a burst of typing to the input line, its Enter included, and the next key to the dialog', () => {
    const { log, press, openDialog } = setUp();
    press(text('r'), 0);
    press(text('m'), 120);
    openDialog();
    press(text(' now'), 80);
    press(enter, 90);
    // The prompt is sent: the burst is over, even when the next key comes at once.
    press(text('1'), 50);
    expect(log).toEqual(['input:r', 'input:m', 'input: now', 'input:return', 'dialog:1']);
  });

  it('a pause ends the burst: the dialog has the keys', () => {
    const { log, press, openDialog } = setUp();
    press(text('a'), 0);
    openDialog();
    press(enter, TYPING_BURST_GAP_MS);
    expect(log).toEqual(['input:a', 'dialog:return']);
  });

  it('a dialog that opens after the prompt was sent has every key (nothing was being typed)', () => {
    const { log, press, openDialog } = setUp();
    press(text('go'), 0);
    press(enter, 100);
    openDialog();
    press(text('2'), 10);
    expect(log).toEqual(['input:go', 'input:return', 'dialog:2']);
  });

  it('keys typed in the dialog stay the dialog’s (a note to the model)', () => {
    const { keyboard, log, press } = setUp();
    const dialog = { current: (event: KeyEvent) => log.push(`dialog:${event.type}`) > 0 };
    keyboard.register(dialog);
    press(text('n'), 0);
    press(text('o'), 50);
    press(enter, 50);
    expect(log).toEqual(['dialog:text', 'dialog:text', 'dialog:key']);
  });

  it('focus reports go to the focus listeners, not into a burst', () => {
    const { keyboard, log, press } = setUp();
    const seen: boolean[] = [];
    keyboard.onFocusChange((focused) => seen.push(focused));
    press({ type: 'focus', focused: false }, 0);
    expect(seen).toEqual([false]);
    expect(keyboard.focused).toBe(false);
    expect(log).toEqual([]);
  });
});
