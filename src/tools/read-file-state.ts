/**
 * What the model has read, so Write/Edit can refuse to clobber a file that changed (or was never
 * read) since. An LRU bounded by entry count keeps memory flat over long sessions.
 */

export type ReadFileEntry = {
  /** Content hash (sha256 hex) of the file as it was read or last written by a tool. */
  hash: string;
  mtimeMs: number;
  /** When the read happened (ms since epoch). */
  readAt: number;
  /** Set when only part of the file was read. */
  partial?: { offset: number; limit: number };
  /**
   * The whole file's text as the model last saw it, for small text files read whole: a change
   * someone else makes is then shown to the model as a diff.
   */
  snapshot?: string;
};

export class ReadFileState {
  private readonly entries = new Map<string, ReadFileEntry>();

  constructor(readonly maxEntries = 500) {}

  get(path: string): ReadFileEntry | undefined {
    const entry = this.entries.get(path);
    if (entry) {
      // Refresh recency: a Map iterates in insertion order, so re-inserting marks it newest.
      this.entries.delete(path);
      this.entries.set(path, entry);
    }
    return entry;
  }

  set(path: string, entry: ReadFileEntry): void {
    this.entries.delete(path);
    this.entries.set(path, entry);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  /** The entry without marking it recently used (a check of every entry must not reorder them). */
  peek(path: string): ReadFileEntry | undefined {
    return this.entries.get(path);
  }

  /** Replaces an existing entry in place, keeping its recency; false when there is none. */
  update(path: string, entry: ReadFileEntry): boolean {
    if (!this.entries.has(path)) return false;
    this.entries.set(path, entry);
    return true;
  }

  delete(path: string): void {
    this.entries.delete(path);
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  get size(): number {
    return this.entries.size;
  }

  paths(): string[] {
    return [...this.entries.keys()];
  }

  /** An independent copy (a subagent starts from what its parent had read). */
  clone(): ReadFileState {
    const copy = new ReadFileState(this.maxEntries);
    for (const [path, entry] of this.entries) copy.entries.set(path, { ...entry });
    return copy;
  }
}
