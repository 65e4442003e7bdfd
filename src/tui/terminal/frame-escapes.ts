/** The terminal control sequences the frame writer draws with. */
export const CSI = '\x1b[';
export const HIDE_CURSOR = `${CSI}?25l`;
export const SHOW_CURSOR = `${CSI}?25h`;
/** Synchronized output (DEC 2026): the terminal shows what is between the marks whole. */
export const SYNC_START = `${CSI}?2026h`;
export const SYNC_END = `${CSI}?2026l`;
export const ERASE_LINE = `${CSI}2K`;
/**
 * Erases the cursor's row and every row below it. Not a bare ESC[J from the first column: at the
 * screen's top-left that clears the whole screen, which tmux (scroll-on-clear, on by default)
 * answers by moving everything on screen into the scrollback — a region as tall as the screen
 * would stay there as a stale copy. From the second column it is an ordinary erase.
 */
export const ERASE_ROWS_BELOW = `\r${CSI}2K${CSI}2G${CSI}J\r`;
/**
 * Auto-wrap (DECAWM) off and on again. The live region's rows are written with it off: a frame
 * still in flight when the terminal gets narrower (laid out for the old width) then cuts its rows
 * at the new right margin instead of wrapping them onto rows the region never counted, which
 * would push its top out of reach. Scrollback lines keep it on: cut, their text would be lost.
 */
export const WRAP_OFF = `${CSI}?7l`;
export const WRAP_ON = `${CSI}?7h`;
