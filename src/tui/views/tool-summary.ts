/**
 * One line per tool call: what it was asked (a short summary of its input) and what came of it
 * (line counts for Read, exit status and the last lines for Bash, a coloured diff for edits).
 * Pure functions of the transcript item, so every tool renders the same way in every view.
 */
import { relative } from 'node:path';
import { countChanges, makePatch, type PatchHunk } from '../../tools/builtin/shared/diff';
import type { ToolItem } from '../transcript/items';
import type { Style } from './ansi';
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

/** `Read(src/app.ts)`, `Bash(npm test)`, `Grep("TODO" in src)`: the call as the user reads it. */
export function toolInputSummary(
  name: string,
  input: Record<string, unknown>,
  cwd: string,
  max = 80,
): string {
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
export function renderHunks(hunks: readonly PatchHunk[], style: Style, maxLines: number): string[] {
  const out: string[] = [];
  let total = 0;
  for (const hunk of hunks) {
    for (const line of hunk.lines) {
      // "\ No newline at end of file" is the patch format's note, not a line of the file.
      if (line.startsWith('\\')) continue;
      total++;
      if (out.length >= maxLines) continue;
      const body = line.replace(/\t/g, '  ');
      if (line.startsWith('+')) out.push(style.fg('green', body));
      else if (line.startsWith('-')) out.push(style.fg('red', body));
      else out.push(style.dim(body));
    }
  }
  if (total > out.length) out.push(style.dim(`… ${total - out.length} more lines (ctrl+o to expand)`));
  return out;
}

export type ResultSummary = { headline: string; detail: string[] };

/** The outcome in one headline and a few detail lines (all of them when `full`). */
export function toolResultSummary(item: ToolItem, style: Style, full: boolean): ResultSummary {
  const outcome = item.outcome;
  if (outcome.status === 'running') return { headline: '', detail: [] };
  if (outcome.status === 'denied')
    return { headline: style.fg('red', oneLine(outcome.text, 100)), detail: [] };
  if (item.name === 'Bash' && (outcome.status === 'done' || outcome.status === 'error')) {
    return bashSummary(outcome.text, style, full);
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
        headline: total && total > shown ? `Read ${shown} of ${total} lines` : `Read ${shown} lines`,
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
        headline: `${verb} with ${counts} lines`,
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

export function formatElapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
}

/** Bash: the exit status (a non-zero one comes back as an error ending in "Exit code N") and the last lines. */
function bashSummary(text: string, style: Style, full: boolean): ResultSummary {
  const exit = /\nExit code (\d+)$|^Exit code (\d+)$/.exec(text.trimEnd());
  const body = exit ? text.trimEnd().slice(0, exit.index) : text;
  const lines = body.trim() ? body.replace(/\n+$/, '').split('\n') : [];
  const shown = full ? lines : lines.slice(-4);
  const more =
    lines.length > shown.length
      ? [style.dim(`… ${lines.length - shown.length} earlier lines (ctrl+o to expand)`)]
      : [];
  const code = exit ? (exit[1] ?? exit[2]) : undefined;
  return {
    headline: code
      ? style.fg('red', `exit ${code}`)
      : lines.length === 0
        ? style.dim('(no output)')
        : 'exit 0',
    detail: [...more, ...shown],
  };
}
