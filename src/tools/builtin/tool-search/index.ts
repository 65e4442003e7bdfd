/**
 * ToolSearch: loads deferred tools' schemas (tools/deferral). Its result names each loaded tool
 * in a `tool_reference` block; the Anthropic API puts the schema there, and the next request
 * carries the loaded tools (model/openai: as ordinary tools, since that wire has no references).
 */
import * as z from '../../../lib/zod';
import type { ToolResultContent } from '../../../model/types';
import { TOOL_SEARCH_TOOL_NAME } from '../../deferral/plan';
import { DEFAULT_MAX_RESULTS, searchDeferredTools } from '../../deferral/search';
import { findToolByName } from '../../registry';
import { buildTool } from '../../tool';
import prompt from './prompt.md';

const inputSchema = z.lazy(() =>
  z.strictObject({
    query: z
      .string()
      .check(
        z.minLength(1),
        z.describe('"select:Name1,Name2" for exact tools, or keywords ("+word" must be in the name)'),
      ),
    max_results: z
      .optional(z.number().check(z.int(), z.positive(), z.maximum(50)))
      .check(z.describe(`How many keyword matches to load (default ${DEFAULT_MAX_RESULTS})`)),
  }),
);
export type ToolSearchInput = z.infer<typeof inputSchema>;

export type ToolSearchOutput = {
  matches: string[];
  query: string;
  total_deferred_tools: number;
  /** `select:` names of tools that are loaded up front already: call them directly. */
  already_loaded?: string[];
  /** `select:` names of no tool at all. */
  not_found?: string[];
};

function renderForModel(output: ToolSearchOutput): ToolResultContent {
  const notes: string[] = [];
  if (output.already_loaded?.length) {
    notes.push(`Already loaded, call directly: ${output.already_loaded.join(', ')}.`);
  }
  if (output.not_found?.length) notes.push(`No tool is named ${output.not_found.join(', ')}.`);
  const note = notes.join(' ');
  if (output.matches.length === 0) {
    if (output.total_deferred_tools === 0) {
      return 'No tool is deferred in this session: every tool you can call is already loaded.';
    }
    const hint = `There are ${output.total_deferred_tools} deferred tools; try other words, or select:<name> with names from the list.`;
    if (!note) return `No deferred tool matches ${JSON.stringify(output.query)}. ${hint}`;
    return output.not_found?.length ? `${note} ${hint}` : note;
  }
  const references: Exclude<ToolResultContent, string> = output.matches.map((name) => ({
    type: 'tool_reference',
    tool_name: name,
  }));
  return note ? [...references, { type: 'text', text: note }] : references;
}

export const toolSearchTool = buildTool<ToolSearchInput, ToolSearchOutput>({
  name: TOOL_SEARCH_TOOL_NAME,
  tier: 'read',
  inputSchema,
  prompt,
  description: (input) => `Search tools: ${input.query}`,
  isConcurrencySafe: () => true,
  isReadOnly: () => true,
  mapResultToContent: renderForModel,
  async call(input, context) {
    const deferred = context.services.deferredTools.planFor(context.tools)?.deferred ?? [];
    const found = searchDeferredTools(deferred, input.query, input.max_results ?? DEFAULT_MAX_RESULTS);
    const output: ToolSearchOutput = {
      matches: found.matches.map((tool) => tool.name),
      query: input.query,
      total_deferred_tools: deferred.length,
    };
    const inPool = (name: string) => findToolByName(context.tools, name) !== undefined;
    const alreadyLoaded = found.notFound.filter(inPool);
    const unknown = found.notFound.filter((name) => !inPool(name));
    if (alreadyLoaded.length > 0) output.already_loaded = alreadyLoaded;
    if (unknown.length > 0) output.not_found = unknown;
    return { data: output };
  },
});
