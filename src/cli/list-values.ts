/**
 * List flags arrive as one comma/space separated token, as repeated flags, or both
 * (`--allowedTools=Read,Bash(git log:*) --allowedTools Edit`). Permission rules keep everything
 * inside their parentheses together: `Bash(git commit -m x, y)` is one rule.
 */

/** Splits rule or tool-name lists on commas and whitespace outside parentheses. */
export function splitRuleList(values: readonly string[] | undefined): string[] {
  const out: string[] = [];
  for (const value of values ?? []) {
    let depth = 0;
    let current = '';
    for (const char of value) {
      if (char === '(') depth++;
      else if (char === ')') depth = Math.max(0, depth - 1);
      if (depth === 0 && (char === ',' || /\s/.test(char))) {
        if (current) out.push(current);
        current = '';
        continue;
      }
      current += char;
    }
    if (current) out.push(current);
  }
  return out;
}

/** Splits on commas only (paths and names may contain spaces); empty items are dropped. */
export function splitCommaList(values: readonly string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((value) => value.split(','))
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
