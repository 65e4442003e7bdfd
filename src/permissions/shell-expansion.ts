/**
 * The words a static shell word becomes, with bash's default options: brace expansion (comma
 * lists, nesting, `{1..3}`, `{a..c}`), tilde expansion of each result, then pathname expansion
 * against the filesystem (a leading `.` only matched by a pattern that starts with `.`; no match
 * keeps the word). `cat {,/etc/x}` reads `/etc/x`; `cat .e*` reads `.env`. Everything is bounded:
 * when a word cannot be expanded for sure, the answer is "unknown" and nothing is proven.
 */
import { decodeAnsiC } from '../services/bash-parser/words';
import type { PathFs } from './real-paths';

/** One character after quote removal: a quoted one never takes part in an expansion. */
type Char = { ch: string; quoted: boolean };

export const MAX_EXPANDED_WORDS = 256;
/** Folder entries looked at for one word's pathname expansion. */
export const MAX_GLOB_ENTRIES = 5000;

export type ExpansionEnv = {
  fs: PathFs;
  /** The home directory for `~`; undefined when the line may change `$HOME` first. */
  home: string | undefined;
  /** False when the line may change `$PWD`, which `~+` stands for. */
  pwdKnown: boolean;
  /** False when the line may change how globs match (`shopt`, `GLOBIGNORE`). */
  globsKnown: boolean;
};

/** Splits a word's source text into characters, marking what quoting makes literal. */
export function lexWord(text: string): Char[] | undefined {
  const out: Char[] = [];
  let i = 0;
  const closing = (quote: string, from: number) => {
    for (let j = from; j < text.length; j++) {
      if (text[j] === '\\' && quote !== "'") j++;
      else if (text[j] === quote) return j;
    }
    return -1;
  };
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '\\') {
      const next = text[i + 1];
      if (next === undefined) return undefined;
      if (next !== '\n') out.push({ ch: next, quoted: true });
      i += 2;
    } else if (ch === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return undefined;
      for (const c of text.slice(i + 1, end)) out.push({ ch: c, quoted: true });
      i = end + 1;
    } else if (ch === '$' && text[i + 1] === "'") {
      const end = closing("'", i + 2);
      if (end < 0) return undefined;
      for (const c of decodeAnsiC(text.slice(i + 2, end))) out.push({ ch: c, quoted: true });
      i = end + 1;
    } else if (ch === '"' || (ch === '$' && text[i + 1] === '"')) {
      const start = ch === '$' ? i + 2 : i + 1;
      const end = closing('"', start);
      if (end < 0) return undefined;
      const body = text.slice(start, end).replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
      for (const c of body) out.push({ ch: c, quoted: true });
      i = end + 1;
    } else {
      out.push({ ch, quoted: false });
      i++;
    }
  }
  return out;
}

const bare = (c: Char | undefined, ch: string) => c !== undefined && !c.quoted && c.ch === ch;
const text = (chars: readonly Char[]) => chars.map((c) => c.ch).join('');
const literal = (value: string): Char[] => [...value].map((ch) => ({ ch, quoted: true }));

/** `{x..y[..step]}` of integers or single letters, as bash expands it; undefined if not one. */
function sequence(body: string): string[] | undefined {
  const match = /^(-?\d+|[a-zA-Z])\.\.(-?\d+|[a-zA-Z])(?:\.\.(-?\d+))?$/.exec(body);
  if (!match) return undefined;
  const [, from, to, stepText] = match as unknown as [string, string, string, string | undefined];
  const numeric = /\d/.test(from);
  if (numeric !== /\d/.test(to)) return undefined;
  const start = numeric ? Number(from) : from.charCodeAt(0);
  const end = numeric ? Number(to) : to.charCodeAt(0);
  const step = Math.abs(Number(stepText ?? 1)) || 1;
  const count = Math.floor(Math.abs(end - start) / step) + 1;
  if (count > MAX_EXPANDED_WORDS) return [];
  const padded = numeric && (/^-?0\d/.test(from) || /^-?0\d/.test(to));
  const width = padded ? Math.max(from.length, to.length) : 0;
  const out: string[] = [];
  for (let n = 0, v = start; n < count; n++, v += end >= start ? step : -step) {
    if (!numeric) out.push(String.fromCharCode(v));
    else
      out.push(
        width
          ? `${v < 0 ? '-' : ''}${String(Math.abs(v)).padStart(width - (v < 0 ? 1 : 0), '0')}`
          : String(v),
      );
  }
  return out;
}

