/** Renders a view the way the REPL does (style and keyboard contexts) for ink-testing-library tests. */
import { render } from 'ink-testing-library';
import type { ReactNode } from 'react';
import { type KeyEvent, KeyParser } from '../input/key-parser';
import { Keyboard } from '../input/keyboard';
import { KeyboardContext } from '../input/use-keys';
import { plainStyle, type Style } from '../views/ansi';
import { StyleContext } from '../views/style-context';

export function renderView(node: ReactNode, style: Style = plainStyle) {
  const keyboard = new Keyboard();
  const parser = new KeyParser();
  const wrap = (inner: ReactNode) => (
    <StyleContext.Provider value={style}>
      <KeyboardContext.Provider value={keyboard}>{inner}</KeyboardContext.Provider>
    </StyleContext.Provider>
  );
  const view = render(wrap(node));
  return {
    ...view,
    keyboard,
    rerender: (next: ReactNode) => view.rerender(wrap(next)),
    frame: () => view.lastFrame() ?? '',
    /** Types terminal bytes, as the terminal would send them. */
    type: (bytes: string) => {
      for (const event of parser.push(bytes)) keyboard.dispatch(event);
    },
    dispatch: (event: KeyEvent) => keyboard.dispatch(event),
  };
}
