/** ast_grep: finds code by its shape (a syntax-tree pattern), not by its text. */
import * as z from '../../../lib/zod';
import { buildTool } from '../../tool';
import { LANGUAGE_IDS } from '../ast/languages';
import { leftOutNotes, structuralSearch } from '../ast/search';
import { pathForModel } from '../glob/search-results';
import prompt from './prompt.md';

export const DEFAULT_MAX_RESULTS = 50;
/** A match's text is shown up to this many characters of its first line. */
const MAX_SHOWN = 160;

const inputSchema = z.lazy(() =>
  z.strictObject({
    pattern: z
      .string()
      .check(
        z.minLength(1),
        z.describe(
          'Code to find, written as code: $NAME matches one node, $$$NAME any sequence, $_ one node without binding; a repeated $NAME must match the same text',
        ),
      ),
    path: z
      .optional(z.string())
      .check(
        z.describe('File or folder to search (default: the working directory; .gitignore is respected)'),
      ),
    language: z
      .optional(z.string())
      .check(z.describe(`Grammar (default: from each file's extension): ${LANGUAGE_IDS.join(', ')}`)),
    max_results: z
      .optional(z.number().check(z.int(), z.minimum(1)))
      .check(z.describe(`Most matches to return (default ${DEFAULT_MAX_RESULTS})`)),
  }),
);
export type AstGrepInput = z.infer<typeof inputSchema>;

export type AstGrepMatch = { file: string; line: number; column: number; text: string };
export type AstGrepOutput = {
  matches: AstGrepMatch[];
  totalMatches: number;
  filesSearched: number;
  notes: string[];
};

function render(output: AstGrepOutput, cwd: string | undefined): string {
  const lines = output.matches.map(
    (m) => `${cwd ? pathForModel(m.file, cwd) : m.file}:${m.line}:${m.column}: ${m.text}`,
  );
  if (lines.length === 0)
    lines.push(`No matches in ${output.filesSearched} file${output.filesSearched === 1 ? '' : 's'}`);
  else if (output.totalMatches > output.matches.length)
    lines.push(
      '',
      `(Showing ${output.matches.length} of ${output.totalMatches} matches: narrow the path or raise max_results.)`,
    );
  if (output.notes.length > 0) lines.push('', ...output.notes);
  return lines.join('\n');
}

function shown(text: string): string {
  const first = text.split('\n', 1)[0] ?? '';
  const cut = first.length > MAX_SHOWN ? `${first.slice(0, MAX_SHOWN)}…` : first;
  return text.includes('\n') ? `${cut} …` : cut;
}

export const astGrepTool = buildTool<AstGrepInput, AstGrepOutput>({
  name: 'ast_grep',
  tier: 'read',
  access: 'file-read',
  inputSchema,
  prompt: () => `${prompt.trim()}\nLanguages: ${LANGUAGE_IDS.join(', ')}.`,
  description: (input) => `ast_grep ${input.pattern}${input.path ? ` in ${input.path}` : ''}`,
  isConcurrencySafe: () => true,
  isReadOnly: () => true,
  interruptBehavior: () => 'cancel',
  // Offered without ripgrep too: a single file needs no listing, and a folder search says why it cannot run.
  toAutoClassifierInput: (input) => (input.path ? `${input.pattern} in ${input.path}` : input.pattern),
  mapResultToContent: (output) => render(output, undefined),
  async call(input, context) {
    const result = await structuralSearch(context, input, { nested: true });
    const max = input.max_results ?? DEFAULT_MAX_RESULTS;
    const matches: AstGrepMatch[] = [];
    let total = 0;
    for (const file of result.files)
      for (const node of file.nodes) {
        total++;
        if (matches.length >= max) continue;
        const { start } = node.range();
        matches.push({
          file: file.path,
          line: start.line + 1,
          column: start.column + 1,
          text: shown(node.text()),
        });
      }
    const data: AstGrepOutput = {
      matches,
      totalMatches: total,
      filesSearched: result.filesSearched,
      notes: leftOutNotes(result),
    };
    return { data, content: render(data, context.cwd) };
  },
});
