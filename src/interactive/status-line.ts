/**
 * A custom status line from settings (`"statusLine": {"type": "command", "command": …}`, Claude
 * Code's format): the command gets the session's state as JSON on stdin and its first line of
 * stdout replaces the built-in line. Runs are rate-limited (at most one per RATE_MS, the latest
 * state wins), time out (the command's whole process group is killed), and a failure is reported
 * once until the command works again — a broken script must not flood the screen.
 *
 * The command comes from settings, and a project's settings are the repository's: in a folder
 * that is not trusted, a project `statusLine` does not run, like project hooks.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { type LoadedSettings, settingsSourceLabel } from '../config/load-settings';
import type { Env } from '../config/paths';
import { isJsonObject } from '../lib/json-object';
import { trackGroup } from '../tools/builtin/bash/process-groups';
import { childEnv, resolveShell, terminateGroup } from '../tools/builtin/bash/shell';

export const RATE_MS = 300;
export const TIMEOUT_MS = 5_000;
/** More output than a status line could show is cut off rather than buffered without end. */
const MAX_OUTPUT_BYTES = 16 * 1024;

export type StatusLineConfig = { command: string; padding: number; source: string };

/**
 * The status line the settings ask for, from the highest-precedence source that sets one; a
 * project's is skipped in a folder that is not trusted. Undefined when none applies, with the
 * reason when one was skipped or malformed.
 */
export function statusLineSetting(
  loaded: Pick<LoadedSettings, 'sources'>,
  trusted: boolean,
): { config?: StatusLineConfig; problem?: string } {
  let problem: string | undefined;
  for (const source of [...loaded.sources].reverse()) {
    const value = (source.settings as Record<string, unknown>).statusLine;
    if (value === undefined) continue;
    // A file's path, or the flag that gave the settings (never the internal source name).
    const where = settingsSourceLabel(source);
    if (source.source === 'projectSettings' && !trusted) {
      problem ??= `the statusLine of ${where} does not run: this folder is not trusted (run "yoke trust")`;
      continue;
    }
    if (
      !isJsonObject(value) ||
      value.type !== 'command' ||
      typeof value.command !== 'string' ||
      value.command.trim() === ''
    ) {
      return {
        problem: `settings ${where}: statusLine must be {"type": "command", "command": "<shell command>"}`,
      };
    }
    const padding = typeof value.padding === 'number' && value.padding >= 0 ? Math.floor(value.padding) : 0;
    return { config: { command: value.command, padding, source: where } };
  }
  return problem ? { problem } : {};
}

/** What the command reads on stdin: Claude Code's status-line JSON. */
export type StatusLineInput = {
  hook_event_name: 'Status';
  session_id: string;
  transcript_path: string;
  cwd: string;
  model: { id: string; display_name: string };
  workspace: { current_dir: string; project_dir: string };
  version: string;
  output_style: { name: string };
  cost: {
    total_cost_usd: number;
    total_duration_ms: number;
    total_api_duration_ms: number;
    total_lines_added: number;
    total_lines_removed: number;
  };
  context_window: {
    total_input_tokens: number;
    total_output_tokens: number;
    context_window_size: number;
    used_percentage: number;
    remaining_percentage: number;
  };
  exceeds_200k_tokens: boolean;
  permission_mode: string;
};

export type StatusLineCallbacks = {
  /** A new line to show (ANSI colours kept); '' when the command printed nothing. */
  onLine: (line: string) => void;
  /** One line saying why the status line failed; said once until a run succeeds. */
  onError: (message: string) => void;
};

