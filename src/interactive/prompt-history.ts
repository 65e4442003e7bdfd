/**
 * The prompts typed in a project, kept across runs for ↑/↓ recall and Ctrl+R search.
 *
 * Storage: `~/.yoke/history/<project>.jsonl`, one JSON line per prompt, written with a single
 * `write` on a file opened for appending. The kernel appends each such write whole, so Yoke
 * processes typing in the same project at once never interleave or overwrite each other's lines,
 * and no lock is needed. The reader skips a line it cannot parse (a crash mid-write leaves at
 * most one), so a damaged line costs that entry, never the history.
 *
 * Bounded without rewriting: when the file passes ROTATE_BYTES it is renamed to
 * `<project>.1.jsonl`, replacing the previous older half, and a new file begins. A rename is
 * atomic; a process appending at that moment writes into the renamed file, which is still read.
 */
import { mkdir, open, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type Env, yokeHome } from '../config/paths';
import { isJsonObject } from '../lib/json-object';
import { isSubsequence } from '../lib/subsequence';
import { projectSlug } from '../session/transcript-paths';

export const ROTATE_BYTES = 512 * 1024;
/** A longer prompt (a huge paste) is not kept: recalling it would not be what the user wants. */
export const MAX_ENTRY_CHARS = 32 * 1024;

export type HistoryEntry = { text: string; timestamp: number };
export type HistoryMatch = HistoryEntry & {
  /** Where the query was found in `text` (substring match), for highlighting; absent for fuzzy. */
  at?: number;
  kind: 'substring' | 'fuzzy';
};

export type PromptHistoryOptions = { env: Env; projectRoot: string };

export class PromptHistory {
  readonly file: string;
  private readonly older: string;
  private cache: HistoryEntry[] | undefined;

  constructor(options: PromptHistoryOptions) {
    const dir = join(yokeHome(options.env), 'history');
    const slug = projectSlug(options.projectRoot);
    this.file = join(dir, `${slug}.jsonl`);
    this.older = join(dir, `${slug}.1.jsonl`);
  }

  /** Appends one prompt. Returns false (and keeps nothing) for an empty or oversized prompt. */
  async add(text: string, now = Date.now()): Promise<boolean> {
    if (text.trim() === '' || text.length > MAX_ENTRY_CHARS) return false;
    const entry: HistoryEntry = { text, timestamp: now };
    const line = Buffer.from(`${JSON.stringify({ display: text, timestamp: now })}\n`);
    await mkdir(join(this.file, '..'), { recursive: true });
    const handle = await open(this.file, 'a', 0o600);
    try {
      // One write call: the append is atomic with respect to other appenders.
      let written = 0;
      while (written < line.length) {
        const { bytesWritten } = await handle.write(line, written, line.length - written);
        written += bytesWritten;
      }
    } finally {
      await handle.close();
    }
    this.cache?.unshift(entry);
    await this.rotateIfLarge();
    return true;
  }

  private async rotateIfLarge(): Promise<void> {
    try {
      if ((await stat(this.file)).size < ROTATE_BYTES) return;
      await rename(this.file, this.older);
    } catch (error) {
      // Another process rotated it first: nothing left to do.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  /** Every prompt, newest first, re-read from disk (other processes may have added some). */
  async load(): Promise<readonly HistoryEntry[]> {
    const [older, current] = await Promise.all([readEntries(this.older), readEntries(this.file)]);
    // Newest first by arrival: appends from several processes land in the order they were typed.
    // The stamps are not the order: a clock set back (NTP, a VM resumed) stamps a new prompt
    // before older ones, and ↑ would recall a stale prompt first.
    this.cache = [...older, ...current].reverse();
    return this.cache;
  }

  /** For ↑/↓: newest first, each distinct prompt once (at its latest use). */
  async recall(): Promise<readonly string[]> {
    const seen = new Set<string>();
    const out: string[] = [];
    for (const entry of this.cache ?? (await this.load())) {
      if (seen.has(entry.text)) continue;
      seen.add(entry.text);
      out.push(entry.text);
    }
    return out;
  }

  /**
   * For Ctrl+R: prompts containing `query` (case-insensitive), newest first; then prompts that
   * hold its characters in order (fuzzy), newest first. Each distinct prompt once. Works on what
   * the last `load` read, so typing the query does not re-read the file per keystroke.
   */
  async search(query: string, limit = 50): Promise<readonly HistoryMatch[]> {
    return searchEntries(this.cache ?? (await this.load()), query, limit);
  }
}

export function searchEntries(entries: readonly HistoryEntry[], query: string, limit = 50): HistoryMatch[] {
  const needle = query.toLowerCase();
  const seen = new Set<string>();
  const substring: HistoryMatch[] = [];
  const fuzzy: HistoryMatch[] = [];
  for (const entry of entries) {
    if (seen.has(entry.text)) continue;
    seen.add(entry.text);
    const hay = entry.text.toLowerCase();
    const at = hay.indexOf(needle);
    if (at >= 0) substring.push({ ...entry, at, kind: 'substring' });
    else if (needle.length > 1 && isSubsequence(needle, hay)) fuzzy.push({ ...entry, kind: 'fuzzy' });
    if (substring.length >= limit) break;
  }
  return [...substring, ...fuzzy].slice(0, limit);
}

async function readEntries(path: string): Promise<HistoryEntry[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const entries: HistoryEntry[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue; // a line cut short by a crash
    }
    if (!isJsonObject(value) || typeof value.display !== 'string') continue;
    const timestamp = typeof value.timestamp === 'number' ? value.timestamp : 0;
    entries.push({ text: value.display, timestamp });
  }
  return entries;
}
