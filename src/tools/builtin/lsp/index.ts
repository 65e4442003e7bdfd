/** lsp: questions to the project's language servers (seed 002), read tier and safe to run in parallel. */
import * as z from '../../../lib/zod';
import type { ToolUseContext } from '../../context';
import { buildTool } from '../../tool';
import { displayPath, resolveToolPath } from '../shared/paths';
import { fileRules } from './file-rules';
import prompt from './prompt.md';

const ACTIONS = [
  'diagnostics',
  'definition',
  'type_definition',
  'implementation',
  'references',
  'hover',
  'symbols',
  'code_actions',
  'status',
  'reload',
] as const;
type Action = (typeof ACTIONS)[number];

/** The actions that point at one symbol, and so need `file`, `line` and `symbol`. */
const AT_SYMBOL: ReadonlySet<Action> = new Set([
  'definition',
  'type_definition',
  'implementation',
  'references',
  'hover',
  'code_actions',
]);

const inputSchema = z.lazy(() =>
  z.strictObject({
    action: z.enum(ACTIONS).check(z.describe('What to ask')),
    file: z
      .optional(z.string())
      .check(z.describe('The file (absolute or project-relative); "*" with diagnostics checks the project')),
    line: z.optional(z.number().check(z.int(), z.positive())).check(z.describe('1-based line of the symbol')),
    symbol: z
      .optional(z.string().check(z.minLength(1)))
      .check(z.describe('Text on that line that names the symbol')),
    occurrence: z
      .optional(z.number().check(z.int(), z.positive()))
      .check(z.describe('Which occurrence of symbol on the line, 1-based (default 1)')),
    query: z.optional(z.string()).check(z.describe('With symbols: a name to search the workspace for')),
  }),
);
export type LspInput = z.infer<typeof inputSchema>;
export type LspAction = Action;

function problem(input: LspInput): string | undefined {
  const { action } = input;
  if (AT_SYMBOL.has(action)) {
    const missing = (['file', 'line', 'symbol'] as const).filter((key) => input[key] === undefined);
    if (missing.length > 0)
      return `${action} needs file, line and symbol (missing: ${missing.join(', ')}): name the symbol by a piece of text on its line, never by a column.`;
    if (input.file === '*') return `${action} needs one file, not "*".`;
  }
  if (action === 'diagnostics' && input.file === undefined)
    return 'diagnostics needs file (a path, or "*" for the whole project).';
  if (action === 'symbols' && input.file === undefined && input.query === undefined)
    return 'symbols needs query (search the workspace) or file (the outline of one file).';
  if (input.occurrence !== undefined && input.symbol === undefined) return 'occurrence needs symbol.';
  return undefined;
}

/** The file the call reads (undefined for `*` and the actions without one). */
function fileOf(input: LspInput, context: ToolUseContext): string | undefined {
  if (input.file === undefined || input.file === '*') return undefined;
  return resolveToolPath(input.file, context.cwd);
}

export const lspTool = buildTool<LspInput, string>({
  name: 'lsp',
  tier: 'read',
  inputSchema,
  prompt,
  description: (input) =>
    `lsp ${input.action}${input.file ? ` ${displayPath(input.file)}` : ''}${input.line ? `:${input.line}` : ''}${input.symbol ? ` ${input.symbol}` : ''}`,
  isConcurrencySafe: () => true,
  isReadOnly: () => true,
  interruptBehavior: () => 'cancel',
  async validateInput(input) {
    const message = problem(input);
    return message ? { ok: false, message } : { ok: true };
  },
  // The file is read like Read reads it: a deny rule refuses, a file outside the working
  // directories asks. Files the server answers with are shown subject to Read deny rules (format.ts).
  async checkPermissions(input, context) {
    const path = fileOf(input, context);
    if (!path) return { behavior: 'passthrough' };
    const verdict = fileRules(context).judge('Read', path);
    if (verdict.denied) return { behavior: 'deny', message: verdict.denied.message };
    if (verdict.askRule || verdict.reasons.length > 0)
      return { behavior: 'ask', message: verdict.reasons[0] ?? `a rule asks before reading ${path}` };
    return { behavior: 'passthrough' };
  },
  async call(input, context) {
    // The actions and what they need load on the first call, not with every session.
    const { runLsp } = await import('./run');
    return { data: await runLsp(input, fileOf(input, context), context) };
  },
});
