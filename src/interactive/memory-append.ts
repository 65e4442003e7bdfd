/**
 * `#text`: the user adds a line to the project's memory file. The file is AGENTS.md when the
 * project has one, else CLAUDE.md when it has that, else a new AGENTS.md — the same choice /init
 * and /memory make. The write is atomic, and a memory file that is a link to a protected file
 * (a shell start-up file, a hook, settings) is refused: the line would land there instead.
 */
import { existsSync } from 'node:fs';
import { readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../config/atomic-write';
import type { PermissionRule } from '../lib/permission-vocabulary';
import type { ProtectedPaths } from '../permissions/protected-paths';

export type ProjectMemoryFile = { path: string; name: 'AGENTS.md' | 'CLAUDE.md'; exists: boolean };

/** The project memory file `#`, /init and /memory work on. */
export function projectMemoryFile(projectRoot: string): ProjectMemoryFile {
  for (const name of ['AGENTS.md', 'CLAUDE.md'] as const) {
    const path = join(projectRoot, name);
    if (existsSync(path)) return { path, name, exists: true };
  }
  return { path: join(projectRoot, 'AGENTS.md'), name: 'AGENTS.md', exists: false };
}

/**
 * The note as the model reads it with the next prompt (its system prompt carries the memory files
 * as the session began), in the tag Claude Code keeps it in; a resume and the picker read it back.
 */
export const memoryNoteContext = (note: string) => `<user-memory-input>${note}</user-memory-input>`;

export type MemoryAppendResult = { ok: true; path: string; created: boolean } | { ok: false; reason: string };

export type MemoryAppendOptions = {
  projectRoot: string;
  /** The session's protected-file list, and the rules in force (an allowed runner widens it). */
  protection: ProtectedPaths;
  rules?: readonly PermissionRule[];
};

/** The note as a Markdown list item: one line, whatever the user pasted. */
function asLine(text: string): string {
  const line = text.replace(/\s*\n\s*/g, ' ').trim();
  return /^[-*] /.test(line) ? line : `- ${line}`;
}

export async function appendMemory(text: string, options: MemoryAppendOptions): Promise<MemoryAppendResult> {
  const note = text.replace(/^#/, '').trim();
  if (note === '') return { ok: false, reason: 'Nothing to remember: write the note after the #.' };
  const file = projectMemoryFile(options.projectRoot);
  let target = file.path;
  try {
    target = await realpath(file.path);
  } catch {
    // Does not exist yet: it is created under its own name.
  }
  const why = options.protection.why(target, options.rules ?? []);
  if (why) {
    return {
      ok: false,
      reason: `Not written: ${file.path}${target !== file.path ? ` leads to ${target}, which` : ''} is protected (${why}). Edit it yourself if you mean to.`,
    };
  }
  let current = '';
  try {
    current = await readFile(target, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      return { ok: false, reason: `Could not read ${file.path}: ${(error as Error).message}` };
  }
  const separator = current === '' || current.endsWith('\n') ? '' : '\n';
  try {
    await writeFileAtomic(target, Buffer.from(`${current}${separator}${asLine(note)}\n`), { mode: 0o644 });
  } catch (error) {
    return { ok: false, reason: `Could not write ${file.path}: ${(error as Error).message}` };
  }
  return { ok: true, path: file.path, created: !file.exists };
}
