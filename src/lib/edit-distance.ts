/**
 * How far apart two words are, for "did you mean …?" hints: a mistyped flag, subcommand,
 * settings key or session id is matched to the nearest name the user could have meant.
 */

/**
 * The optimal-string-alignment distance: insertions, deletions, substitutions and swaps of two
 * neighbouring characters each cost 1 (`--max-turn` → `--max-turns` is 1, `--verbsoe` → `--verbose` 1).
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (d[(i - 1) * cols + j] as number) + 1,
        (d[i * cols + j - 1] as number) + 1,
        (d[(i - 1) * cols + j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (d[(i - 2) * cols + j - 2] as number) + 1);
      }
      d[i * cols + j] = best;
    }
  }
  return d[rows * cols - 1] as number;
}

/**
 * The typo budget for a word: short names get one edit, longer ones two — so `-x` is never
 * "near" `-p`, while `--max-budget-usd` still catches `--max-budjet-us`.
 */
export function typoBudget(word: string): number {
  return word.length <= 4 ? 0 : word.length <= 8 ? 1 : 2;
}

/**
 * The candidate nearest to `word` within its typo budget (case-insensitive, so `--allowedtools`
 * finds `--allowedTools`), or undefined when nothing is close. Ties go to the first candidate.
 */
export function nearestName(
  word: string,
  candidates: Iterable<string>,
  budget: (candidate: string) => number = typoBudget,
): string | undefined {
  const needle = word.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const candidate of candidates) {
    if (candidate === word) continue;
    const distance = editDistance(needle, candidate.toLowerCase());
    if (distance > budget(candidate)) continue;
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  return best?.name;
}
