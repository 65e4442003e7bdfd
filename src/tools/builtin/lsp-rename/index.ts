/**
 * lsp_rename: a project-wide rename by the language server (seed 002). Its own tool, of the write
 * tier, so read-only agents never see it and `lsp` stays a plain read. The server's edit is
 * computed on the files as they are on disk, each file is judged as an Edit of it would be, and
 * the files are written all or none (rename.ts).
 */
import * as z from '../../../lib/zod';
import { buildTool } from '../../tool';
import { displayPath } from '../shared/paths';
import prompt from './prompt.md';

const inputSchema = z.lazy(() =>
  z.strictObject({
    file: z.string().check(z.describe('The file where the symbol appears (absolute or project-relative)')),
    line: z.number().check(z.int(), z.positive(), z.describe('1-based line of the symbol')),
    symbol: z.string().check(z.minLength(1), z.describe('Text on that line that names the symbol')),
    new_name: z
      .string()
      .check(
        z.minLength(1),
        z.regex(/^[^\s]+$/, 'new_name must be one identifier, without spaces'),
        z.describe('The new name'),
      ),
    occurrence: z
      .optional(z.number().check(z.int(), z.positive()))
      .check(z.describe('Which occurrence of symbol on the line, 1-based (default 1)')),
  }),
);
export type LspRenameInput = z.infer<typeof inputSchema>;

export type LspRenameOutput = {
  symbol: string;
  newName: string;
  files: Array<{ path: string; edits: number }>;
};

export function describeRename(output: LspRenameOutput): string {
  const count = output.files.length;
  const files = output.files.map((f) => `${f.path} (${f.edits} change${f.edits === 1 ? '' : 's'})`);
  return `Renamed ${output.symbol} to ${output.newName} in ${count} file${count === 1 ? '' : 's'}:\n${files.join('\n')}`;
}

export const lspRenameTool = buildTool<LspRenameInput, LspRenameOutput>({
  name: 'lsp_rename',
  tier: 'write',
  inputSchema,
  prompt,
  description: (input) =>
    `Rename ${input.symbol} to ${input.new_name} (${displayPath(input.file)}:${input.line})`,
  toAutoClassifierInput: (input) =>
    `rename ${input.symbol} in ${input.file}:${input.line} to ${input.new_name}`,
  interruptBehavior: () => 'block',
  async checkPermissions(input, context) {
    const { renamePermission } = await import('./rename');
    return renamePermission(input, context);
  },
  mapResultToContent: (output) => describeRename(output),
  async call(input, context) {
    // The rename itself, and what it needs, loads on the first use.
    const { renameSymbol } = await import('./rename');
    return renameSymbol(input, context);
  },
});
