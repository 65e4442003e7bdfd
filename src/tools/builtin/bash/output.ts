/**
 * Collects a command's output within a character budget. Past the budget the model gets the
 * head and the tail with a marker in the middle (errors and summaries tend to sit at either
 * end); the complete output streams to a file whose path the model is given.
 */
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { groupDigits } from '../../../lib/group-digits';

export const DEFAULT_OUTPUT_BUDGET = 30_000;
const MIN_BUDGET = 4_000;
const MAX_BUDGET = 128_000;

/**
 * The session's budget: `BASH_MAX_OUTPUT_LENGTH` when it holds a positive number (a variable users
 * may set, as in Claude Code), else the `bashOutputMaxChars` setting, else the default; clamped so
 * an extreme value can neither flood the context nor starve it.
 */
export function outputBudget(variable: string | undefined, setting: number | undefined): number {
  const fromVariable = Number(variable);
  const configured =
    variable !== undefined && Number.isFinite(fromVariable) && fromVariable > 0 ? fromVariable : setting;
  if (configured === undefined) return DEFAULT_OUTPUT_BUDGET;
  return Math.min(MAX_BUDGET, Math.max(MIN_BUDGET, Math.floor(configured)));
}

const fmt = groupDigits;

/** Moves a cut to a nearby line break so neither side starts or ends mid-line. */
function snapHead(head: string): string {
  const lineEnd = head.lastIndexOf('\n');
  return lineEnd > head.length * 0.8 ? head.slice(0, lineEnd + 1) : head;
}
function snapTail(tail: string): string {
  const lineStart = tail.indexOf('\n');
  return lineStart >= 0 && lineStart < tail.length * 0.2 ? tail.slice(lineStart + 1) : tail;
}

export function middleMarker(omitted: number, total: number, fullPath: string | undefined): string {
  const where = fullPath
    ? `The full output is saved at ${fullPath} (read it with the Read tool, using offset and limit).`
    : 'The full output could not be saved.';
  return `\n... [${fmt(omitted)} of ${fmt(total)} characters omitted here. ${where}] ...\n`;
}

/** Keeps the head and tail of `text` within `budget`, with a marker saying what was cut. */
export function truncateMiddle(text: string, budget: number, fullPath?: string): string {
  if (text.length <= budget) return text;
  return joinParts(text.slice(0, budget / 2), text.slice(-budget / 2), text.length, fullPath);
}

function joinParts(rawHead: string, rawTail: string, total: number, fullPath: string | undefined): string {
  const head = snapHead(rawHead);
  const tail = snapTail(rawTail);
  return `${head}${middleMarker(total - head.length - tail.length, total, fullPath)}${tail}`;
}

export type CollectedOutput = {
  text: string;
  totalChars: number;
  truncated: boolean;
  /** Where the complete output was written; only when it was truncated. */
  fullOutputPath?: string;
};

export class OutputCollector {
  private buffer = '';
  private head = '';
  private tail = '';
  private total = 0;
  private spill: WriteStream | undefined;
  private spillError: Error | undefined;

  constructor(
    private readonly budget: number,
    private readonly spillPath: string,
  ) {}

  append(text: string): void {
    if (text === '') return;
    this.total += text.length;
    if (!this.spill && !this.spillError) {
      this.buffer += text;
      if (this.buffer.length > this.budget) this.startSpill();
      return;
    }
    this.spill?.write(text);
    this.tail = (this.tail + text).slice(-this.budget / 2);
  }

  private startSpill(): void {
    this.head = this.buffer.slice(0, this.budget / 2);
    this.tail = this.buffer.slice(-this.budget / 2);
    try {
      mkdirSync(dirname(this.spillPath), { recursive: true });
      this.spill = createWriteStream(this.spillPath, { encoding: 'utf8' });
      this.spill.on('error', (error) => {
        this.spillError = error;
      });
      this.spill.write(this.buffer);
    } catch (error) {
      this.spillError = error as Error;
    }
    this.buffer = '';
  }

  /** Flushes the spill file and returns what the model should see. */
  async finish(): Promise<CollectedOutput> {
    if (!this.spill && !this.spillError)
      return { text: this.buffer, totalChars: this.total, truncated: false };
    const spill = this.spill;
    if (spill) await new Promise<void>((resolve) => spill.end(resolve));
    const fullPath = this.spillError ? undefined : this.spillPath;
    const text = joinParts(this.head, this.tail, this.total, fullPath);
    const result: CollectedOutput = { text, totalChars: this.total, truncated: true };
    if (fullPath) result.fullOutputPath = fullPath;
    return result;
  }
}