/** The index of the `}` closing the `{` at `open`, with the top-level comma positions. */
function braceGroup(word: readonly Char[], open: number): { close: number; commas: number[] } | undefined {
  let depth = 0;
  const commas: number[] = [];
  for (let i = open; i < word.length; i++) {
    const c = word[i] as Char;
    if (c.quoted) continue;
    if (c.ch === '{') depth++;
    else if (c.ch === '}' && --depth === 0) return { close: i, commas };
    else if (c.ch === ',' && depth === 1) commas.push(i);
  }
  return undefined;
}

/**
 * Brace expansion. Undefined when it would make more than MAX_EXPANDED_WORDS words (or a
 * sequence too long to list): the command's paths are then unknown.
 */
export function expandBraces(word: readonly Char[]): Char[][] | undefined {
  for (let open = 0; open < word.length; open++) {
    if (!bare(word[open], '{') || bare(word[open - 1], '$')) continue;
    const group = braceGroup(word, open);
    if (!group) continue;
    let alternatives: Char[][];
    if (group.commas.length > 0) {
      const bounds = [open, ...group.commas, group.close];
      alternatives = bounds.slice(1).map((end, n) => word.slice((bounds[n] as number) + 1, end));
    } else {
      const body = word.slice(open + 1, group.close);
      const seq = body.some((c) => c.quoted) ? undefined : sequence(text(body));
      if (seq === undefined) continue;
      if (seq.length === 0) return undefined;
      alternatives = seq.map(literal);
    }
    const prefix = word.slice(0, open);
    const suffixes = expandBraces(word.slice(group.close + 1));
    if (!suffixes) return undefined;
    const out: Char[][] = [];
    for (const alternative of alternatives) {
      const inner = expandBraces(alternative);
      if (!inner) return undefined;
      for (const middle of inner) {
        for (const suffix of suffixes) {
          if (out.length >= MAX_EXPANDED_WORDS) return undefined;
          out.push([...prefix, ...middle, ...suffix]);
        }
      }
    }
    return out;
  }
  return [[...word]];
}

/** Tilde expansion of one word: `~`, `~/x`, `~+`; `~user` and `~-` are unknown (undefined). */
function expandTilde(word: Char[], cwd: string | undefined, env: ExpansionEnv): Char[] | undefined {
  if (!bare(word[0], '~')) return word;
  let end = word.findIndex((c) => bare(c, '/'));
  if (end < 0) end = word.length;
  const prefix = word.slice(1, end);
  // A quoted character anywhere in the prefix (`~"/x"`) keeps the tilde literal.
  if (prefix.some((c) => c.quoted)) return word;
  const name = text(prefix);
  const dir = name === '' ? env.home : name === '+' && env.pwdKnown ? cwd : undefined;
  if (dir === undefined) return undefined;
  return [...literal(dir), ...word.slice(end)];
}

const GLOB_SPECIAL = new Set(['*', '?', '[']);
const isGlob = (word: readonly Char[]) => word.some((c) => !c.quoted && GLOB_SPECIAL.has(c.ch));
/** `?(…)`, `*(…)`, `+(…)`, `@(…)`, `!(…)`: extended globs, which we do not expand. */
const hasExtglob = (word: readonly Char[]) =>
  word.some(
    (c, i) => bare(c, '(') && i > 0 && !word[i - 1]?.quoted && '?*+@!'.includes(word[i - 1]?.ch ?? ''),
  );

