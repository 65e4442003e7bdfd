/**
 * A row's characters with the SGR styles in force at each, as @alcalzone/ansi-tokenize's
 * `styledCharsFromTokens` gives them, made with less garbage: that function copies each token and
 * the style list for every character, and a painted row was the largest share of what the REPL
 * allocates while an answer streams (scavenges a key can land in). Here the characters of a run
 * share one style list — the list is replaced, never changed, when a code changes it, and neither
 * the painting nor styled-row.ts writes to a character's list — and each character object is
 * made once. styled-chars.test.ts compares the two on real and random rows.
 */
import { reduceAnsiCodesIncremental, type StyledChar, type Token } from '@alcalzone/ansi-tokenize';

type AnsiCode = StyledChar['styles'][number];

export function styledChars(tokens: readonly Token[]): StyledChar[] {
  let codes: AnsiCode[] = [];
  const chars: StyledChar[] = [];
  for (const token of tokens) {
    if (token.type === 'ansi') codes = reduceAnsiCodesIncremental(codes, [token]);
    else if (token.type === 'char')
      chars.push({ type: 'char', value: token.value, fullWidth: token.fullWidth, styles: codes });
  }
  return chars;
}
