/**
 * The terminal modes the REPL turns on, and off again on every way out (exit, suspend, crash):
 * raw input, bracketed paste (a paste arrives marked, so its newlines do not submit) and focus
 * reporting (so a bell is rung only when the user is looking elsewhere).
 */
const BRACKETED_PASTE_ON = '\x1b[?2004h';
const BRACKETED_PASTE_OFF = '\x1b[?2004l';
const FOCUS_REPORTING_ON = '\x1b[?1004h';
const FOCUS_REPORTING_OFF = '\x1b[?1004l';
const SHOW_CURSOR = '\x1b[?25h';

export class TerminalModes {
  private on = false;

  constructor(
    private readonly stdin: NodeJS.ReadStream,
    private readonly stdout: NodeJS.WriteStream,
  ) {}

  enable(): void {
    if (this.on) return;
    this.on = true;
    if (this.stdin.isTTY) this.stdin.setRawMode(true);
    this.stdout.write(BRACKETED_PASTE_ON + FOCUS_REPORTING_ON);
  }

  disable(): void {
    if (!this.on) return;
    this.on = false;
    if (this.stdin.isTTY) this.stdin.setRawMode(false);
    this.stdout.write(BRACKETED_PASTE_OFF + FOCUS_REPORTING_OFF + SHOW_CURSOR);
  }
}
