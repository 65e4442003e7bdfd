/**
 * The diff a permission question shows for an edit: the file as it is against the file as the call
 * would leave it, with context lines around each change — not just the strings the call names. A
 * file that cannot be read (new, too big, gone) falls back to the diff of the call's own strings.
 */
import { readFileSync, statSync } from 'node:fs';
import { makePatch, type PatchHunk } from '../../tools/builtin/shared/diff';
import { toolHunks } from './tool-summary';

/** Larger files are not read for a preview. */
const MAX_PREVIEW_BYTES = 2 * 1024 * 1024;

type Replacement = { old: string; next: string; all: boolean };

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function replacementsOf(toolName: string, input: Record<string, unknown>): Replacement[] | undefined {
  if (toolName === 'Edit') {
    const old = str(input.old_string);
    const next = str(input.new_string);
    return old === undefined || next === undefined
      ? undefined
      : [{ old, next, all: input.replace_all === true }];
  }
  if (toolName === 'MultiEdit' && Array.isArray(input.edits)) {
    const edits: Replacement[] = [];
    for (const edit of input.edits as Record<string, unknown>[]) {
      const old = str(edit?.old_string);
      const next = str(edit?.new_string);
      if (old === undefined || next === undefined) return undefined;
      edits.push({ old, next, all: edit.replace_all === true });
    }
    return edits;
  }
  return undefined;
}

/** Literal replacement (no `$&` patterns): the first occurrence, or every one. */
function replaceLiteral(text: string, { old, next, all }: Replacement): string | undefined {
  if (old === '' || !text.includes(old)) return undefined;
  if (all) return text.split(old).join(next);
  const at = text.indexOf(old);
  return text.slice(0, at) + next + text.slice(at + old.length);
}

function readSmallFile(path: string): string | undefined {
  try {
    if (statSync(path).size > MAX_PREVIEW_BYTES) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

export function proposedHunks(toolName: string, input: Record<string, unknown>): PatchHunk[] | undefined {
  const fallback = () => toolHunks({ name: toolName, input, outcome: { status: 'waiting' } });
  const path = str(input.file_path);
  if (!path) return fallback();
  if (toolName === 'Write') {
    const content = str(input.content);
    const before = readSmallFile(path);
    return content === undefined || before === undefined ? fallback() : makePatch(path, before, content);
  }
  const edits = replacementsOf(toolName, input);
  const before = edits ? readSmallFile(path) : undefined;
  if (!edits || before === undefined) return fallback();
  let after = before;
  for (const edit of edits) {
    const next = replaceLiteral(after, edit);
    // The call will fail as it stands (its text is not in the file): show what it names.
    if (next === undefined) return fallback();
    after = next;
  }
  return makePatch(path, before, after);
}
