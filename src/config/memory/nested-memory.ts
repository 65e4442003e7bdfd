/**
 * Memory files in subfolders of the project load when a tool first touches something in that
 * subfolder, once per session: the tracker remembers every file it has handed out (across turns,
 * and across compactions when the caller re-attaches them) so the same instructions never enter
 * the conversation twice.
 */
import { stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { isWithin } from '../../lib/path-within';
import type { Env, SettingsFileSource } from '../paths';
import {
  folderMemoryPaths,
  homeOf,
  memoryKindSelected,
  projectFolder,
  readMemoryCandidates,
} from './memory-files';
import type { ImportScope, MemoryFile } from './memory-imports';

export type NestedMemoryOptions = {
  projectRoot: string;
  env: Env;
  /** Memory files already in the system prompt: never handed out again. */
  alreadyLoaded?: Iterable<string>;
  /** `--setting-sources`: which kinds of memory file load (undefined: all). */
  sources?: readonly SettingsFileSource[];
  /** The folder is trusted: its memory files may import from outside it (memory-imports.ts). */
  trusted: boolean;
  /** The Read deny rule that covers a path, described (imports of such a file are left out). */
  denied?: (path: string) => string | undefined;
};

export class NestedMemoryTracker {
  private readonly loaded = new Set<string>();
  private readonly root: string;
  private readonly scope: ImportScope;
  private readonly sources: readonly SettingsFileSource[] | undefined;

  constructor(options: NestedMemoryOptions) {
    this.root = resolve(options.projectRoot);
    this.scope = {
      home: homeOf(options.env),
      project: [projectFolder(this.root)],
      outside: options.trusted,
      ...(options.denied ? { denied: options.denied } : {}),
    };
    this.sources = options.sources;
    for (const path of options.alreadyLoaded ?? []) this.loaded.add(resolve(path));
  }

  /** Paths handed out so far (for the transcript, or to seed a resumed session's tracker). */
  get loadedPaths(): readonly string[] {
    return [...this.loaded];
  }

  markLoaded(paths: Iterable<string>): void {
    for (const path of paths) this.loaded.add(resolve(path));
  }

  /**
   * The memory files of the folders strictly below the project root down to the folder of
   * `touchedPath` (the path itself when it is a folder) that were not handed out before, outermost
   * first. The root's own files are the start-up load's business; paths outside the root get none.
   */
  async filesFor(touchedPath: string): Promise<MemoryFile[]> {
    const target = resolve(this.root, touchedPath);
    if (!isWithin(target, this.root) || target === this.root) return [];
    const folder = (await isDirectory(target)) ? target : dirname(target);
    const rel = relative(this.root, folder);
    if (rel === '') return [];
    const folders: string[] = [];
    let dir = this.root;
    for (const part of rel.split(sep)) {
      dir = join(dir, part);
      folders.push(dir);
    }
    const candidates = folders
      .flatMap(folderMemoryPaths)
      .filter((c) => memoryKindSelected(c.kind, this.sources))
      .map((c) => ({ path: c.path, kind: 'nested' as const }));
    // The shared set marks every candidate probed, so a folder without files is not probed again.
    return readMemoryCandidates(candidates, this.scope, this.loaded);
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
