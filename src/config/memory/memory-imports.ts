/**
 * `@path` imports inside memory files. An import is an `@` that starts a word and names a file:
 * relative to the importing file, `~/` for the home folder, or absolute. Text in fenced code
 * blocks and inline code spans is never scanned, so examples such as `@decorator` stay inert.
 *
 * A project's memory file is the repository speaking, and what it imports goes into the system
 * prompt before anyone is asked: `@~/.ssh/id_ed25519` in a cloned repository's CLAUDE.md would
 * send the key to the model. So an import from a file that is not the user's own loads only when
 * its real path (symlinks followed) lies inside the project, unless the folder is trusted — as
 * Claude Code asks before it loads such an import (reference/compat-surface.md, Imports). And
 * since the prompt is the model's view, a file a Read deny rule covers is never imported.
 */
import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { readRegularText, UnreadableFileError } from '../../lib/regular-file-text';

/**
 * Where imports may lead. `project`: the folders a project's file may import from (the
 * repository root, or the project root outside one); `outside`: whether it may import from
 * anywhere (a trusted folder); `refused` hears one line for each import left out.
 */
export type ImportScope = {
  home: string;
  project: readonly string[];
  outside: boolean;
  refused?: (line: string) => void;
  /** The Read deny rule that keeps `path` from the model, described; undefined when none does. */
  denied?: (path: string) => string | undefined;
};

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

const isInside = (path: string, dir: string) => {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** Whether `file` may import `path` (which exists) under `scope`. */
function mayImport(file: MemoryFile, path: string, scope: ImportScope): boolean {
  if (file.kind === 'user' || scope.outside) return true;
  const real = realOr(path);
  return scope.project.some((dir) => isInside(real, realOr(dir)));
}

/** How many import hops below a top-level memory file are followed. */
export const MAX_IMPORT_DEPTH = 5;

export type MemoryKind = 'user' | 'project' | 'local' | 'nested';

export type MemoryFile = {
  path: string;
  content: string;
  kind: MemoryKind;
  /** Set for a file pulled in by an `@path` import: the file that imported it. */
  importedBy?: string;
};

const FENCE = /^\s*(```|~~~)/;
const INLINE_CODE = /`[^`]*`/g;
const IMPORT = /(?:^|\s)@((?:~\/|\/|\.{1,2}\/|[A-Za-z0-9_])[^\s`]*)/g;
// Sentence punctuation after a path belongs to the prose, not the file name.
const TRAILING = /[.,;:!?)\]}'"]+$/;

/** The import targets written in a memory file, in order, as written (not resolved). */
export function findImports(content: string): string[] {
  const found: string[] = [];
  let fence: string | undefined;
  for (const line of content.split('\n')) {
    const marker = FENCE.exec(line)?.[1];
    if (marker !== undefined) {
      if (fence === undefined) fence = marker;
      else if (marker === fence) fence = undefined;
      continue;
    }
    if (fence !== undefined || !line.includes('@')) continue;
    for (const match of line.replace(INLINE_CODE, ' ').matchAll(IMPORT)) {
      const target = (match[1] ?? '').replace(TRAILING, '');
      if (target !== '') found.push(target);
    }
  }
  return found;
}

/** The absolute path an import refers to. */
export function resolveImport(target: string, importingFile: string, home: string): string {
  if (target.startsWith('~/')) return join(home, target.slice(2));
  if (isAbsolute(target)) return resolve(target);
  return resolve(dirname(importingFile), target);
}

/**
 * The most a memory file may hold: far more than any prompt can use (about 250k tokens), so a
 * planted multi-gigabyte file (or `/proc/kcore`) cannot fill memory on the way there.
 */
export const MAX_MEMORY_FILE_BYTES = 1024 * 1024;

/**
 * The file's text, or undefined when it cannot be read as a file (missing, a folder, no access).
 * A FIFO, a device or a file over MAX_MEMORY_FILE_BYTES is not read either, and `skipped` hears
 * why ("<path> is a FIFO (named pipe), not a regular file").
 */
export async function readIfPresent(
  path: string,
  skipped?: (reason: string) => void,
): Promise<string | undefined> {
  // Most candidates do not exist. existsSync answers that in microseconds; a failed readFile
  // costs a thread-pool round trip and an Error with a stack, ~0.15 ms each on the way to the
  // first request.
  if (!existsSync(path)) return undefined;
  try {
    return await readRegularText(path, MAX_MEMORY_FILE_BYTES);
  } catch (error) {
    // A folder named like a memory file is no one's instruction: passed over quietly, as before.
    if (error instanceof UnreadableFileError && error.kind !== 'a directory') skipped?.(error.message);
    return undefined;
  }
}

/**
 * The file followed by everything it imports, depth first in the order written. `seen` spans the
 * whole load: a file already included (or an import cycle back to an ancestor) is skipped, so
 * each file appears once, at its first mention.
 */
export async function withImports(
  file: MemoryFile,
  scope: ImportScope,
  seen: Set<string>,
  depth = 0,
): Promise<MemoryFile[]> {
  if (depth >= MAX_IMPORT_DEPTH) return [file];
  const targets: { path: string; written: string }[] = [];
  for (const written of findImports(file.content)) {
    const path = resolveImport(written, file.path, scope.home);
    if (seen.has(path)) continue;
    if (existsSync(path) && !mayImport(file, path, scope)) {
      scope.refused?.(
        `${file.path} imports ${written}, which lies outside the project: not loaded, since a project's memory file may import only its own files until the folder is trusted (run "yoke trust")`,
      );
      continue;
    }
    const rule = existsSync(path) ? scope.denied?.(path) : undefined;
    if (rule) {
      scope.refused?.(`${file.path} imports ${written}: not loaded, the deny rule ${rule} covers it`);
      continue;
    }
    targets.push({ path, written });
  }
  for (const { path } of targets) seen.add(path);
  // Siblings are read in parallel; their own imports expand afterwards, in written order.
  const contents = await Promise.all(
    targets.map(({ path, written }) =>
      readIfPresent(path, (reason) =>
        scope.refused?.(`${file.path} imports ${written}: not loaded, ${reason}`),
      ),
    ),
  );
  const out: MemoryFile[] = [file];
  for (let i = 0; i < targets.length; i++) {
    const content = contents[i];
    if (content === undefined) continue;
    const child: MemoryFile = {
      path: targets[i]?.path as string,
      content,
      kind: file.kind,
      importedBy: file.path,
    };
    out.push(...(await withImports(child, scope, seen, depth + 1)));
  }
  return out;
}
