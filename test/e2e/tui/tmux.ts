/**
 * A real terminal for the REPL's end-to-end tests: the built CLI in a tmux pane of a fixed size
 * (escape-time 0, so Esc arrives at once), driven with send-keys and read with capture-pane. Each
 * terminal has its own tmux server socket, so tests never see each other's panes. `waitFor`
 * polls the screen until a condition holds or the timeout passes (no fixed sleeps).
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { YOKE_BIN } from '../helpers';

const run = promisify(execFile);

export function tmuxAvailable(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

export type TerminalOptions = {
  cwd: string;
  env: Record<string, string | undefined>;
  args?: string[];
  width?: number;
  height?: number;
  /** TERM for yoke (xterm-256color unless given: `dumb` tests the line mode). */
  term?: string;
  /** Runs yoke from an interactive shell with job control (Ctrl+Z stops it, `fg` goes on). */
  shell?: boolean;
  /** The built entry to run (dist/yoke.js unless given: a private copy of dist/, say). */
  bin?: string;
};

export class Terminal {
  private readonly socket: string;
  private readonly exitFile: string;

  private constructor(socket: string, exitFile: string) {
    this.socket = socket;
    this.exitFile = exitFile;
  }

  static async start(options: TerminalOptions): Promise<Terminal> {
    const dir = mkdtempSync(join(tmpdir(), 'yoke-tmux-'));
    const socket = join(dir, 'socket');
    const exitFile = join(dir, 'exit-code');
    const entries = Object.entries(options.env);
    // env stops reading options at the first NAME=VALUE, so the unsets go first.
    const unsets = entries.filter(([, value]) => value === undefined).map(([name]) => `-u ${name}`);
    const sets = entries.flatMap(([name, value]) =>
      value === undefined ? [] : [`${name}=${shellQuote(value)}`],
    );
    const environment = ['env', ...unsets, ...sets, `TERM=${options.term ?? 'xterm-256color'}`];
    const yoke = [process.execPath, options.bin ?? YOKE_BIN, ...(options.args ?? []).map(shellQuote)].join(
      ' ',
    );
    const command = `${environment.join(' ')} ${yoke}`;
    // The pane stays after yoke exits (remain-on-exit), so a test can read what it printed last.
    const script = options.shell
      ? `${environment.join(' ')} PS1='$ ' bash --norc --noprofile -i`
      : `${command}; echo $? > ${shellQuote(exitFile)}`;
    // Set at the server's start, before a yoke that exits at once could take the server down.
    const config = join(dir, 'tmux.conf');
    writeFileSync(config, 'set -g escape-time 0\nset -g remain-on-exit on\nset -g history-limit 5000\n');
    await run('tmux', [
      '-S',
      socket,
      '-f',
      config,
      'new-session',
      '-d',
      '-x',
      String(options.width ?? 100),
      '-y',
      String(options.height ?? 30),
      '-c',
      options.cwd,
      script,
    ]);
    const terminal = new Terminal(socket, exitFile);
    if (options.shell) {
      await terminal.type(`${yoke}; echo $? > ${shellQuote(exitFile)}`);
      await terminal.press('Enter');
    }
    return terminal;
  }

  private async tmux(...args: string[]): Promise<string> {
    const { stdout } = await run('tmux', ['-S', this.socket, ...args]);
    return stdout;
  }

  /** The visible screen, plus `history` lines of scrollback above it. */
  screen(history = 0): Promise<string> {
    return this.tmux('capture-pane', '-p', '-J', ...(history > 0 ? ['-S', String(-history)] : []));
  }

  /** Types text literally. */
  type(text: string): Promise<string> {
    return this.tmux('send-keys', '-l', text);
  }

  /** Presses keys by tmux name: Enter, Escape, C-c, BTab, Up, … */
  press(...keys: string[]): Promise<string> {
    return this.tmux('send-keys', ...keys);
  }

  /** From now on, appends every byte the program writes to the pane to `file` (pipe-pane). */
  record(file: string): Promise<string> {
    return this.tmux('pipe-pane', '-o', `cat >> ${shellQuote(file)}`);
  }

  resize(width: number, height: number): Promise<string> {
    return this.tmux('resize-window', '-x', String(width), '-y', String(height));
  }

  /** Polls the screen until `expected` shows (a string or a test of the screen text). */
  async waitFor(
    expected: string | RegExp | ((screen: string) => boolean),
    options: { timeoutMs?: number; history?: number } = {},
  ): Promise<string> {
    const test =
      typeof expected === 'string'
        ? (s: string) => s.includes(expected)
        : expected instanceof RegExp
          ? (s: string) => expected.test(s)
          : expected;
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    let last = '';
    while (Date.now() < deadline) {
      last = await this.screen(options.history ?? 200);
      if (test(last)) return last;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the screen never showed ${String(expected)}; it shows:\n${last}`);
  }

  /** The exit code, once yoke has exited (polled like the screen). */
  async exitCode(timeoutMs = 15_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      let text = '';
      try {
        text = readFileSync(this.exitFile, 'utf8').trim();
      } catch {
        // Not written yet.
      }
      // `echo $? > file` creates the file before it writes the code: empty is not yet exit code 0.
      if (text !== '') return Number(text);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`yoke did not exit; the screen shows:\n${await this.screen(200)}`);
  }

  async close(): Promise<void> {
    await this.tmux('kill-server').catch(() => '');
  }
}
