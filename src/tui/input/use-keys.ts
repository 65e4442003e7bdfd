/** Registers a component's key handler with the session's Keyboard while `active`. */
import { createContext, useContext, useEffect, useRef } from 'react';
import type { Keyboard, KeyHandler } from './keyboard';

export const KeyboardContext = createContext<Keyboard | undefined>(undefined);

export function useKeys(handler: KeyHandler, active = true): void {
  const keyboard = useContext(KeyboardContext);
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    if (!keyboard || !active) return;
    return keyboard.register(ref);
  }, [keyboard, active]);
}