/** The rate limit's time source; tests drive it by hand. */
type Clock = { now: () => number; setTimer: (fn: () => void, ms: number) => () => void };
const realClock: Clock = {
  now: () => Date.now(),
  setTimer: (fn, ms) => {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};

/** One per session: call `update` whenever the state changes, `dispose` when the session ends. */
export class StatusLineRunner {
  private running: ChildProcess | undefined;
  private pending: StatusLineInput | undefined;
  private lastStart = Number.NEGATIVE_INFINITY;
  private cancelTimer: (() => void) | undefined;
  private failing = false;
  private disposed = false;

  constructor(
    private readonly config: StatusLineConfig,
    private readonly options: {
      cwd: string;
      env: Env;
      timeoutMs?: number;
      clock?: Clock;
    } & StatusLineCallbacks,
  ) {}

  private get clock(): Clock {
    return this.options.clock ?? realClock;
  }

  update(input: StatusLineInput): void {
    if (this.disposed) return;
    this.pending = input;
    this.schedule();
  }

  private schedule(): void {
    if (this.running || this.cancelTimer || !this.pending) return;
    const wait = this.lastStart + RATE_MS - this.clock.now();
    if (wait > 0) {
      this.cancelTimer = this.clock.setTimer(() => {
        this.cancelTimer = undefined;
        this.schedule();
      }, wait);
      return;
    }
    const input = this.pending;
    this.pending = undefined;
    this.lastStart = this.clock.now();
    void this.run(input).finally(() => {
      this.running = undefined;
      this.schedule();
    });
  }

  private async run(input: StatusLineInput): Promise<void> {
    const child = spawn(resolveShell(this.options.env), ['-c', this.config.command], {
      cwd: this.options.cwd,
      env: childEnv(this.options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      windowsHide: true,
    });
    this.running = child;
    if (child.pid !== undefined) trackGroup(child.pid);
    const out: Buffer[] = [];
    let size = 0;
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      if (size < MAX_OUTPUT_BYTES) out.push(chunk);
      size += chunk.length;
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 1000) stderr += chunk.toString('utf8');
    });
    // A command that does not read its stdin closes the pipe: that is not a failure.
    child.stdin?.on('error', () => {});
    child.stdin?.end(JSON.stringify(input));
    let timedOut = false;
    const timeoutMs = this.options.timeoutMs ?? TIMEOUT_MS;
    const timer = setTimeout(() => {
      timedOut = true;
      void terminateGroup(child, 500);
    }, timeoutMs);
    const result = await new Promise<{ code: number | null; error?: Error }>((resolve) => {
      child.once('error', (error) => resolve({ code: null, error }));
      child.once('close', (code) => resolve({ code }));
    });
    clearTimeout(timer);
    if (this.disposed) return;
    if (result.error) return this.fail(`could not start the status line command: ${result.error.message}`);
    if (timedOut)
      return this.fail(`the status line command took longer than ${timeoutMs / 1000}s and was stopped`);
    if (result.code !== 0) {
      // The last line: what a script says last is why it stopped (bash may print start-up noise first).
      const why = stderr.trim().split('\n').at(-1);
      return this.fail(`the status line command exited with code ${result.code}${why ? `: ${why}` : ''}`);
    }
    this.failing = false;
    const first = Buffer.concat(out).toString('utf8').split('\n')[0] ?? '';
    this.options.onLine(`${' '.repeat(this.config.padding)}${first.replace(/\r$/, '').trimEnd()}`);
  }

  private fail(message: string): void {
    if (this.failing) return;
    this.failing = true;
    this.options.onError(
      `${message} (${this.config.source}); the built-in status line is shown until it works.`,
    );
  }

  /** Stops any run and every timer; nothing is reported afterwards. */
  dispose(): void {
    this.disposed = true;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    if (this.running) void terminateGroup(this.running, 500);
  }
}

/** The stdin JSON for the session as the host sees it now. */
export function statusLineInput(
  state: {
    sessionId: string;
    transcriptPath?: string;
    cwd: string;
    projectRoot: string;
    model: string;
    permissionMode: string;
    cost: {
      costUsd: number;
      apiDurationMs: number;
      sessionDurationMs: number;
      inputTokens: number;
      outputTokens: number;
    };
    context: { usedTokens: number; window: number };
  },
  linesChanged: { added: number; removed: number } = { added: 0, removed: 0 },
): StatusLineInput {
  const used = state.context.window > 0 ? (state.context.usedTokens / state.context.window) * 100 : 0;
  const usedPercentage = Math.min(100, Math.round(used * 10) / 10);
  return {
    hook_event_name: 'Status',
    session_id: state.sessionId,
    transcript_path: state.transcriptPath ?? '',
    cwd: state.cwd,
    model: { id: state.model, display_name: state.model },
    workspace: { current_dir: state.cwd, project_dir: state.projectRoot },
    version: YOKE_VERSION,
    output_style: { name: 'default' },
    cost: {
      total_cost_usd: state.cost.costUsd,
      total_duration_ms: state.cost.sessionDurationMs,
      total_api_duration_ms: state.cost.apiDurationMs,
      total_lines_added: linesChanged.added,
      total_lines_removed: linesChanged.removed,
    },
    context_window: {
      total_input_tokens: state.cost.inputTokens,
      total_output_tokens: state.cost.outputTokens,
      context_window_size: state.context.window,
      used_percentage: usedPercentage,
      remaining_percentage: Math.round((100 - usedPercentage) * 10) / 10,
    },
    exceeds_200k_tokens: state.context.usedTokens > 200_000,
    permission_mode: state.permissionMode,
  };
}
