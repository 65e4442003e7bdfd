/**
 * Where in a file a question points: a 1-based line plus a substring of it, never a column. A
 * model asked for a column guesses, and a wrong guess lands on another symbol of the same line
 * and gets an answer that looks right about something else (seed 002).
 */
import type { Position, Range } from 'vscode-languageserver-protocol';
import { ToolError } from '../../tool';

export type SymbolAt = {
  /** The 1-based line (as given). */
  line: number;
  symbol: string;
  /** 1-based; the first occurrence when absent. */
  occurrence?: number;
};

/** The text of 1-based `line`, or a ToolError naming how many lines the file has. */
export function lineOf(text: string, line: number, label: string): string {
  const lines = text.split('\n');
  if (line > lines.length)
    throw new ToolError(`${label} has ${lines.length} lines; line ${line} does not exist.`);
  return (lines[line - 1] ?? '').replace(/\r$/, '');
}

/** The range of the symbol on its line (UTF-16 columns, as LSP counts), or a ToolError showing the line. */
export function locateSymbol(text: string, at: SymbolAt, label: string): Range {
  const source = lineOf(text, at.line, label);
  const wanted = at.occurrence ?? 1;
  const starts: number[] = [];
  for (let from = source.indexOf(at.symbol); from !== -1; from = source.indexOf(at.symbol, from + 1)) {
    starts.push(from);
  }
  const shown = `${label}:${at.line}: ${source.trim()}`;
  if (starts.length === 0)
    throw new ToolError(`${JSON.stringify(at.symbol)} does not occur on line ${at.line}:\n${shown}`);
  const start = starts[wanted - 1];
  if (start === undefined)
    throw new ToolError(
      `${JSON.stringify(at.symbol)} occurs ${starts.length} time${starts.length === 1 ? '' : 's'} on line ${at.line}, so occurrence ${wanted} does not exist:\n${shown}`,
    );
  const line = at.line - 1;
  return { start: { line, character: start }, end: { line, character: start + at.symbol.length } };
}

export const positionOf = (range: Range): Position => range.start;
