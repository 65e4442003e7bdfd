/**
 * Telling the user that Yoke waits for them: a turn ended, or a permission prompt is open. When
 * the terminal does not have focus, it rings the bell and, where the terminal shows desktop
 * notifications from an escape sequence, sends one (OSC 9 for iTerm2, WezTerm and Ghostty, OSC 99
 * for kitty). The Notification hooks fire either way, so a user's own notifier script works in
 * any terminal.
 *
 * The message can carry text the model wrote (a tool name, a command); control characters are
 * removed before it reaches the terminal so it can never end the sequence and inject its own.
 */
import type { HookRunner } from '../hooks/types';

export type NotifyChannel = 'osc9' | 'osc99' | 'bell' | 'none';
export type WaitReason = 'turn_end' | 'permission_prompt';

type Env = Readonly<Record<string, string | undefined>>;

/** The channel a terminal supports, from TERM_PROGRAM and TERM; the bell when nothing better is known. */
export function notifyChannel(env: Env): NotifyChannel {
  const program = (env.TERM_PROGRAM ?? '').toLowerCase();
  const term = (env.TERM ?? '').toLowerCase();
  if (program === 'iterm.app' || program === 'wezterm' || program === 'ghostty' || term === 'xterm-ghostty')
    return 'osc9';
  if (term === 'xterm-kitty' || env.KITTY_WINDOW_ID !== undefined) return 'osc99';
  return 'bell';
}

/** Printable text only, one line, bounded: nothing in it can end or start an escape sequence. */
export function sanitizeNotification(text: string): string {
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return clean.length > 200 ? `${clean.slice(0, 199)}…` : clean;
}

/** tmux passes an escape sequence through to the outer terminal only inside its DCS wrapper. */
function forTmux(sequence: string, env: Env): string {
  if (env.TMUX === undefined) return sequence;
  return `\u001bPtmux;${sequence.replaceAll('\u001b', '\u001b\u001b')}\u001b\\`;
}

/** The bytes to write for a notification on `channel`; the bell comes with every visible one. */
export function notificationBytes(channel: NotifyChannel, message: string, env: Env): string {
  const text = sanitizeNotification(message);
  switch (channel) {
    case 'none':
      return '';
    case 'bell':
      return '\u0007';
    case 'osc9':
      return `${forTmux(`\u001b]9;${text}\u0007`, env)}\u0007`;
    case 'osc99':
      return `${forTmux(`\u001b]99;;${text}\u001b\\`, env)}\u0007`;
  }
}

const HOOK_TYPE: Readonly<Record<WaitReason, string>> = {
  turn_end: 'idle_prompt',
  permission_prompt: 'permission_prompt',
};

export type TerminalNotifierOptions = {
  env: Env;
  /** Writes to the terminal (the UI's stdout, outside its render cycle). */
  write: (bytes: string) => void;
  hooks: HookRunner;
  signal: AbortSignal;
  /** From settings (`preferredNotifChannel`-like); the terminal decides otherwise. */
  channel?: NotifyChannel;
};

/** One per session. */
export class TerminalNotifier {
  private readonly channel: NotifyChannel;

  constructor(private readonly options: TerminalNotifierOptions) {
    this.channel = options.channel ?? notifyChannel(options.env);
  }

  /**
   * Says that Yoke waits for the user. `focused` is whether the terminal has focus (the UI
   * knows it from focus reporting); undefined when the terminal does not report it, which counts
   * as unfocused, since a missed notification costs more than an extra bell.
   */
  waiting(reason: WaitReason, message: string, focused: boolean | undefined): void {
    if (focused !== true) {
      const bytes = notificationBytes(this.channel, message, this.options.env);
      if (bytes !== '') this.options.write(bytes);
    }
    const payload = {
      message: sanitizeNotification(message),
      notification_type: HOOK_TYPE[reason],
      title: 'Yoke',
    };
    // The hooks only observe: a slow or failing one never holds up the prompt.
    void this.options.hooks.notify('Notification', payload, this.options.signal).catch(() => {});
  }
}
