/**
 * Terminal input bytes as key events. The REPL reads stdin itself (not through Ink's useInput)
 * so that bracketed paste, focus reports and the Shift+Enter encodings arrive as what they are,
 * and so a key is applied to the input state before anything renders. One parser per terminal:
 * a paste may span several reads.
 */

export type KeyName =
  | 'return'
  | 'newline'
  | 'escape'
  | 'tab'
  | 'backspace'
  | 'delete'
  | 'up'
  | 'down'
  | 'left'
  | 'right'
  | 'home'
  | 'end'
  | 'pageup'
  | 'pagedown';

export type KeyEvent =
  | { type: 'text'; text: string }
  | { type: 'paste'; text: string }
  | { type: 'focus'; focused: boolean }
  /** A control key: Ctrl+letter has `name` the letter and `ctrl` set. */
  | { type: 'key'; name: KeyName | string; ctrl: boolean; meta: boolean; shift: boolean };

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

const key = (
  name: string,
  mods: Partial<{ ctrl: boolean; meta: boolean; shift: boolean }> = {},
): KeyEvent => ({
  type: 'key',
  name,
  ctrl: mods.ctrl ?? false,
  meta: mods.meta ?? false,
  shift: mods.shift ?? false,
});

const CSI_FINAL: Record<string, string> = { A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end' };
const CSI_TILDE: Record<string, string> = {
  '1': 'home',
  '7': 'home',
  '3': 'delete',
  '4': 'end',
  '8': 'end',
  '5': 'pageup',
  '6': 'pagedown',
};

/** xterm's modifier parameter: 1 + shift(1) + alt(2) + ctrl(4). */
function modifiers(param: string | undefined): { shift: boolean; meta: boolean; ctrl: boolean } {
  const bits = Math.max(0, Number(param ?? '1') - 1);
  return { shift: (bits & 1) !== 0, meta: (bits & 2) !== 0, ctrl: (bits & 4) !== 0 };
}

/** One escape sequence at the start of `s`: the event and how many characters it used. */
function escapeSequence(s: string): { event: KeyEvent | undefined; length: number } {
  if (s.length === 1) return { event: key('escape'), length: 1 };
  const next = s[1] as string;
  if (next === '[' || next === 'O') {
    const match = /^\x1b[[O]([0-9;]*)([A-Za-z~])/.exec(s);
    if (!match) return { event: key('escape'), length: 1 };
    const [whole, params = '', final] = match;
    const parts = params.split(';');
    if (final === 'I' && next === '[')
      return { event: { type: 'focus', focused: true }, length: whole.length };
    if (final === 'O' && next === '[')
      return { event: { type: 'focus', focused: false }, length: whole.length };
    if (final === 'Z') return { event: key('tab', { shift: true }), length: whole.length };
    if (final === 'u') {
      // CSI-u (kitty, and xterm's formatOtherKeys=1): code;modifiers.
      const code = Number(parts[0]);
      const mods = modifiers(parts[1]);
      if (code === 13)
        return { event: key(mods.shift || mods.meta ? 'newline' : 'return', mods), length: whole.length };
      if (code === 27) return { event: key('escape', mods), length: whole.length };
      if (code === 9) return { event: key('tab', mods), length: whole.length };
      if (code === 127) return { event: key('backspace', mods), length: whole.length };
      if (mods.ctrl && code >= 97 && code <= 122)
        return { event: key(String.fromCharCode(code), mods), length: whole.length };
      return { event: { type: 'text', text: String.fromCodePoint(code) }, length: whole.length };
    }
    if (final === '~') {
      // xterm modifyOtherKeys: CSI 27 ; mods ; code ~
      if (parts[0] === '27' && parts[2] === '13') {
        return { event: key('newline', modifiers(parts[1])), length: whole.length };
      }
      const name = CSI_TILDE[parts[0] ?? ''];
      return { event: name ? key(name, modifiers(parts[1])) : undefined, length: whole.length };
    }
    const name = CSI_FINAL[final as string];
    return { event: name ? key(name, modifiers(parts[1])) : undefined, length: whole.length };
  }
  // Alt+key: ESC then the key.
  if (next === '\r' || next === '\n') return { event: key('newline', { meta: true }), length: 2 };
  if (next === '\x7f' || next === '\b') return { event: key('backspace', { meta: true }), length: 2 };
  if (next === 'b') return { event: key('left', { meta: true }), length: 2 };
  if (next === 'f') return { event: key('right', { meta: true }), length: 2 };
  if (next === '\x1b') return { event: key('escape'), length: 1 };
  return { event: key(next, { meta: true }), length: 2 };
}

function controlKey(code: number): KeyEvent | undefined {
  if (code === 13) return key('return');
  if (code === 10) return key('newline', { ctrl: true });
  if (code === 9) return key('tab');
  if (code === 127 || code === 8) return key('backspace');
  if (code === 0) return key(' ', { ctrl: true });
  if (code >= 1 && code <= 26) return key(String.fromCharCode(code + 96), { ctrl: true });
  return undefined;
}

export class KeyParser {
  private paste: string | undefined;

  push(chunk: string): KeyEvent[] {
    const events: KeyEvent[] = [];
    let s = chunk;
    while (s.length > 0) {
      if (this.paste !== undefined) {
        const end = s.indexOf(PASTE_END);
        if (end < 0) {
          this.paste += s;
          return events;
        }
        events.push({ type: 'paste', text: this.paste + s.slice(0, end) });
        this.paste = undefined;
        s = s.slice(end + PASTE_END.length);
        continue;
      }
      if (s.startsWith(PASTE_START)) {
        this.paste = '';
        s = s.slice(PASTE_START.length);
        continue;
      }
      const code = s.charCodeAt(0);
      if (code === 27) {
        const { event, length } = escapeSequence(s);
        if (event) events.push(event);
        s = s.slice(length);
        continue;
      }
      const control = code < 32 || code === 127 ? controlKey(code) : undefined;
      if (control) {
        events.push(control);
        s = s.slice(1);
        continue;
      }
      // A run of printable text is one event: typed fast, or pasted without bracketed paste.
      let end = 1;
      while (end < s.length) {
        const c = s.charCodeAt(end);
        if (c < 32 || c === 127) break;
        end++;
      }
      const text = s.slice(0, end);
      const last = events[events.length - 1];
      if (last?.type === 'text') last.text += text;
      else events.push({ type: 'text', text });
      s = s.slice(end);
    }
    return events;
  }
}
