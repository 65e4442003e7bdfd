/**
 * Where an atomic write's temp file goes when its process is killed mid-write. The temp file lives
 * beside its target (the rename must stay on one file system), and targets are anywhere in a
 * project, so no start could afford to search for leftovers. Instead each write records its temp
 * file's exact path in a journal folder (`~/.yoke/pending-writes/`) for as long as the file exists;
 * a start reads that one folder and removes what a dead process left behind.
 *
 * A path is removed only when all of these hold, so a user's file is never touched: it was
 * recorded by a process of this machine that no longer runs, and its name is exactly the shape
 * the writer gives temp files (`.<name>.yoke-<12 hex>.tmp`).
 *
 * The journal is process-wide (it records what this OS process has in flight, like its child
 * process groups), and off until the CLI turns it on: library use and unit tests write none.
 */
import { randomBytes } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { mkdir, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, isAbsolute, join } from 'node:path';
import { type Env, yokeHome } from './paths';

/** The temp file name the atomic writer gives: `.<up to 64 chars of the name>.yoke-<12 hex>.tmp`. */
export const TEMP_FILE_PATTERN = /^\..{1,64}\.yoke-[0-9a-f]{12}\.tmp$/s;

export function tempFileName(target: string): string {
  return `.${basename(target).slice(0, 64)}.yoke-${randomBytes(6).toString('hex')}.tmp`;
}

let journalDir: string | undefined;
/**
 * Temp files of this process not yet renamed or removed, with their journal entries: an exit
 * removes both at once.
 */
const inFlight = new Map<string, string | undefined>();
let exitHookInstalled = false;

/** Turns the journal on (the CLI, with `~/.yoke/pending-writes`); undefined turns it off. */
export function setWriteJournalDir(dir: string | undefined): void {
  journalDir = dir;
}

/** An entry's name says which machine and process wrote it: `<host>.<pid>.<random>`. */
const hostTag = () => hostname().replace(/[^A-Za-z0-9-]/g, '_');

/**
 * Records a temp file before it is created; the returned function forgets it once it has been
 * renamed or removed. Journal failures never fail the write: the journal is only a cleanup aid.
 */
export async function recordTempFile(tempPath: string): Promise<() => Promise<void>> {
  inFlight.set(tempPath, undefined);
  installExitHook();
  const dir = journalDir;
  let entry: string | undefined;
  if (dir) {
    const candidate = join(dir, `${hostTag()}.${process.pid}.${randomBytes(6).toString('hex')}`);
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await writeFile(candidate, tempPath, { mode: 0o600 });
      entry = candidate;
      if (inFlight.has(tempPath)) inFlight.set(tempPath, entry);
    } catch {
      // No journal entry: a kill would leave this temp file behind, as before there was a journal.
    }
  }
  return async () => {
    inFlight.delete(tempPath);
    if (entry) await unlink(entry).catch(() => {});
  };
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // An exit handler must be synchronous. A write cut off by a forced exit leaves nothing behind.
  process.once('exit', () => {
    for (const [path, entry] of inFlight) {
      for (const file of entry ? [path, entry] : [path]) {
        try {
          unlinkSync(file);
        } catch {
          // Renamed or removed already.
        }
      }
    }
  });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temp files that processes of this machine, now gone, recorded and never finished,
 * and their journal entries. Returns the temp files removed. Never throws.
 */
export async function sweepStaleTempFiles(dir: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  const host = hostTag();
  for (const entry of entries) {
    const match = /^(.+)\.(\d+)\.[0-9a-f]{12}$/.exec(entry);
    // Entries of another machine sharing this home (its processes cannot be checked from here).
    if (!match || match[1] !== host) continue;
    const pid = Number(match[2]);
    if (pid === process.pid || isRunning(pid)) continue;
    const entryPath = join(dir, entry);
    const tempPath = await readFile(entryPath, 'utf8').catch(() => undefined);
    if (tempPath !== undefined && isAbsolute(tempPath) && TEMP_FILE_PATTERN.test(basename(tempPath))) {
      try {
        await unlink(tempPath);
        removed.push(tempPath);
      } catch {
        // Already gone (the rename happened before the kill), or not ours to remove any more.
      }
    }
    await unlink(entryPath).catch(() => {});
  }
  return removed;
}

/**
 * The CLI's start: the journal goes to `<Yoke home>/pending-writes`, and what killed processes
 * left there is cleaned up in the background. Resolves to the temp files removed.
 */
export function startWriteJournal(env: Env): Promise<string[]> {
  const dir = join(yokeHome(env), 'pending-writes');
  setWriteJournalDir(dir);
  return sweepStaleTempFiles(dir);
}