const CLASSES: Record<string, string> = {
  alpha: 'a-zA-Z',
  digit: '0-9',
  alnum: 'a-zA-Z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: '\\s',
  blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~',
  xdigit: '0-9a-fA-F',
  word: '\\w',
  print: ' -~',
  graph: '!-~',
  cntrl: '\\x00-\\x1f\\x7f',
};
const escapeRe = (ch: string) => ch.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** One path segment of a pattern as a regex over a file name; undefined if it cannot be read. */
function segmentRegex(segment: readonly Char[]): RegExp | undefined {
  let out = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i] as Char;
    if (c.quoted || !GLOB_SPECIAL.has(c.ch)) {
      out += escapeRe(c.ch);
    } else if (c.ch === '*') out += '.*';
    else if (c.ch === '?') out += '.';
    else {
      // A bracket expression: `]` first is literal, `!`/`^` negate, `[:class:]`, ranges.
      let j = i + 1;
      let negate = false;
      if (bare(segment[j], '!') || bare(segment[j], '^')) {
        negate = true;
        j++;
      }
      let body = '';
      let first = true;
      let closed = false;
      for (; j < segment.length; j++) {
        const d = segment[j] as Char;
        if (!d.quoted && d.ch === ']' && !first) {
          closed = true;
          break;
        }
        first = false;
        if (!d.quoted && d.ch === '[' && bare(segment[j + 1], ':')) {
          const close = text(segment.slice(j)).indexOf(':]');
          const name = close > 0 ? text(segment.slice(j + 2, j + close)) : '';
          const cls = CLASSES[name];
          if (!cls) return undefined;
          body += cls;
          j += close + 1;
        } else if (!d.quoted && d.ch === '-' && body !== '' && segment[j + 1] && !bare(segment[j + 1], ']')) {
          body += '-';
        } else body += escapeRe(d.ch);
      }
      if (!closed) {
        out += '\\[';
        continue;
      }
      out += `[${negate ? '^' : ''}${body}]`;
      i = j;
    }
  }
  try {
    return new RegExp(`^${out}$`, 's');
  } catch {
    return undefined;
  }
}

type GlobBudget = { entries: number };

/**
 * Pathname expansion of one word against the folder `cwd` (used only for a relative word):
 * the matching words in bash's order, [] when nothing matches, undefined past the bound.
 */
function expandGlob(
  word: readonly Char[],
  cwd: string,
  fs: PathFs,
  budget: GlobBudget,
): string[] | undefined {
  const segments: Char[][] = [[]];
  for (const c of word) {
    if (c.ch === '/') segments.push([]);
    else (segments[segments.length - 1] as Char[]).push(c);
  }
  const absolute = segments[0]?.length === 0 && word.length > 0 && word[0]?.ch === '/';
  let prefixes = [absolute ? '/' : ''];
  const on = (prefix: string) => (absolute || prefix.startsWith('/') ? prefix || '/' : `${cwd}/${prefix}`);
  const start = absolute ? 1 : 0;
  for (let n = start; n < segments.length; n++) {
    const segment = segments[n] as Char[];
    const last = n === segments.length - 1;
    const join = (prefix: string, name: string) =>
      prefix === '' || prefix.endsWith('/') ? prefix + name : `${prefix}/${name}`;
    if (!isGlob(segment)) {
      // A trailing `/` keeps only folders; a literal segment is kept as written.
      prefixes = prefixes.map((p) => (segment.length === 0 ? `${p}/` : join(p, text(segment))));
      continue;
    }
    const regex = segmentRegex(segment);
    if (!regex) return undefined;
    const dotted = segment[0]?.ch === '.';
    const next: string[] = [];
    for (const prefix of prefixes) {
      const entries = fs.list(on(prefix));
      if (!entries) continue;
      budget.entries += entries.length;
      if (budget.entries > MAX_GLOB_ENTRIES) return undefined;
      // Older bash (before 5.2) lets `.*` match `.` and `..`: take them as candidates too.
      const names = dotted ? ['.', '..', ...entries.map((e) => e.name)] : entries.map((e) => e.name);
      for (const name of names.sort()) {
        if (name.startsWith('.') && !dotted) continue;
        if (regex.test(name)) next.push(join(prefix, name));
      }
      if (next.length > MAX_EXPANDED_WORDS) return undefined;
    }
    prefixes = next;
    if (!last && prefixes.length === 0) break;
  }
  // Only names that exist survive (a literal segment after a glob must exist too).
  return prefixes.filter((p) => fs.kind(on(p).replace(/\/+$/, '') || '/') !== undefined);
}

