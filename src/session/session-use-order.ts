/**
 * Which session of a project the user used last, without the wall clock. A file's mtime says when
 * it was last written by the clock of that moment, and this machine's clock can jump (to 2020 and
 * back): a session used a minute ago can look years older than one used yesterday. So every typed
 * prompt moves its session to the front of the project's use order, `sessions-by-use.json` beside
 * the transcripts; `--continue` and the resume picker read that order, and sessions it does not
 * name (older than the record, or written by another tool) follow by mtime.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const USE_ORDER_FILE = 'sessions-by-use.json';

/** Enough for any picker; a session pushed out falls back to its mtime, behind the recorded ones. */
const MAX_RECORDED = 200;

type UseOrder = { order: string[] };

/** The project's session ids, last used first; empty when there is no readable record. */
export function readUseOrder(projectDir: string): string[] {
  let text: string;
  try {
    text = readFileSync(join(projectDir, USE_ORDER_FILE), 'utf8');
  } catch {
    return [];
  }
  try {
    const parsed = JSON.parse(text) as Partial<UseOrder>;
    return Array.isArray(parsed.order)
      ? parsed.order.filter((id): id is string => typeof id === 'string')
      : [];
  } catch {
    // A record another process is replacing is renamed whole; a damaged one is rewritten at the next prompt.
    return [];
  }
}

/**
 * Moves `sessionId` to the front of the project's use order. Written to a temp file and renamed,
 * so a reader sees the old order or the new one. A failure is not the turn's: the order is a
 * convenience, and mtime is its fallback.
 */
export function recordSessionUse(projectDir: string, sessionId: string): void {
  const order = readUseOrder(projectDir);
  if (order[0] === sessionId) return;
  const next: UseOrder = {
    order: [sessionId, ...order.filter((id) => id !== sessionId)].slice(0, MAX_RECORDED),
  };
  const path = join(projectDir, USE_ORDER_FILE);
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(temp, `${JSON.stringify(next)}\n`);
    renameSync(temp, path);
  } catch {
    rmSync(temp, { force: true });
  }
}

/** `files` (newest mtime first) in use order: the recorded ones first, in their order, then the rest. */
export function byLastUse<T extends { sessionId: string }>(
  files: readonly T[],
  order: readonly string[],
): T[] {
  const rank = new Map(order.map((id, index) => [id, index]));
  const recorded = files.filter((f) => rank.has(f.sessionId));
  recorded.sort((a, b) => (rank.get(a.sessionId) ?? 0) - (rank.get(b.sessionId) ?? 0));
  return [...recorded, ...files.filter((f) => !rank.has(f.sessionId))];
}

/**
 * The sessions whose age their mtime cannot tell, in a list in use order: an mtime after now, or
 * one older than a session used before it (it was written while the clock was set back).
 */
export function agesUnknown(
  files: readonly { sessionId: string; modifiedMs: number }[],
  nowMs: number,
): Set<string> {
  const unknown = new Set<string>();
  let newestBelow = Number.NEGATIVE_INFINITY;
  for (let i = files.length - 1; i >= 0; i--) {
    const file = files[i]!;
    if (file.modifiedMs > nowMs || file.modifiedMs < newestBelow) unknown.add(file.sessionId);
    else newestBelow = file.modifiedMs;
  }
  return unknown;
}
