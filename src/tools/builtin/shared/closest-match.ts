/**
 * When an edit's old_string is not in the file, find what the model most likely meant and show
 * it, so the next attempt can copy the file's real text instead of guessing again.
 */
import { describeLookalikes, foldLine, foldText } from './lookalike';

const MIN_SIMILARITY = 0.5;
const MAX_SHOWN_LINES = 40;
/** Above this many line comparisons, only windows whose first line looks right are scored fully. */
const FULL_SCAN_BUDGET = 200_000;
const ANCHOR_CANDIDATES = 25;

export function describeNoMatch(content: string, oldString: string, path: string): string {
  const head = `old_string was not found in ${path}.`;
  if (
    /^\s*\d+\t/.test(oldString) &&
    oldString.split('\n').every((line) => line === '' || /^\s*\d+\t/.test(line))
  ) {
    return `${head} It starts with line numbers copied from Read output; leave out the "N<TAB>" prefix of every line.`;
  }
  const folded = foldedMatch(content, oldString);
  if (folded) {
    const differences = describeLookalikes(folded.text, oldString);
    const detail = differences.length > 0 ? ` The file uses: ${differences.join(', ')}.` : '';
    return (
      `${head} Ignoring differences in whitespace, quotes, dashes and non-breaking spaces, it matches ${lineSpan(folded.startLine, folded.endLine)}.${detail} ` +
      `The file's exact text there is:\n${fence(folded.text)}\nCopy this text into old_string exactly (and use the same characters in new_string).`
    );
  }
  const similar = mostSimilarWindow(content, oldString);
  if (similar) {
    return (
      `${head} The most similar text is ${lineSpan(similar.startLine, similar.endLine)} (${Math.round(similar.score * 100)}% similar):\n` +
      `${fence(similar.numbered)}\nCompare it with your old_string, correct the differences, and retry.`
    );
  }
  return `${head} Nothing similar was found either; Read the file again to see its current content.`;
}

function lineSpan(start: number, end: number): string {
  return start === end ? `line ${start}` : `lines ${start}-${end}`;
}

function fence(text: string): string {
  const longestRun = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longestRun + 1);
  return `${ticks}\n${text}\n${ticks}`;
}

type FoldedMatch = { text: string; startLine: number; endLine: number };

/** An exact match after folding both sides; returns the file's original text for that span. */
export function foldedMatch(content: string, oldString: string): FoldedMatch | undefined {
  const needle = foldText(oldString).text;
  if (needle.trim() === '') return undefined;
  const haystack = foldText(content);
  const at = haystack.text.indexOf(needle);
  if (at < 0) return undefined;
  const start = haystack.origin[at]!;
  const end = haystack.origin[at + needle.length - 1]! + 1;
  const startLine = lineNumberAt(content, start);
  return {
    text: content.slice(start, end),
    startLine,
    endLine: startLine + countNewlines(content, start, end),
  };
}

function lineNumberAt(text: string, index: number): number {
  return countNewlines(text, 0, index) + 1;
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

type SimilarWindow = { startLine: number; endLine: number; score: number; numbered: string };

/** The window of file lines most like old_string's lines, by per-line bigram similarity. */
export function mostSimilarWindow(content: string, oldString: string): SimilarWindow | undefined {
  const fileLines = content.replace(/\r\n/g, '\n').split('\n');
  const wanted = oldString.replace(/\r\n/g, '\n').replace(/\n+$/, '').split('\n');
  if (fileLines.length === 0 || wanted.join('').trim() === '') return undefined;
  const size = Math.min(wanted.length, fileLines.length);
  const wantedGrams = wanted.slice(0, size).map((line) => bigrams(foldLine(line)));
  const fileGrams: Array<Float64Array | undefined> = new Array(fileLines.length);
  const gramsAt = (index: number) => {
    fileGrams[index] ??= bigrams(foldLine(fileLines[index]!));
    return fileGrams[index]!;
  };
  const windowScore = (start: number) => {
    let sum = 0;
    for (let i = 0; i < size; i++) sum += dice(wantedGrams[i]!, gramsAt(start + i));
    return sum / size;
  };
  const positions = fileLines.length - size + 1;
  let candidates = Array.from({ length: positions }, (_, i) => i);
  if (positions * size > FULL_SCAN_BUDGET) {
    const anchor = wantedGrams.findIndex((grams) => grams.length > 0);
    const anchorGrams = wantedGrams[Math.max(0, anchor)]!;
    const offset = Math.max(0, anchor);
    candidates = candidates
      .map((start) => ({ start, score: dice(anchorGrams, gramsAt(start + offset)) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, ANCHOR_CANDIDATES)
      .map((entry) => entry.start);
  }
  let best: { start: number; score: number } | undefined;
  for (const start of candidates) {
    const score = windowScore(start);
    if (!best || score > best.score) best = { start, score };
  }
  if (!best || best.score < MIN_SIMILARITY) return undefined;
  const shown = fileLines.slice(best.start, best.start + Math.min(size, MAX_SHOWN_LINES));
  const numbered = shown.map((line, i) => `${best.start + i + 1}\t${line}`).join('\n');
  return {
    startLine: best.start + 1,
    endLine: best.start + size,
    score: best.score,
    numbered: size > MAX_SHOWN_LINES ? `${numbered}\n…` : numbered,
  };
}

/** Sorted character-bigram codes of a line (a single character counts as one gram). */
function bigrams(line: string): Float64Array {
  if (line.length < 2) return Float64Array.from(line.length === 1 ? [line.charCodeAt(0)] : []);
  const grams = new Float64Array(line.length - 1);
  for (let i = 0; i < line.length - 1; i++) grams[i] = line.charCodeAt(i) * 65536 + line.charCodeAt(i + 1);
  return grams.sort();
}

/** Sørensen–Dice coefficient of two sorted multisets; two empty lines are identical. */
function dice(a: Float64Array, b: Float64Array): number {
  if (a.length === 0 && b.length === 0) return 1;
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      shared++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return (2 * shared) / (a.length + b.length);
}
