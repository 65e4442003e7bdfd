/** Ctrl+R: the newest history entry containing the query, and older matches on each repeat. */
export type HistorySearch = { query: string /** Index into the entries, newest first. */; index: number };

export function searchHistory(
  entries: readonly string[],
  query: string,
  from = 0,
): { match: string; index: number } | undefined {
  // entries are oldest first; search from the newest.
  for (let i = from; i < entries.length; i++) {
    const entry = entries[entries.length - 1 - i] as string;
    if (entry.includes(query)) return { match: entry, index: i };
  }
  return undefined;
}
