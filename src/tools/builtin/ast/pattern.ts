/**
 * Compiling a pattern for one grammar. A fragment means different things in different places:
 * in C, `foo($A)` at top level is a declaration, inside a function a call. So the pattern is
 * parsed inside a ladder of contexts — statement, expression, class member, declaration — and
 * the first context where it parses cleanly into one node spanning exactly the pattern is used
 * (ast-grep's contextual pattern: that context, with that node's kind as the selector). A
 * pattern no context accepts is an error naming the language, never a search that finds nothing.
 */
import type { NapiConfig, SgNode } from '@ast-grep/napi';
import { ToolError } from '../../tool';
import type { AstEngine, Language } from './languages';

type ContextName = 'statement' | 'expression' | 'class member' | 'declaration';
/** Code around the pattern; an indented context (Python's blocks) indents each of its lines. */
type Context = { name: ContextName; before: string; after: string; indent?: string };

const c = (name: ContextName, before: string, after = ''): Context => ({ name, before, after });

const curly = (fn: string, member: string, expression: [string, string]): Context[] => [
  c('statement', `${fn} {\n`, '\n}'),
  c('expression', ...expression),
  c('class member', `${member} {\n`, '\n}'),
  c('declaration', ''),
];

const jsLike = curly('function __yoke()', 'class __Yoke', ['const __yoke = (', ');']);

/** Per grammar; a grammar without its own list uses the pattern as a whole file (`declaration`). */
const LADDERS: Readonly<Record<string, Context[]>> = {
  TypeScript: jsLike,
  Tsx: jsLike,
  JavaScript: jsLike,
  java: curly('class __Yoke { void __yoke()', 'class __Yoke', ['class __Yoke { Object __y = ', '; }']),
  csharp: curly('class __Yoke { void __yoke()', 'class __Yoke', ['class __Yoke { object __y = ', '; }']),
  c: curly('void __yoke(void)', 'struct __Yoke', ['void __yoke(void) { __y = ', '; }']),
  cpp: curly('void __yoke()', 'class __Yoke', ['void __yoke() { __y = ', '; }']),
  dart: curly('void __yoke()', 'class __Yoke', ['var __y = ', ';']),
  rust: curly('fn __yoke()', 'impl __Yoke', ['fn __yoke() { let __y = ', '; }']),
  kotlin: curly('fun __yoke()', 'class __Yoke', ['val __y = ', '']),
  swift: curly('func __yoke()', 'class __Yoke', ['let __y = ', '']),
  scala: curly('def __yoke() =', 'class __Yoke', ['val __y = ', '']),
  go: [
    c('statement', 'package __yoke\nfunc __yoke() {\n', '\n}'),
    c('expression', 'package __yoke\nvar __y = '),
    c('class member', 'package __yoke\ntype __Yoke struct {\n', '\n}'),
    c('declaration', 'package __yoke\n'),
  ],
  php: [
    c('statement', '<?php\nfunction __yoke() {\n', '\n}'),
    c('expression', '<?php\n$__y = ', ';'),
    c('class member', '<?php\nclass __Yoke {\n', '\n}'),
    c('declaration', '<?php\n'),
  ],
  python: [
    { name: 'statement', before: 'def __yoke():\n    ', after: '', indent: '    ' },
    c('expression', '__y = (', ')'),
    { name: 'class member', before: 'class __Yoke:\n    ', after: '', indent: '    ' },
    c('declaration', ''),
  ],
};

/** Grammars whose statements end in `;`. */
const SEMICOLON_LANGUAGES: ReadonlySet<string> = new Set([
  'TypeScript',
  'Tsx',
  'JavaScript',
  'java',
  'csharp',
  'c',
  'cpp',
  'dart',
  'rust',
  'php',
]);

type Placed = { name: ContextName; text: string; start: number; end: number };

/** The pattern inside one context, and where it lies there. */
function place(language: Language, ctx: Context, pattern: string): Placed {
  const body = ctx.indent ? pattern.split('\n').join(`\n${ctx.indent}`) : pattern;
  // As a statement, `foo(x)` without its `;` reads in C as a macro type, in Java as an error.
  const terminator =
    ctx.name === 'statement' && SEMICOLON_LANGUAGES.has(language.id) && !/[;}]$/.test(pattern) ? ';' : '';
  const start = ctx.before.length;
  return {
    name: ctx.name,
    text: `${ctx.before}${body}${terminator}${ctx.after}`,
    start,
    end: start + body.length,
  };
}

/**
 * An ERROR node, or a token tree-sitter made up to finish the parse (`foo(` gets a zero-width
 * `)`): either way the pattern is not whole code in this context.
 */
function hasError(node: SgNode): boolean {
  if (node.kind() === 'ERROR') return true;
  const children = node.children();
  if (children.length === 0) {
    const { start, end } = node.range();
    return start.index === end.index;
  }
  return children.some(hasError);
}

/**
 * The innermost named node spanning exactly [start, end), if any: `foo($A)` as a statement is an
 * expression statement around a call, and the call is what the model means (it matches `foo(1)`
 * wherever it stands, not only as a statement).
 */
function exactNode(node: SgNode, start: number, end: number): SgNode | undefined {
  const range = node.range();
  if (range.start.index > start || range.end.index < end) return undefined;
  for (const child of node.children()) {
    const found = exactNode(child, start, end);
    if (found) return found;
  }
  if (range.start.index === start && range.end.index === end && node.isNamed()) return node;
  return undefined;
}

export type CompiledPattern = { rule: NapiConfig; context: ContextName };

export function compilePattern(engine: AstEngine, language: Language, pattern: string): CompiledPattern {
  const trimmed = pattern.trim();
  if (trimmed === '') throw new ToolError('The pattern is empty.');
  // ast-grep parses `$NAME` as the grammar's expando character where `$` is no identifier; the
  // probe does the same (one character for one, so positions agree).
  const spelled = language.expando === '$' ? trimmed : trimmed.replaceAll('$', language.expando);
  for (const ctx of LADDERS[language.id] ?? [c('declaration', '')]) {
    const probe = place(language, ctx, spelled);
    let root: SgNode;
    try {
      root = engine.parse(language, probe.text).root();
    } catch {
      continue;
    }
    if (hasError(root)) continue;
    const node = exactNode(root, probe.start, probe.end);
    if (!node) continue;
    const context = place(language, ctx, trimmed).text;
    const rule: NapiConfig = { rule: { pattern: { context, selector: node.kind() as never } } };
    try {
      // Compiled now, so a pattern ast-grep rejects is reported as such, not as no match.
      engine.findAll(engine.parse(language, ''), rule);
    } catch {
      continue;
    }
    return { rule, context: ctx.name };
  }
  throw new ToolError(
    `Unparseable pattern for ${language.id}: \`${trimmed}\` is not valid ${language.id} code as a statement, expression, class member or declaration. Write it as the code you want to find, with $NAME, $$$NAME or $_ where any code may stand.`,
  );
}
