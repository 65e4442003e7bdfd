/**
 * Syntax that makes bash evaluate a value as code although it looks like data: arithmetic
 * (`$((x))`, `(( x ))`, `for ((…))`, `[[ $x -eq 1 ]]`, subscripts `${a[x]}`, substring offsets
 * `${s:x}`), indirection `${!x}` and prompt expansion `${x@P}`. A variable may hold `a[$(cmd)]`
 * (a file name in `for f in *` is enough), and evaluating it runs `cmd`. Each check below was
 * calibrated against bash 5.2 (see evaluation-sites.calibration.test.ts); each answers a one-line
 * reason, or undefined when the construct evaluates nothing the script cannot see.
 */
import type { Node } from 'web-tree-sitter';
import { isHarmlessSubscript, isLiteralArithmetic, nameEvaluatesSubscript } from './arithmetic';
import type { ShellRedirect, ShellSegment, ShellWord } from './types';

const RUNS = 'which can run commands';

/** Source text for a reason line: short enough to read, long enough to recognise. */
export function shown(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 48 ? `${oneLine.slice(0, 47)}…` : oneLine;
}

/** The expression between `$((`/`$[`/`((` and the closing brackets. */
function arithmeticBody(text: string): string {
  if (text.startsWith('$((')) return text.slice(3, -2);
  if (text.startsWith('$[')) return text.slice(2, -1);
  if (text.startsWith('((')) return text.slice(2, -2);
  return text;
}

export function arithmeticReason(sourceText: string): string | undefined {
  if (isLiteralArithmetic(arithmeticBody(sourceText))) return undefined;
  return `\`${shown(sourceText)}\` evaluates variables as arithmetic, ${RUNS}`;
}

/** Index of the `]` closing the `[` at `open`, counting nested brackets. */
function closingBracket(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '[') depth++;
    else if (text[i] === ']' && --depth === 0) return i;
  }
  return -1;
}

