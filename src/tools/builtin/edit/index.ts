/** Edit: replaces an exact string in a file the model has read. */
import * as z from '../../../lib/zod';
import { buildTool } from '../../tool';
import { formatPatchSnippet, type PatchHunk } from '../shared/diff';
import { editFile, precheckEdit } from '../shared/edit-file';
import { displayPath, resolveToolPath } from '../shared/paths';
import { withWriteDiagnostics } from '../shared/write-diagnostics';
import prompt from './prompt.md';

const inputSchema = z.lazy(() =>
  z.strictObject({
    file_path: z.string().check(z.describe('Absolute path of the file to change')),
    old_string: z.string().check(z.describe('The exact text to replace')),
    new_string: z.string().check(z.describe('The text to put in its place (must differ from old_string)')),
    replace_all: z
      .optional(z.boolean())
      .check(z.describe('Replace every occurrence instead of exactly one (default false)')),
  }),
);
export type EditInput = z.infer<typeof inputSchema>;

export type EditOutput = {
  filePath: string;
  oldString: string;
  newString: string;
  originalFile: string | null;
  structuredPatch: PatchHunk[];
  userModified: boolean;
  replaceAll: boolean;
};

const plainEditTool = buildTool<EditInput, EditOutput>({
  name: 'Edit',
  tier: 'write',
  access: 'file-edit',
  inputSchema,
  prompt,
  description: (input) => `Edit ${displayPath(input.file_path)}`,
  toAutoClassifierInput: (input) => `${input.file_path}: ${input.new_string}`,
  mapResultToContent: (output) =>
    output.originalFile === null
      ? `Created ${output.filePath}.`
      : `Edited ${output.filePath}.\n${formatPatchSnippet(output.structuredPatch)}`,
  validateInput(input, context) {
    const path = resolveToolPath(input.file_path, context.cwd);
    return precheckEdit(context, path, [input], (_index, message) => message);
  },
  async call(input, context) {
    const path = resolveToolPath(input.file_path, context.cwd);
    const result = await editFile(context, path, [input], (_index, message) => message);
    const replaceAll = input.replace_all ?? false;
    const data: EditOutput = {
      filePath: path,
      oldString: input.old_string,
      newString: input.new_string,
      originalFile: result.originalFile,
      structuredPatch: result.structuredPatch,
      userModified: false,
      replaceAll,
    };
    if (result.originalFile === null) return { data };
    const count = replaceAll ? ` (${result.replacements} replacements)` : '';
    return { data, content: `Edited ${path}${count}.\n${formatPatchSnippet(result.structuredPatch)}` };
  },
});

/** The tool as sessions get it: new diagnostics its write caused come with its result. */
export const editTool = withWriteDiagnostics(plainEditTool, (input, context) => [
  resolveToolPath(input.file_path, context.cwd),
]);
