/**
 * One line per tool call: what it was asked (a short summary of its input) and what came of it
 * (line counts for Read, exit status and the last lines for Bash, a coloured diff for edits).
 * Pure functions of the transcript item, so every tool renders the same way in every view.
 */
import { relative } from 'node:path';
import { countChanges, makePatch, type PatchHunk } from '../../tools/builtin/shared/diff';
import { printable } from '../terminal/terminal-text';
import { isPending, type ToolItem } from '../transcript/items';
import { plainStyle, type Style } from './ansi';
import { todoCounts, todoLine, todosOf } from './todo-lines';

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

function shortPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith('..') ? rel : path;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s*\n\s*/g, ' ⏎ ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * `Read(src/app.ts)`, `Bash(npm test)`, `Grep("TODO" in src)`: the call as the user reads it. The
 * model wrote the input: its control characters are shown as pictures (terminal-text.ts).
 */
export function toolInputSummary(
  name: string,
  input: Record<string, unknown>,
  cwd: string,
  max = 80,
): string {
  return printable(inputSummary(name, input, cwd, max));
}

function inputSummary(name: string, input: Record<string, unknown>, cwd: string, max: number): string {
  const path = str(input.file_path) ?? str(input.notebook_path) ?? str(input.path);
  switch (name) {
    case 'Bash':
      return oneLine(str(input.command) ?? '', max);
    case 'Read':
    case 'Write':
    case 'Edit':
    case 'MultiEdit':
    case 'NotebookEdit':
      return path ? shortPath(path, cwd) : '';
    case 'Glob':
    case 'Grep': {
      const pattern = JSON.stringify(str(input.pattern) ?? '');
      return oneLine(path ? `${pattern} in ${shortPath(path, cwd)}` : pattern, max);
    }
    case 'WebFetch':
      return oneLine(str(input.url) ?? '', max);
    case 'WebSearch':
      return oneLine(str(input.query) ?? '', max);
    case 'TodoWrite':
      return `${Array.isArray(input.todos) ? input.todos.length : 0} items`;
    case 'Agent':
    case 'Task':
      return oneLine(str(input.description) ?? '', max);
    default: {
      const first = Object.values(input).find((v) => typeof v === 'string');
      return typeof first === 'string' ? oneLine(first, max) : '';
    }
  }
}

function hunksOf(data: unknown): PatchHunk[] | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const patch = (data as { structuredPatch?: unknown }).structuredPatch;
  return Array.isArray(patch) ? (patch as PatchHunk[]) : undefined;
}

/** The diff a Write or Edit call proposes or made: from its result data, else from its input. */
export function toolHunks(item: Pick<ToolItem, 'name' | 'input' | 'outcome'>): PatchHunk[] | undefined {
  if (item.outcome.status === 'done') {
    const fromResult = hunksOf(item.outcome.data);
    // A Write that created its file reports no patch (as Claude Code's does): the content is the diff.
    const created = (item.outcome.data as { type?: string } | undefined)?.type === 'create';
    if (fromResult && !(created && fromResult.length === 0)) return fromResult;
  }
  const path = str(item.input.file_path) ?? '';
  if (item.name === 'Edit') {
    return makePatch(path, str(item.input.old_string) ?? '', str(item.input.new_string) ?? '');
  }
  if (item.name === 'Write') return makePatch(path, '', str(item.input.content) ?? '');
  return undefined;
}

/** Diff lines, coloured: additions green, removals red, hunk headers dim. */
export function renderHunks(
  hunks: readonly PatchHunk[],
  style: Style,
  maxLines: number,
  /** What the "more lines" note offers (a dialog that owns the keys offers no key). */
  expandHint = ' (ctrl+o to expand)',
): string[] {
  const out: string[] = [];
  let total = 0;
  for (const hunk of hunks) {
    for (const line of hunk.lines) {
      // "\ No newline at end of file" is the patch format's note, not a line of the file.
      if (line.startsWith('\\')) continue;
      total++;
      if (out.length >= maxLines) continue;
      const body = printable(line.replace(/\t/g, '  '));
      if (line.startsWith('+')) out.push(style.fg('green', body));
      else if (line.startsWith('-')) out.push(style.fg('red', body));
      else out.push(style.dim(body));
    }
  }
  if (total > out.length) out.push(style.dim(`… ${lineCount(total - out.length, 'more')}${expandHint}`));
  return out;
}

export type ResultSummary = { headline: string; detail: string[] };

