/**
 * ast_edit: a structural rewrite, staged rather than written. The model (and the user) see the
 * replacements and a diff; nothing changes until resolve accepts the returned edit_id.
 */
import * as z from '../../../lib/zod';
import { buildTool, ToolError } from '../../tool';
import { judgeAsEdits } from '../ast/edit-permission';
import { LANGUAGE_IDS } from '../ast/languages';
import { fillRewrite } from '../ast/rewrite';
import { leftOutNotes, structuralSearch } from '../ast/search';
import type { StagedFile } from '../ast/staged-edits';
import { pathForModel } from '../glob/search-results';
import { formatPatchSnippet, makePatch } from '../shared/diff';
import { resolveToolPath } from '../shared/paths';
import prompt from './prompt.md';

/** Diff lines shown per file, and files shown, in the preview. */
const PREVIEW_LINES = 20;
const PREVIEW_FILES = 10;

const inputSchema = z.lazy(() =>
  z.strictObject({
    pattern: z
      .string()
      .check(z.minLength(1), z.describe('Code to find, as for ast_grep ($NAME, $$$NAME, $_)')),
    rewrite: z
      .string()
      .check(z.describe('Replacement code; $NAME and $$$NAME insert what the pattern captured')),
    path: z
      .optional(z.string())
      .check(
        z.describe('File or folder to rewrite in (default: the working directory; .gitignore is respected)'),
      ),
    language: z
      .optional(z.string())
      .check(z.describe(`Grammar (default: from each file's extension): ${LANGUAGE_IDS.join(', ')}`)),
  }),
);
export type AstEditInput = z.infer<typeof inputSchema>;

export type AstEditOutput = {
  editId: string | null;
  replacements: number;
  files: { path: string; replacements: number }[];
  preview: string;
};

export const astEditTool = buildTool<AstEditInput, AstEditOutput>({
  name: 'ast_edit',
  tier: 'write',
  // It reads (Read rules judge its path, and skip the files they cover); checkPermissions below
  // judges it as an Edit of that path too. resolve judges each file again before writing.
  access: 'file-read',
  inputSchema,
  prompt: () => `${prompt.trim()}\nLanguages: ${LANGUAGE_IDS.join(', ')}.`,
  description: (input) =>
    `ast_edit ${input.pattern} → ${input.rewrite}${input.path ? ` in ${input.path}` : ''}`,
  isConcurrencySafe: () => true,
  isReadOnly: () => true,
  interruptBehavior: () => 'cancel',
  // Offered without ripgrep too: a single file needs no listing, and a folder search says why it cannot run.
  toAutoClassifierInput: (input) =>
    `${input.pattern} -> ${input.rewrite}${input.path ? ` in ${input.path}` : ''}`,
  mapResultToContent: (output) => output.preview,
  async checkPermissions(input, context) {
    return judgeAsEdits([resolveToolPath(input.path ?? context.cwd, context.cwd)], 'This rewrite', context);
  },
  async call(input, context) {
    const result = await structuralSearch(context, input, { nested: false });
    const staged: StagedFile[] = [];
    for (const file of result.files) {
      const edits = file.nodes.map((node) => node.replace(fillRewrite(input.rewrite, node, file.source)));
      const root = file.nodes[0]?.getRoot();
      if (!root) continue;
      const after = root.root().commitEdits(edits);
      if (after !== file.source)
        staged.push({ path: file.path, before: file.bytes, after, replacements: file.nodes.length });
    }
    const notes = leftOutNotes(result);
    const replacements = staged.reduce((sum, f) => sum + f.replacements, 0);
    if (staged.length === 0) {
      const none = `(proposed) 0 replacements: no match of the pattern in ${result.filesSearched} file${result.filesSearched === 1 ? '' : 's'} changes anything.`;
      const data: AstEditOutput = {
        editId: null,
        replacements: 0,
        files: [],
        preview: [none, ...notes].join('\n'),
      };
      return { data, content: data.preview };
    }
    if (context.abortSignal.aborted) throw new ToolError('Interrupted; nothing was staged.');
    const edit = context.services.stagedEdits.stage({
      pattern: input.pattern,
      rewrite: input.rewrite,
      files: staged,
    });
    const lines = [
      `(proposed) ${replacements} replacement${replacements === 1 ? '' : 's'} in ${staged.length} file${staged.length === 1 ? '' : 's'} — edit_id: ${edit.id}`,
      'Nothing is written yet: call resolve with this edit_id and action "accept" or "discard".',
    ];
    for (const file of staged.slice(0, PREVIEW_FILES)) {
      const label = pathForModel(file.path, context.cwd);
      lines.push('', `--- ${label} (${file.replacements})`);
      lines.push(
        formatPatchSnippet(makePatch(label, file.before.toString('utf8'), file.after), PREVIEW_LINES),
      );
    }
    if (staged.length > PREVIEW_FILES)
      lines.push('', `(${staged.length - PREVIEW_FILES} more files not previewed.)`);
    if (notes.length > 0) lines.push('', ...notes);
    const data: AstEditOutput = {
      editId: edit.id,
      replacements,
      files: staged.map((f) => ({ path: f.path, replacements: f.replacements })),
      preview: lines.join('\n'),
    };
    return { data, content: data.preview };
  },
});
