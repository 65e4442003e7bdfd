/**
 * Text Yoke did not write — the model's answer, a tool's output, a command in a permission
 * question, a file name — drawn in the terminal must not steer it. An escape sequence there could
 * set the clipboard (OSC 52), the window title, a hidden link (OSC 8), move the cursor over rows
 * already drawn, or hide text (SGR 8); a carriage return or backspace could overwrite what a row
 * shows. So each control character is drawn as its visible picture (ESC as ␛, BEL as ␇, CR as ␍;
 * U+2400 + code, one column wide) and a C1 control as �: the text still shows that something was
 * there, and the terminal is given nothing to obey. Newlines and tabs stay.
 */

/** C0 controls but newline and tab, DEL, and the C1 controls. */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
/** The same, where an SGR sequence (`ESC [ … m`, the only kind Yoke's views write) is kept whole. */
const CONTROL_OUTSIDE_SGR = /\x1b\[[0-9;:]*m|[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
/** Whether there is any such control at all (most frames: none), without visiting each SGR. */
const ANY_CONTROL_OUTSIDE_SGR = /\x1b(?!\[[0-9;:]*m)|[\x00-\x08\x0b-\x1a\x1c-\x1f\x7f-\x9f]/;

function picture(char: string): string {
  const code = char.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  return code === 0x7f ? '\u2421' : '\ufffd';
}

/** Untrusted text as the views may draw it: no control character reaches the terminal. */
export function printable(text: string): string {
  // A line ending in CRLF ends the line; a lone CR (a progress bar redrawn) is shown.
  return text.replace(/\r\n/g, '\n').replace(CONTROL, picture);
}

/**
 * A frame's row as the views styled it: Yoke's SGR styling stays, any other control character
 * becomes its picture. The last guard before the terminal, for text no view made printable.
 */
export function frameSafe(row: string): string {
  if (!ANY_CONTROL_OUTSIDE_SGR.test(row)) return row;
  return row.replace(CONTROL_OUTSIDE_SGR, (match) => (match.length > 1 ? match : picture(match)));
}