/** The outcome in one headline and a few detail lines (all of them when `full`). */
export function toolResultSummary(item: ToolItem, style: Style, full: boolean): ResultSummary {
  const outcome = item.outcome;
  if (isPending(outcome)) return { headline: '', detail: [] };
  if (outcome.status === 'denied')
    return { headline: style.fg('red', oneLine(outcome.text, 100)), detail: [] };
  if (item.name === 'Bash' && (outcome.status === 'done' || outcome.status === 'error')) {
    return bashSummary(outcome, style, full);
  }
  if (outcome.status === 'error') {
    const lines = outcome.text.split('\n');
    return {
      headline: style.fg('red', oneLine(lines[0] ?? 'Error', 100)),
      detail: full ? lines.slice(1) : [],
    };
  }
  const text = outcome.text;
  switch (item.name) {
    case 'Read': {
      const file = (outcome.data as { file?: { numLines?: number; totalLines?: number } } | undefined)?.file;
      const shown = file?.numLines ?? text.split('\n').length;
      const total = file?.totalLines;
      return {
        headline:
          total && total > shown ? `Read ${shown} of ${lineCount(total)}` : `Read ${lineCount(shown)}`,
        detail: full ? text.split('\n') : [],
      };
    }
    case 'Edit':
    case 'Write':
    case 'MultiEdit': {
      const hunks = toolHunks(item) ?? [];
      const { added, removed } = countChanges(hunks);
      const created = (outcome.data as { type?: string } | undefined)?.type === 'create';
      const verb = created ? 'Created' : 'Updated';
      const counts = created
        ? style.fg('green', `+${added}`)
        : `${style.fg('green', `+${added}`)} ${style.fg('red', `-${removed}`)}`;
      return {
        headline: `${verb} with ${counts} ${added + removed === 1 ? 'line' : 'lines'}`,
        detail: renderHunks(hunks, style, full ? Number.POSITIVE_INFINITY : 12),
      };
    }
    case 'TodoWrite': {
      // The list itself, as the panel shows it, not the reminder the model reads.
      const todos = todosOf(item.input) ?? [];
      return {
        headline: todoCounts(todos),
        detail: todos.slice(0, full ? todos.length : 12).map((todo) => todoLine(todo, style)),
      };
    }
    default: {
      const lines = text.trim() ? text.split('\n') : [];
      return {
        headline: lines.length <= 1 ? oneLine(text || 'Done', 100) : `${lines.length} lines`,
        detail: full && lines.length > 1 ? lines : [],
      };
    }
  }
}

/** "1 line", "3 lines", "2 earlier lines". */
export function lineCount(count: number, adjective?: string): string {
  return `${count} ${adjective ? `${adjective} ` : ''}${count === 1 ? 'line' : 'lines'}`;
}

export function formatElapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
}

/**
 * Bash: how it ended and the last lines. A non-zero exit comes back as an error ending in "Exit
 * code N" (or "Killed by signal S"); an error without one ended otherwise — interrupted, timed
 * out, not started — and its last line says how. A command sent to the background has not ended.
 */
function bashSummary(
  outcome: Extract<ToolItem['outcome'], { status: 'done' | 'error' }>,
  style: Style,
  full: boolean,
): ResultSummary {
  const background = outcome.status === 'done' ? backgroundTaskOf(outcome.data) : undefined;
  if (background)
    return { headline: `running in the background as ${background} · /tasks shows it`, detail: [] };
  const trimmed = outcome.text.trimEnd();
  const end = /(?:^|\n)(Exit code (\d+)|Killed by signal \S+)$/.exec(trimmed);
  let lines = (end ? trimmed.slice(0, end.index) : trimmed).split('\n');
  if (lines.length === 1 && !lines[0]?.trim()) lines = [];
  let headline: string;
  if (end) headline = style.fg('red', end[2] ? `exit ${end[2]}` : (end[1] as string));
  else if (outcome.status === 'error') headline = style.fg('red', oneLine(lines.pop() ?? 'Error', 100));
  else headline = lines.length === 0 ? style.dim('(no output)') : 'exit 0';
  const shown = full ? lines : lines.slice(-4);
  const more =
    lines.length > shown.length
      ? [style.dim(`… ${lineCount(lines.length - shown.length, 'earlier')} (ctrl+o to expand)`)]
      : [];
  return { headline, detail: [...more, ...shown] };
}

/** Whether the compact view of a finished call leaves out something that full output (Ctrl+O) shows. */
export function showsMoreInFull(item: ToolItem): boolean {
  const compact = toolResultSummary(item, plainStyle, false);
  const full = toolResultSummary(item, plainStyle, true);
  return full.headline !== compact.headline || full.detail.join('\n') !== compact.detail.join('\n');
}

function backgroundTaskOf(data: unknown): string | undefined {
  const id = (data as { backgroundTaskId?: unknown } | undefined)?.backgroundTaskId;
  return typeof id === 'string' ? id : undefined;
}
