/**
 * Who gets a key: the newest active handler (an open dialog over the input line), so a dialog
 * owns the keyboard while it is open and nothing behind it sees a key — except the rest of a
 * burst of typing that was going to the input line when the dialog opened. A permission question
 * can open while the user types the next prompt; the Enter ending that prompt, or a digit in it,
 * would otherwise answer a question the user has not read ("Yes" is the default). A key within
 * TYPING_BURST_GAP_MS of the one before continues the burst; an Enter (the prompt sent) or a
 * pause ends it, and then the dialog has the keys. Nobody reads and answers a question in less.
 * Plain TypeScript; the `useKeys` hook registers components here.
 */
import type { KeyEvent } from './key-parser';

/** Returns true when the handler used the key. */
export type KeyHandler = (event: KeyEvent) => boolean | undefined;

type HandlerRef = { current: KeyHandler };
type Entry = { handler: HandlerRef; typing: boolean };

/** The longest pause between two keys of one burst of typing. */
export const TYPING_BURST_GAP_MS = 500;

export class Keyboard {
  private readonly handlers: Entry[] = [];
  private readonly focusListeners = new Set<(focused: boolean) => void>();
  /** The typing handler the current burst of keys goes to, and when its last key came. */
  private burst: { entry: Entry; lastAt: number } | undefined;
  /** Whether the terminal has focus; true until it reports otherwise. */
  focused = true;
  /** Whether the terminal has reported focus at all (many report only on a change). */
  focusReported = false;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** `typing`: the handler edits text (the input line), so a burst of typing may follow it. */
  register(handler: HandlerRef, options: { typing?: boolean } = {}): () => void {
    const entry = { handler, typing: options.typing ?? false };
    this.handlers.push(entry);
    return () => {
      const index = this.handlers.indexOf(entry);
      if (index >= 0) this.handlers.splice(index, 1);
    };
  }

  onFocusChange(listener: (focused: boolean) => void): () => void {
    this.focusListeners.add(listener);
    return () => this.focusListeners.delete(listener);
  }

  dispatch(event: KeyEvent): void {
    if (event.type === 'focus') {
      this.focused = event.focused;
      this.focusReported = true;
      for (const listener of this.focusListeners) listener(event.focused);
      return;
    }
    const now = this.now();
    const top = this.handlers[this.handlers.length - 1];
    const burst = this.burst;
    const continuing = burst !== undefined && now - burst.lastAt < TYPING_BURST_GAP_MS;
    // A handler of a component still on screen (the input line, inactive under the dialog).
    const target = continuing && burst.entry !== top ? burst.entry : top;
    const sent = event.type === 'key' && event.name === 'return';
    this.burst = target?.typing && !sent ? { entry: target, lastAt: now } : undefined;
    target?.handler.current(event);
  }
}
