/**
 * The common path of Edit and MultiEdit: check the file is fresh, apply the replacements in
 * memory (all or nothing), write atomically in the file's own encoding, record the new state.
 * Bytes the edits do not touch are written back exactly (see text-format); an edit that would
 * put in a character the encoding cannot hold is refused.
 */
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { writeFileAtomic } from '../../../config/atomic-write';
import type { ToolUseContext } from '../../context';
import { ToolError, type ValidationResult } from '../../tool';
import { applyEdit, EditFailure, type EditSpec } from './apply-edit';
import { looksBinary } from './binary';
import { precheckFileChange } from './change-precheck';
import { makePatch, type PatchHunk } from './diff';
import { loadFreshFile, recordFileState } from './freshness';
import { describeFsError, isNotFound } from './fs-errors';
import { suggestSimilarPaths } from './paths';
import { fromStoredText, NEW_FILE, type StoredText, toStoredText } from './stored-text';

export type EditFileResult = {
  path: string;
  /** null when the edit created the file. */
  originalFile: string | null;
  updatedFile: string;
  structuredPatch: PatchHunk[];
  replacements: number;
};

/** An edit worked out in memory: what would be written, and what the file was. */
type PlannedEdit = {
  original: string | null;
  updated: string;
  bytes: Uint8Array;
  replacements: number;
  partial: { offset: number; limit: number } | undefined;
};

/**
 * Applies `edits` in order; `describeFailure(index, message)` words a failed edit's error
 * (MultiEdit names which edit failed). Nothing is written unless every edit applies.
 */
export async function editFile(
  context: ToolUseContext,
  path: string,
  edits: EditSpec[],
  describeFailure: (index: number, message: string) => string,
): Promise<EditFileResult> {
  const { original, updated, bytes, replacements, partial } = await planEdit(
    context,
    path,
    edits,
    describeFailure,
  );
  try {
    await writeFileAtomic(path, bytes);
  } catch (error) {
    throw new ToolError(`${describeFsError(error, path)} The file was not changed.`);
  }
  await recordFileState(context, path, bytes, partial);
  return {
    path,
    originalFile: original,
    updatedFile: updated,
    structuredPatch: makePatch(path, original ?? '', updated),
    replacements,
  };
}

/**
 * Everything editFile checks, without writing: the freshness rule, the file's kind and every
 * replacement. Edit and MultiEdit run it before the permission question (see change-precheck).
 */
export async function planEdit(
  context: ToolUseContext,
  path: string,
  edits: EditSpec[],
  describeFailure: (index: number, message: string) => string,
): Promise<PlannedEdit> {
  if (isNotebook(path)) throw new ToolError(notebookText(path));
  const existing = await stat(path).catch((error: unknown) => {
    if (isNotFound(error)) return undefined;
    throw new ToolError(describeFsError(error, path));
  });
  let original: string | null = null;
  let stored: Omit<StoredText, 'text'> = NEW_FILE;
  let partial: { offset: number; limit: number } | undefined;
  if (!existing) {
    if (edits[0]?.old_string !== '') throw new ToolError(await missingFileText(path, true));
  } else {
    if (existing.isDirectory()) throw new ToolError(`${path} is a directory, not a file.`);
    // Partial reads are enough: an exact match proves the model knows the text it replaces.
    const fresh = await loadFreshFile(context, path);
    const decoded = fromStoredText(fresh.bytes);
    if (!decoded.format.encoding.startsWith('utf16') && looksBinary(fresh.bytes)) {
      throw new ToolError(`${path} is a binary file; Edit changes text files only.`);
    }
    original = decoded.text;
    stored = decoded;
    partial = fresh.entry.partial;
  }

  let updated = original ?? '';
  let replacements = 0;
  for (const [index, edit] of edits.entries()) {
    try {
      const result = applyEdit(updated, edit, stored.editLineEnding, path);
      updated = result.content;
      replacements += result.replacements;
    } catch (error) {
      if (error instanceof EditFailure) throw new ToolError(describeFailure(index, error.message));
      throw error;
    }
  }

  return { original, updated, bytes: toStoredText(updated, stored, path), replacements, partial };
}

/** Why an edit of a missing file failed; `suggest` names similar files in its folder. */
async function missingFileText(path: string, suggest: boolean): Promise<string> {
  const similar = suggest ? await suggestSimilarPaths(path) : [];
  const hint = similar.length > 0 ? ` Did you mean ${similar.join(', ')}?` : '';
  return `${path} does not exist.${hint} To create a file, use Write, or Edit with an empty old_string.`;
}

const isNotebook = (path: string): boolean => extname(path).toLowerCase() === '.ipynb';
const notebookText = (path: string): string =>
  `${path} is a Jupyter notebook; change its cells with NotebookEdit.`;

/** Edit's and MultiEdit's validateInput: whether the edit would apply, before anyone is asked. */
export async function precheckEdit(
  context: ToolUseContext,
  path: string,
  edits: EditSpec[],
  describeFailure: (index: number, message: string) => string,
): Promise<ValidationResult> {
  if (isNotebook(path)) return { ok: false, message: notebookText(path) };
  return precheckFileChange(context, path, {
    ...(edits[0]?.old_string !== ''
      ? { missing: (listable: boolean) => missingFileText(path, listable) }
      : {}),
    dryRun: () => planEdit(context, path, edits, describeFailure),
  });
}
