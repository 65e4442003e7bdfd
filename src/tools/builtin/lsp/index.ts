/** lsp: questions to the project's language servers (seed 002), read tier and safe to run in parallel. */
import * as z from '../../../lib/zod';
import { SERVER_SPECS } from '../../../services/lsp/servers';
import type { ToolUseContext } from '../../context';
import { buildTool, ToolError } from '../../tool';
import { displayPath, resolveToolPath } from '../shared/paths';
import { codeActions, diagnosticsOf, documentSymbols, hover, navigate, workspaceSymbols } from './actions';
import { fileRules } from './file-rules';
import { projectDiagnostics, sourceFiles } from './project-check';
import prompt from './prompt.md';
import { lspStatus } from './status';

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

const inputSchema = z.strictObject({
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
});
export type LspInput = z.infer<typeof inputSchema>;

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
    const path = fileOf(input, context);
    const at = {
      line: input.line ?? 0,
      symbol: input.symbol ?? '',
      ...(input.occurrence ? { occurrence: input.occurrence } : {}),
    };
    switch (input.action) {
      case 'status':
        return { data: await lspStatus(context) };
      case 'reload': {
        const reloaded = await context.services.lsp.reload(path);
        return {
          data:
            reloaded.length > 0
              ? `Restarted (each starts again on its next use):\n${reloaded.join('\n')}`
              : 'No server was running for that; one starts on the next call that needs it.',
        };
      }
      case 'diagnostics':
        return { data: path ? await diagnosticsOf(context, path) : await projectDiagnostics(context) };
      case 'symbols':
        if (input.query !== undefined) {
          const anchor = path ?? (await anchorFile(context));
          return { data: await workspaceSymbols(context, anchor, input.query) };
        }
        return { data: await documentSymbols(context, path as string) };
      case 'hover':
        return { data: await hover(context, path as string, at) };
      case 'code_actions':
        return { data: await codeActions(context, path as string, at) };
      default:
        return { data: await navigate(context, input.action, path as string, at) };
    }
  },
});

/** A workspace search needs a server: the one for the first source file under the working directory. */
async function anchorFile(context: ToolUseContext): Promise<string> {
  for (const spec of SERVER_SPECS) {
    const [first] = await sourceFiles(spec, context.cwd);
    if (!first) continue;
    const resolution = await context.services.lsp.resolve(first);
    if (resolution?.kind === 'ready') return first;
  }
  throw new ToolError(
    `No language server can search ${context.cwd}: give file (a source file of the project) with query, or see action status.`,
  );
}
