/**
 * Turns a tree-sitter word node into a `ShellWord`: quotes removed and escapes resolved where
 * the value is static, with flags for anything only the running shell can know.
 */
import type { Node } from 'web-tree-sitter';
import { expansionReason } from './evaluation-sites';
import type { ShellWord } from './types';

/** Node types whose value is computed by the shell at run time. */
export const EXPANSION_NODE_TYPES: ReadonlySet<string> = new Set([
  'simple_expansion',
  'expansion',
  'command_substitution',
  'process_substitution',
  'arithmetic_expansion',
]);

type Accumulator = { value: string; dynamic: boolean; glob: boolean };

const GLOB_CHARS = new Set(['*', '?', '[']);

/** Unquoted text: a backslash makes the next character literal; `\<newline>` disappears. */
function unquoteBare(text: string, acc: Accumulator): void {
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '\\') {
      const next = text[i + 1];
      i++;
      if (next !== undefined && next !== '\n') acc.value += next;
      continue;
    }
    if (GLOB_CHARS.has(ch)) acc.glob = true;
    acc.value += ch;
  }
}

/** Inside double quotes a backslash escapes only `$`, backtick, `"`, `\` and newline. */
function unquoteDouble(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_m, ch: string) => (ch === '\n' ? '' : ch));
}

const ANSI_C_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** `$'…'` strings: C-style escapes. */
export function decodeAnsiC(body: string): string {
  return body.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (match, esc: string) => {
      const head = esc[0] as string;
      if (head === 'x' || head === 'u' || head === 'U') {
        return String.fromCodePoint(Number.parseInt(esc.slice(1), 16));
      }
      if (/[0-7]/.test(head)) return String.fromCharCode(Number.parseInt(esc, 8));
      if (head === 'c' && esc.length === 2) return String.fromCharCode(esc.charCodeAt(1) & 0x1f);
      return ANSI_C_ESCAPES[esc] ?? match;
    },
  );
}

function collect(node: Node, acc: Accumulator): void {
  if (EXPANSION_NODE_TYPES.has(node.type)) {
    acc.dynamic = true;
    acc.value += node.text;
    return;
  }
  switch (node.type) {
    case 'word':
      unquoteBare(node.text, acc);
      return;
    case 'raw_string':
      acc.value += node.text.slice(1, -1);
      return;
    case 'ansi_c_string':
      acc.value += decodeAnsiC(node.text.slice(2, -1));
      return;
    case 'string':
    case 'translated_string':
      for (const child of node.children) {
        if (child.type === 'string_content') acc.value += unquoteDouble(child.text);
        else if (child.isNamed) collect(child, acc);
      }
      return;
    case 'concatenation':
      for (const child of node.children) {
        if (child.isNamed) collect(child, acc);
        // `$"…"` surfaces as an anonymous `$` before a string: it is locale translation, not text.
        else if (child.type !== '$') unquoteBare(child.text, acc);
      }
      // `{a,b}` and `{1..3}` arrive as a concatenation of bare words around braces.
      if (/^\{.*(,|\.\.).*\}$/s.test(node.text) && !acc.dynamic) acc.glob = true;
      return;
    case 'brace_expression':
    case 'extglob_pattern':
      acc.glob = true;
      acc.value += node.text;
      return;
    default:
      // Numbers, regexes of `[[ =~ ]]` and other literal leaves.
      acc.value += node.text;
  }
}

function firstLeaf(node: Node): Node {
  let current = node;
  while (current.childCount > 0 && current.type === 'concatenation') {
    const first = current.child(0);
    if (!first) break;
    current = first;
  }
  return current;
}

export function decodeWord(node: Node): ShellWord {
  const acc: Accumulator = { value: '', dynamic: false, glob: false };
  collect(node, acc);
  const lead = firstLeaf(node);
  const word: ShellWord = {
    text: node.text,
    value: acc.value,
    dynamic: acc.dynamic,
    glob: acc.glob,
    tilde: lead.type === 'word' && lead.text.startsWith('~'),
  };
  const evaluates = acc.dynamic ? expansionReason(node) : undefined;
  if (evaluates) word.evaluates = evaluates;
  if (acc.dynamic && containsSubstitution(node)) word.substitution = true;
  return word;
}

function containsSubstitution(node: Node): boolean {
  if (node.type === 'command_substitution' || node.type === 'process_substitution') return true;
  return node.namedChildren.some((child) => child !== null && containsSubstitution(child));
}

/** A word with a literal value, for words synthesized from text (heredoc delimiters, fds). */
export function literalWord(text: string): ShellWord {
  return { text, value: text, dynamic: false, glob: false, tilde: false };
}
