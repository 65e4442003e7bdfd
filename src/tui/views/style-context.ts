/** The session's text style (colour or not), for every view. */
import { createContext, useContext } from 'react';
import { colourStyle, type Style } from './ansi';

export const StyleContext = createContext<Style>(colourStyle);

export function useStyle(): Style {
  return useContext(StyleContext);
}
