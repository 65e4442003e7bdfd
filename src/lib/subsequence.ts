/** Whether `needle`'s characters appear in `hay` in order (`rftp` in "refactor the parser"): fuzzy matching. */
export function isSubsequence(needle: string, hay: string): boolean {
  let i = 0;
  for (let j = 0; j < hay.length && i < needle.length; j++) if (hay[j] === needle[i]) i++;
  return i === needle.length;
}
