/**
 * Fetched pages kept for 15 minutes per URL: a model often asks several questions about the
 * same page, and re-downloading it each time is slow and impolite to the server.
 */
export type CachedPage = {
  /** Where the content finally came from (after same-host redirects). */
  url: string;
  status: number;
  statusText: string;
  bytes: number;
  /** The page as Markdown or text. */
  text: string;
};

export const PAGE_CACHE_TTL_MS = 15 * 60 * 1000;
const MAX_ENTRIES = 64;

export class PageCache {
  private readonly entries = new Map<string, { page: CachedPage; expires: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  get(url: string): CachedPage | undefined {
    const entry = this.entries.get(url);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(url);
      return undefined;
    }
    return entry.page;
  }

  set(url: string, page: CachedPage): void {
    this.entries.delete(url);
    // Maps iterate in insertion order, so the first key is the oldest entry.
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(url, { page, expires: this.now() + PAGE_CACHE_TTL_MS });
  }
}
