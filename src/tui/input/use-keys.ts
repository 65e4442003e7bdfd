/**
 * Registers a component's key handler with the session's Keyboard while `active`. In a layout
 * effect, so the handler comes and goes with the commit that shows or removes the component: a
 * passive effect's clean-up runs later, and a key typed in between (`k` just after Esc closed a
 * task's output) went to a view no longer on screen, which swallowed it.
 */
import { createContext, useContext, useLayoutEffect, useRef } from 'react';
import type { Keyboard, KeyHandler } from './keyboard';

export const KeyboardContext = createContext<Keyboard | undefined>(undefined);

/** `typing`: the handler edits text, so a burst of typing may go on to it (input/keyboard.ts). */
export function useKeys(handler: KeyHandler, active = true, typing = false): void {
  const keyboard = useContext(KeyboardContext);
  const ref = useRef(handler);
  ref.current = handler;
  useLayoutEffect(() => {
    if (!keyboard || !active) return;
    return keyboard.register(ref, { typing });
  }, [keyboard, active, typing]);
}

/** useKeys for a handler that edits text (the input line): see input/keyboard.ts. */
export function useTypingKeys(handler: KeyHandler, active = true): void {
  useKeys(handler, active, true);
}
