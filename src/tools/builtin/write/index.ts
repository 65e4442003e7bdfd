/** Write: creates a file or replaces one the model has read in full. */
import { stat } from 'node:fs/promises';
import { writeFileAtomic } from '../../../config/atomic-write';
import * as z from '../../../lib/zod';
import type { ToolUseContext } from '../../context';
import { buildTool, ToolError } from '../../tool';
import { precheckFileChange } from '../shared/change-precheck';
import { countChanges, makePatch, type PatchHunk } from '../shared/diff';
import { type FreshFile, loadFreshFile, recordFileState } from '../shared/freshness';
import { describeFsError, isNotFound } from '../shared/fs-errors';
import { displayPath, resolveToolPath } from '../shared/paths';
import { fromStoredText, NEW_FILE, type StoredText, toStoredText } from '../shared/stored-text';
import { withLineEnding } from '../shared/text-format';
import { withWriteDiagnostics } from '../shared/write-diagnostics';
import prompt from './prompt.md';

const inputSchema = z.lazy(() =>
  z.strictObject({
    file_path: z.string().check(z.describe('Absolute path of the file to write')),
    content: z.string().check(z.describe('The complete new content of the file')),
  }),
);
export type WriteInput = z.infer<typeof inputSchema>;

export type WriteOutput = {
  type: 'create' | 'update';
  filePath: string;
  content: string;
  structuredPatch: PatchHunk[];
  originalFile: string | null;
};

/** The file Write would replace, checked fresh and read in full; undefined when Write creates it. */
async function loadReplaced(context: ToolUseContext, path: string): Promise<FreshFile | undefined> {
  const existing = await stat(path).catch((error: unknown) => {
    if (isNotFound(error)) return undefined;
    throw new ToolError(describeFsError(error, path));
  });
  if (!existing) return undefined;
  if (existing.isDirectory()) throw new ToolError(`${path} is a directory; give the path of a file.`);
  return loadFreshFile(context, path, { requireFullRead: true });
}

const plainWriteTool = buildTool<WriteInput, WriteOutput>({
  name: 'Write',
  tier: 'write',
  access: 'file-edit',
  inputSchema,
  prompt,
  description: (input) => `Write ${displayPath(input.file_path)}`,
  toAutoClassifierInput: (input) => `${input.file_path}: ${input.content}`,
  mapResultToContent: (output) => {
    if (output.type === 'create') return `Created ${output.filePath}.`;
    const { added, removed } = countChanges(output.structuredPatch);
    return `Updated ${output.filePath} (+${added} -${removed} lines).`;
  },
  validateInput(input, context) {
    const path = resolveToolPath(input.file_path, context.cwd);
    return precheckFileChange(context, path, { dryRun: () => loadReplaced(context, path) });
  },
  async call(input, context) {
    const path = resolveToolPath(input.file_path, context.cwd);
    const fresh = await loadReplaced(context, path);
    const existing = fresh !== undefined;

    let originalFile: string | null = null;
    let stored: Omit<StoredText, 'text'> = NEW_FILE;
    if (fresh) {
      const decoded = fromStoredText(fresh.bytes);
      originalFile = decoded.text;
      stored = decoded;
    }
    // Replacing a file keeps its form: the model writes `\n` and a Windows file stays CRLF, a BOM,
    // UTF-16 or Latin-1 survives. Converting a file is a deliberate step (iconv, dos2unix), not a
    // side effect: content the encoding cannot hold is refused with that advice.
    const text = withLineEnding(input.content, stored.editLineEnding);
    const bytes = toStoredText(text, stored, path);
    try {
      await writeFileAtomic(path, bytes);
    } catch (error) {
      throw new ToolError(`${describeFsError(error, path)} Nothing was written.`);
    }
    await recordFileState(context, path, bytes);
    return {
      data: {
        type: existing ? 'update' : 'create',
        filePath: path,
        content: input.content,
        structuredPatch: existing ? makePatch(path, originalFile ?? '', text) : [],
        originalFile,
      },
    };
  },
});

/** The tool as sessions get it: new diagnostics its write caused come with its result. */
export const writeTool = withWriteDiagnostics(plainWriteTool, (input, context) => [
  resolveToolPath(input.file_path, context.cwd),
]);