const PARAMETER_NAME = /^(?:[A-Za-z_][A-Za-z0-9_]*|\d+|[@*#?$!-])/;

/**
 * `${…}`: the parts bash evaluates — a subscript (arithmetic for indexed arrays), a substring
 * offset and length (arithmetic), `!name` (the value is used as a variable name) and `@P` (the
 * value is expanded like a prompt, `$(…)` included). Nested `${…}` are separate nodes.
 */
function parameterExpansionReason(node: Node): string | undefined {
  const text = node.text;
  // The grammar splits some forms it does not know (`${s:$x}`) and flags a parse error; never
  // read meaning into such a fragment.
  if (!text.endsWith('}')) return `\`${shown(text)}\` could not be read as an expansion, ${RUNS}`;
  let inner = text.slice(2, -1);
  let prefix = '';
  if (inner.startsWith('!') && inner.length > 1) prefix = '!';
  else if (inner.startsWith('#') && inner.length > 1 && inner[1] !== '}') prefix = '#';
  inner = inner.slice(prefix.length);
  const name = PARAMETER_NAME.exec(inner)?.[0] ?? '';
  let rest = inner.slice(name.length);
  let subscript: string | undefined;
  if (rest.startsWith('[')) {
    const close = closingBracket(rest, 0);
    if (close < 0) return `\`${shown(text)}\` has a subscript bash evaluates as arithmetic, ${RUNS}`;
    subscript = rest.slice(1, close);
    rest = rest.slice(close + 1);
  }
  if (subscript !== undefined && !isHarmlessSubscript(subscript))
    return `\`${shown(text)}\` evaluates its subscript as arithmetic, ${RUNS}`;
  if (prefix === '!') {
    const listsNames = subscript === undefined && (rest === '@' || rest === '*');
    const listsKeys = subscript !== undefined && /^\s*[@*]\s*$/.test(subscript) && rest === '';
    if (!listsNames && !listsKeys)
      return `\`${shown(text)}\` uses the value of ${name || 'a parameter'} as a variable name, ${RUNS}`;
  }
  if (rest.startsWith(':') && !/^:[-=?+]/.test(rest) && !isLiteralArithmetic(rest.slice(1)))
    return `\`${shown(text)}\` evaluates its offset or length as arithmetic, ${RUNS}`;
  if (/^@P/.test(rest)) return `\`${shown(text)}\` expands the value like a prompt, ${RUNS}`;
  return undefined;
}

/**
 * Why expanding `node` (a word, a string, a heredoc body) evaluates a value as code, or
 * undefined. Command and process substitutions are skipped: their commands are segments of their
 * own, checked where they are.
 */
export function expansionReason(node: Node): string | undefined {
  switch (node.type) {
    case 'command_substitution':
      // In a heredoc body the grammar reads `$((x))` as `$( (x) )`; bash reads arithmetic.
      return node.text.startsWith('$((') ? arithmeticReason(node.text) : undefined;
    case 'process_substitution':
      return undefined;
    case 'arithmetic_expansion': {
      const reason = arithmeticReason(node.text);
      if (reason) return reason;
      break;
    }
    case 'expansion': {
      const reason = parameterExpansionReason(node);
      if (reason) return reason;
      break;
    }
  }
  for (const child of node.namedChildren) {
    const reason = child ? expansionReason(child) : undefined;
    if (reason) return reason;
  }
  return undefined;
}

/** `(( … ))` as a command, and the header of `for (( …; …; … ))`. */
export function arithmeticCommandReason(node: Node): string | undefined {
  const text = node.text;
  if (node.type === 'compound_statement') return arithmeticReason(text);
  // c_style_for_statement: `for ((init; cond; step)) …` — only the header is arithmetic.
  const open = text.indexOf('((');
  const close = text.indexOf('))', open);
  if (open < 0 || close < 0) return `\`${shown(text)}\` could not be read as arithmetic, ${RUNS}`;
  const header = text.slice(open, close + 2);
  return isLiteralArithmetic(header.slice(2, -2).replace(/;/g, ','))
    ? undefined
    : `\`${shown(header)}\` evaluates variables as arithmetic, ${RUNS}`;
}

/** Compound array values `([k]=v …)`: for an indexed array every key is arithmetic. */
export function arrayKeysReason(valueText: string): string | undefined {
  if (!valueText.startsWith('(')) return undefined;
  for (const match of valueText.matchAll(/(?:^\(|\s)\[([^\]]*)\]\+?=/g)) {
    if (!isHarmlessSubscript(match[1] as string))
      return `\`[${shown(match[1] as string)}]=\` in an array value is evaluated as arithmetic, ${RUNS}`;
  }
  return undefined;
}

/** `a[x]=1`: the subscript of an assignment target is arithmetic. */
export function assignmentNameReason(name: string): string | undefined {
  return nameEvaluatesSubscript(name)
    ? `assigning to \`${shown(name)}\` evaluates its subscript as arithmetic, ${RUNS}`
    : undefined;
}

/** `[[ … ]]` operators whose operands are evaluated as arithmetic (calibrated: all six). */
const ARITHMETIC_TEST_OPERATORS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);

/**
 * An operand of `-eq` and friends: a static arithmetic literal, or integer-valued parameters only
 * (`$#`, `"$?"`, `${#name}`). A dynamic word is judged by its source text without double quotes.
 */
function isIntegerOperand(word: ShellWord): boolean {
  if (!word.dynamic) return isLiteralArithmetic(word.value);
  return !word.text.includes("'") && isLiteralArithmetic(word.text.replace(/"/g, ''));
}

/** A word used as a variable name by `-v`: a computed name or a non-literal subscript evaluates. */
export function nameOperandEvaluates(word: ShellWord | undefined): boolean {
  if (!word) return false;
  return word.dynamic || nameEvaluatesSubscript(word.value);
}

/**
 * `[[ … ]]` (the words of the test, brackets included). Operators are recognised before
 * expansion there, so only unquoted operator words count: `-eq` and friends evaluate both
 * operands, `-v` evaluates a subscript in its operand.
 */
export function doubleBracketReason(words: readonly ShellWord[]): string | undefined {
  const source = words.map((w) => w.text).join(' ');
  for (let i = 0; i < words.length; i++) {
    const op = (words[i] as ShellWord).text;
    if (ARITHMETIC_TEST_OPERATORS.has(op)) {
      const left = words[i - 1];
      const right = words[i + 1];
      for (const operand of [left, right]) {
        if (operand && !isIntegerOperand(operand))
          return `\`${shown(source)}\` evaluates ${shown(operand.text)} as arithmetic, ${RUNS}`;
      }
    }
    if (op === '-v' && nameOperandEvaluates(words[i + 1]))
      return `\`${shown(source)}\` evaluates ${shown(words[i + 1]?.text ?? '')} as a variable name, ${RUNS}`;
  }
  return undefined;
}

/**
 * The `[`/`test` builtin: its operators are recognised after expansion, so a computed word may
 * turn out to be `-v`. Calibrated: `-eq` and friends do not evaluate arithmetic here (unlike
 * `[[`), but `-v NAME` evaluates a subscript in NAME.
 */
export function testBuiltinReason(args: readonly ShellWord[], source: string): string | undefined {
  for (let i = 0; i < args.length - 1; i++) {
    const word = args[i] as ShellWord;
    if ((word.value === '-v' || word.dynamic) && nameOperandEvaluates(args[i + 1]))
      return `\`${shown(source)}\` may evaluate ${shown(args[i + 1]?.text ?? '')} as a variable name, ${RUNS}`;
  }
  return undefined;
}

/** `{name[x]}>file`: the redirect assigns a descriptor number through the (arithmetic) subscript. */
export function descriptorVariableReason(wordText: string): string | undefined {
  const match = /^\{([A-Za-z_][A-Za-z0-9_]*\[.*\])\}$/s.exec(wordText);
  if (!match || !nameEvaluatesSubscript(match[1] as string)) return undefined;
  return `the redirect \`${shown(wordText)}\` assigns through a subscript bash evaluates as arithmetic, ${RUNS}`;
}

/** The first reason any word or redirect of a segment gives for evaluating a value as code. */
export function wordsReason(
  words: readonly ShellWord[],
  assignments: ShellSegment['assignments'],
  redirects: readonly ShellRedirect[],
): string | undefined {
  return (
    words.find((w) => w.evaluates)?.evaluates ??
    assignments.find((a) => a.value.evaluates)?.value.evaluates ??
    redirects.find((r) => r.evaluates)?.evaluates
  );
}

/** `[[ … ]]` recognises operators before expansion; `[ … ]` is the `test` builtin. */
export function testExpressionReason(words: readonly ShellWord[]): string | undefined {
  if (words[0]?.text === '[[') return doubleBracketReason(words);
  const operands = words.at(-1)?.text === ']' ? words.slice(1, -1) : words.slice(1);
  return testBuiltinReason(operands, words.map((w) => w.text).join(' '));
}
