/** MultiEdit: several exact-string replacements in one file, applied in order, all or nothing. */
import * as z from '../../../lib/zod';
import { buildTool } from '../../tool';
import type { EditSpec } from '../shared/apply-edit';
import { formatPatchSnippet, type PatchHunk } from '../shared/diff';
import { editFile, precheckEdit } from '../shared/edit-file';
import { displayPath, resolveToolPath } from '../shared/paths';
import { withWriteDiagnostics } from '../shared/write-diagnostics';
import prompt from './prompt.md';

const editSchema = z.lazy(() =>
  z.strictObject({
    old_string: z.string().check(z.describe('The exact text to replace')),
    new_string: z.string().check(z.describe('The text to put in its place')),
    replace_all: z.optional(z.boolean()).check(z.describe('Replace every occurrence (default false)')),
  }),
);

const inputSchema = z.lazy(() =>
  z.strictObject({
    file_path: z.string().check(z.describe('Absolute path of the file to change')),
    edits: z
      .array(editSchema)
      .check(z.minLength(1), z.describe('Replacements, applied in order to the result of the previous one')),
  }),
);
export type MultiEditInput = z.infer<typeof inputSchema>;

export type MultiEditOutput = {
  filePath: string;
  edits: EditSpec[];
  originalFile: string | null;
  structuredPatch: PatchHunk[];
  userModified: boolean;
};

/** Which of the edits failed, and that none was written. */
const describeFailure =
  (total: number) =>
  (index: number, message: string): string =>
    `Edit ${index + 1} of ${total} failed: ${message} No changes were written.`;

const plainMultiEditTool = buildTool<MultiEditInput, MultiEditOutput>({
  name: 'MultiEdit',
  tier: 'write',
  access: 'file-edit',
  inputSchema,
  prompt,
  description: (input) => `Edit ${displayPath(input.file_path)} (${input.edits.length} changes)`,
  toAutoClassifierInput: (input) =>
    `${input.file_path}: ${input.edits.map((edit) => edit.new_string).join('\n')}`,
  mapResultToContent: (output) =>
    `${output.originalFile === null ? 'Created' : 'Edited'} ${output.filePath} (${output.edits.length} edits).\n` +
    formatPatchSnippet(output.structuredPatch),
  validateInput(input, context) {
    const path = resolveToolPath(input.file_path, context.cwd);
    return precheckEdit(context, path, input.edits, describeFailure(input.edits.length));
  },
  async call(input, context) {
    const path = resolveToolPath(input.file_path, context.cwd);
    const result = await editFile(context, path, input.edits, describeFailure(input.edits.length));
    return {
      data: {
        filePath: path,
        edits: input.edits,
        originalFile: result.originalFile,
        structuredPatch: result.structuredPatch,
        userModified: false,
      },
    };
  },
});

/** The tool as sessions get it: new diagnostics its write caused come with its result. */
export const multiEditTool = withWriteDiagnostics(plainMultiEditTool, (input, context) => [
  resolveToolPath(input.file_path, context.cwd),
]);
