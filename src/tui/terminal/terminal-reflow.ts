/** How a terminal that gets narrower treats the rows on screen (see the frame writer's resize). */
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
