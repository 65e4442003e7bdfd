/**
 * Who gets a key: the newest active handler (an open dialog over the input line), so a dialog
 * owns the keyboard while it is open and nothing behind it sees a key. Plain TypeScript; the
 * `useKeys` hook registers components here.
 */
import type { KeyEvent } from './key-parser';

/** Returns true when the handler used the key. */
export type KeyHandler = (event: KeyEvent) => boolean | undefined;

export class Keyboard {
  private readonly handlers: { handler: { current: KeyHandler } }[] = [];
  private readonly focusListeners = new Set<(focused: boolean) => void>();
  /** Whether the terminal has focus; true until it reports otherwise. */
  focused = true;
  /** Whether the terminal has reported focus at all (many report only on a change). */
  focusReported = false;

  register(handler: { current: KeyHandler }): () => void {
    const entry = { handler };
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
    const top = this.handlers[this.handlers.length - 1];
    top?.handler.current(event);
  }
}
