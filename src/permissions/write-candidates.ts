/**
 * The concrete files a shell write target with braces or globs may name, for the protected-file
 * check: `mkdir -p src/{a,b}` writes `src/a` and `src/b`; `cp x .gi?/hooks/pre-commit` writes
 * `.git/hooks/pre-commit` when `.git` exists. Braces expand as bash does; a glob component stands
 * for its literal text (bash keeps it when nothing matches) and for every sensitive name it can
 * match — dotfiles included, which over-approximates bash's default. Undefined: too many to list.
 */
import { globToRegExp } from './path-rules';

const MAX_CANDIDATES = 256;
const GLOB = /[*?[]/;

/** Splits `a{b,c}d` at its first top-level brace group with a comma or a `..` range. */
function firstBraceGroup(text: string): { head: string; options: string[]; tail: string } | undefined {
  for (let open = text.indexOf('{'); open >= 0; open = text.indexOf('{', open + 1)) {
    let depth = 0;
    const commas: number[] = [];
    for (let i = open; i < text.length; i++) {
      const ch = text[i];
      if (ch === '\\') i++;
      else if (ch === '{') depth++;
      else if (ch === '}' && --depth === 0) {
        const body = text.slice(open + 1, i);
        const head = text.slice(0, open);
        const tail = text.slice(i + 1);
        if (commas.length > 0) {
          const cuts = [open, ...commas, i];
          return {
            head,
            options: cuts.slice(1).map((end, k) => text.slice((cuts[k] as number) + 1, end)),
            tail,
          };
        }
        const range = rangeOptions(body);
        if (range) return { head, options: range, tail };
        break;
      } else if (ch === ',' && depth === 1) commas.push(i);
    }
  }
  return undefined;
}

/** `{1..3}`, `{a..e}`, `{0..10..2}`; undefined when not a range or too long to matter. */
function rangeOptions(body: string): string[] | undefined {
  const match = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?$/.exec(body);
  if (!match) return undefined;
  const [, from = '', to = '', stepText] = match;
  const numeric = /\d/.test(from) && /\d/.test(to);
  if (!numeric && (/\d/.test(from) || /\d/.test(to))) return undefined;
  const a = numeric ? Number(from) : from.charCodeAt(0);
  const b = numeric ? Number(to) : to.charCodeAt(0);
  const step = Math.abs(Number(stepText ?? 1)) || 1;
  const out: string[] = [];
  for (let v = a; a <= b ? v <= b : v >= b; v += a <= b ? step : -step) {
    out.push(numeric ? String(v) : String.fromCharCode(v));
    if (out.length > MAX_CANDIDATES) return undefined;
  }
  return out;
}

function expandBraces(text: string, budget: { left: number }): string[] | undefined {
  const group = firstBraceGroup(text);
  if (!group) return [text];
  const out: string[] = [];
  for (const option of group.options) {
    const expanded = expandBraces(`${group.head}${option}${group.tail}`, budget);
    if (!expanded) return undefined;
    out.push(...expanded);
    budget.left -= expanded.length;
    if (budget.left < 0) return undefined;
  }
  return out;
}

/** The paths `pattern` may stand for, given the names worth substituting into glob components. */
export function writeCandidates(pattern: string, sensitiveNames: readonly string[]): string[] | undefined {
  const expanded = expandBraces(pattern, { left: MAX_CANDIDATES });
  if (!expanded) return undefined;
  const out: string[] = [];
  for (const path of expanded) {
    let partial = [''];
    for (const [index, part] of path.split('/').entries()) {
      // Case-folded like the check itself: `.GI?` names `.git` on a case-insensitive disk.
      const matcher = GLOB.test(part) ? new RegExp(globToRegExp(part, true).source, 'is') : undefined;
      const options = matcher ? [part, ...sensitiveNames.filter((name) => matcher.test(name))] : [part];
      partial = partial.flatMap((prefix) => options.map((o) => (index === 0 ? o : `${prefix}/${o}`)));
      if (partial.length + out.length > MAX_CANDIDATES) return undefined;
    }
    out.push(...partial);
  }
  return out;
}

/** Whether the text holds a brace group or glob character worth expanding. */
export const hasPattern = (path: string): boolean => GLOB.test(path) || firstBraceGroup(path) !== undefined;