export type WordExpansion =
  /** The words the shell passes, before they are resolved against the working folder. */
  { words: string[] } | { unknown: string };

/**
 * What a static word (`ShellWord.dynamic` false) becomes. `cwd` is the folder a relative glob is
 * matched in; undefined when unknown (a relative glob is then unknown too).
 */
export function expandWord(source: string, cwd: string | undefined, env: ExpansionEnv): WordExpansion {
  const lexed = lexWord(source);
  if (!lexed) return { unknown: `${source} could not be read as a shell word` };
  const braced = expandBraces(lexed);
  if (!braced) return { unknown: `${source} expands to too many words` };
  const words: string[] = [];
  const budget: GlobBudget = { entries: 0 };
  for (const expanded of braced) {
    const word = expandTilde(expanded, cwd, env);
    if (!word) return { unknown: `${source} names another user's or a previous folder` };
    // An unquoted empty word (`{,x}` makes one) is dropped by the shell.
    if (word.length === 0 && !/['"\\]/.test(source)) continue;
    if (hasExtglob(word)) return { unknown: `${source} is an extended pattern` };
    if (!isGlob(word)) {
      words.push(text(word));
      continue;
    }
    if (!env.globsKnown) return { unknown: `${source} is a pattern whose matches only the shell knows` };
    const relative = word[0]?.ch !== '/';
    if (relative && cwd === undefined)
      return { unknown: `${source} is matched in a folder only known when it runs` };
    const matches = expandGlob(word, cwd ?? '/', env.fs, budget);
    if (!matches) return { unknown: `${source} matches too many files to check` };
    words.push(...(matches.length > 0 ? matches : [text(word)]));
    if (words.length > MAX_EXPANDED_WORDS) return { unknown: `${source} matches too many files to check` };
  }
  return { words };
}

/**
 * One word a static shell word may become as a command's word, before any folder is looked at:
 * literal `text`, or a pattern whose matches the shell picks from the disk when it runs (`name`
 * matches its last path component; an extended or unreadable pattern matches anything).
 */
export type WordShape = { text: string } | { text: string; pattern: RegExp; name: RegExp };

const ANYTHING = /^.*$/s;

/** The shapes `source` takes after brace expansion; undefined when it cannot be read or is too big. */
export function wordShapes(source: string): WordShape[] | undefined {
  const lexed = lexWord(source);
  const braced = lexed && expandBraces(lexed);
  if (!braced) return undefined;
  const shapes: WordShape[] = [];
  for (const word of braced) {
    // An unquoted empty word (`{,x}` makes one) is dropped by the shell.
    if (word.length === 0 && !/['"\\]/.test(source)) continue;
    if (!isGlob(word) && !hasExtglob(word)) {
      shapes.push({ text: text(word) });
      continue;
    }
    const segments: Char[][] = [[]];
    for (const c of word) {
      if (bare(c, '/')) segments.push([]);
      else (segments[segments.length - 1] as Char[]).push(c);
    }
    const regexes = hasExtglob(word) ? undefined : segments.map(segmentRegex);
    const parts = regexes?.every((r) => r !== undefined) ? (regexes as RegExp[]) : undefined;
    const inner = (r: RegExp) => r.source.slice(1, -1);
    shapes.push({
      text: text(word),
      pattern: parts ? new RegExp(`^${parts.map(inner).join('\\/')}$`, 's') : ANYTHING,
      name: parts ? (parts[parts.length - 1] as RegExp) : ANYTHING,
    });
  }
  return shapes;
}
