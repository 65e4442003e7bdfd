/** How a terminal that gets narrower treats the rows on screen (see the frame writer's resize). */
import type { FrameStream } from './frame-types';
import { displayWidth } from './text-width';

/** How many rows `line` takes once a terminal `columns` wide has rewrapped it (at least one). */
export function wrappedRows(line: string, columns: number): number {
  return Math.max(1, Math.ceil(displayWidth(line) / columns));
}

/**
 * Whether the terminal rewraps its rows when it gets narrower. Most do (tmux, VTE, iTerm2,
 * Terminal.app, kitty, WezTerm, Alacritty, Windows Terminal); xterm (which sets XTERM_VERSION)
 * and the Linux console cut them instead.
 */
export function terminalReflows(env: NodeJS.ProcessEnv): boolean {
  if (env.TMUX) return true;
  return !env.XTERM_VERSION && env.TERM !== 'linux';
}

/** The width the terminal has now (the kernel's, which the resize event follows later). */
export function kernelColumns(stream: FrameStream): number | undefined {
  try {
    return stream.getWindowSize?.()[0] ?? stream.columns;
  } catch {
    return stream.columns;
  }
}

/**
 * How long after a resize event another resize may be on screen unannounced: tmux rewraps a pane
 * at once but tells the program its new size at most every 250 ms (its resize timer); the rest is
 * room for a loaded machine.
 */
const UNSEEN_RESIZE_MS = 1000;

/** When the last resize event came, on a monotonic clock. */
export class RecentResize {
  private at = Number.NEGATIVE_INFINITY;

  constructor(private readonly clock: () => number) {}

  mark(): void {
    this.at = this.clock();
  }

  /** Whether the terminal may have been resized again and not said so yet. */
  mayBeUnseen(): boolean {
    return this.clock() - this.at < UNSEEN_RESIZE_MS;
  }
}
