/**
 * Tells the user something finished or waits for them while they look at another window: a
 * terminal bell and an OSC 9 desktop notification (iTerm2, WezTerm, kitty, Windows Terminal; other
 * terminals ignore it). Only while the terminal reports it has no focus (focus reporting).
 */
import type { Keyboard } from '../input/keyboard';

export class Notifier {
  constructor(
    private readonly stdout: NodeJS.WritableStream,
    private readonly keyboard: Pick<Keyboard, 'focused'>,
  ) {}

  notify(message: string): boolean {
    if (this.keyboard.focused) return false;
    const text = message.replace(/[\x00-\x1f\x7f]/g, ' ');
    this.stdout.write(`\x07\x1b]9;Yoke: ${text}\x07`);
    return true;
  }
}
