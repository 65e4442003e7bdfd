/**
 * When bash evaluates text as arithmetic, every name in it is a variable whose *value* is
 * evaluated as arithmetic in turn — and a value like `a[$(cmd)]` runs `cmd` through the subscript.
 * Values come from files (`for f in *`), the environment and earlier commands, so an arithmetic
 * expression is harmless only when it names no variable at all. These checks decide that from the
 * source text; they answer "literal" only for numbers, operators and a few integer-valued
 * parameters, and everything else (names, expansions, quotes) is not literal.
 */

/** `10`, `0x1F`, `2#1011`, `64#_@z`: bash's integer literals. */
const NUMBER = /^(?:0[xX][0-9a-fA-F]+|\d+#[0-9A-Za-z@_]+|\d+)/;

/**
 * Parameters whose value is always an integer the script cannot choose: `$#`, `$?`, `$$`, `$!`
 * and lengths `${#name}`. A length with a subscript (`${#a[x]}`) evaluates the subscript.
 */
const INTEGER_PARAMETER = /^\$(?:[#?$!]|\{[#?$!]\}|\{#(?:[A-Za-z_][A-Za-z0-9_]*|[#?$!@*]|\d+)?\})/;

/** Operators, parentheses and blanks of arithmetic expressions (including `?:` and `,`). */
const OPERATOR_CHARS = new Set([...'+-*/%<>=!~&|^?:,() \t\n']);

/** True when evaluating `text` as arithmetic reads no variable (so it cannot run anything). */
export function isLiteralArithmetic(text: string): boolean {
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const token = NUMBER.exec(rest) ?? INTEGER_PARAMETER.exec(rest);
    if (token) {
      i += token[0].length;
      // `1a` is not a number followed by an operator: bash would try `a` as part of it.
      if (/^[A-Za-z_]/.test(text.slice(i))) return false;
      continue;
    }
    if (!OPERATOR_CHARS.has(text[i] as string)) return false;
    i++;
  }
  return true;
}

/** A subscript that is not arithmetic at all: `[@]` and `[*]` list every element. */
const LIST_SUBSCRIPT = /^\s*[@*]\s*$/;

/** True when a subscript `[index]` of an indexed array evaluates nothing the script cannot see. */
export function isHarmlessSubscript(index: string): boolean {
  return LIST_SUBSCRIPT.test(index) || isLiteralArithmetic(index);
}

/**
 * True when bash, using `value` as a variable name (`[ -v NAME ]`, `printf -v NAME`, `read NAME`,
 * `unset NAME`, `declare NAME=…`), could evaluate a subscript in it: `a[x]`, `a[$i]`. A plain name
 * or a literal subscript (`a[0]`, `a[@]`) evaluates nothing; a name without `[` never does.
 */
export function nameEvaluatesSubscript(value: string): boolean {
  const open = value.indexOf('[');
  if (open < 0) return false;
  const close = value.lastIndexOf(']');
  if (close < open) return true;
  return !isHarmlessSubscript(value.slice(open + 1, close));
}
