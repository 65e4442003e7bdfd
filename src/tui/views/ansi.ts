/**
 * The few SGR styles the text views use, as a value: `plainStyle` when colour is off (NO_COLOR,
 * TERM=dumb), so no view has to check. Bold, dim and italic are kept under NO_COLOR, which asks
 * only that colour be left out (no-color.org).
 */
export type Style = {
  readonly color: boolean;
  bold(text: string): string;
  dim(text: string): string;
  italic(text: string): string;
  underline(text: string): string;
  fg(color: Colour, text: string): string;
};

export type Colour = 'red' | 'green' | 'yellow' | 'blue' | 'magenta' | 'cyan' | 'gray';

const FG: Record<Colour, number> = {
  red: 31,
  green: 32,
  yellow: 33,
  blue: 34,
  magenta: 35,
  cyan: 36,
  gray: 90,
};

const sgr = (open: number, close: number) => (text: string) =>
  text ? `\x1b[${open}m${text}\x1b[${close}m` : text;

function makeStyle(color: boolean, attributes: boolean): Style {
  const keep = (text: string) => text;
  return {
    color,
    bold: attributes ? sgr(1, 22) : keep,
    dim: attributes ? sgr(2, 22) : keep,
    italic: attributes ? sgr(3, 23) : keep,
    underline: attributes ? sgr(4, 24) : keep,
    fg: (colour, text) => (color && text ? `\x1b[${FG[colour]}m${text}\x1b[39m` : text),
  };
}

export const colourStyle = makeStyle(true, true);
export const noColourStyle = makeStyle(false, true);
/** TERM=dumb: no escape sequences at all. */
export const plainStyle = makeStyle(false, false);

export function styleFor(env: Readonly<Record<string, string | undefined>>): Style {
  if (env.TERM === 'dumb') return plainStyle;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return noColourStyle;
  return colourStyle;
}

/** Removes SGR sequences: for widths and for tests that read the words. */
export function stripAnsi(text: string): string {
  return text.replace(/\x1b\[[0-9;]*m/g, '');
}
