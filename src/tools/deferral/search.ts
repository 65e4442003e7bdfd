/**
 * ToolSearch's query language over the deferred tools, all local (no model call, no index):
 * `select:A,B` picks tools by exact name; any other query is keywords, ranked by where they hit.
 * A tool's name says most about it (an MCP name carries its server and its action), so name hits
 * outweigh description hits, and an MCP name hit outweighs a built-in's. `+term` must hit the name.
 */
import type { AnyTool } from '../tool';

export const DEFAULT_MAX_RESULTS = 5;

export type SearchOutcome = {
  /** The tools found, best first. */
  matches: AnyTool[];
  /** `select:` names that are no deferred tool: already loaded up front, or unknown. */
  notFound: string[];
};

/** Weights of one query term's best hit on one tool. */
const WEIGHT = {
  mcpNameWord: 12,
  nameWord: 10,
  mcpNamePart: 6,
  namePart: 5,
  descriptionWord: 2,
  descriptionPart: 1,
} as const;

/** `mcp__github__createIssue` → github, create, issue; `NotebookEdit` → notebook, edit. */
export function nameWords(name: string): string[] {
  const parts = name.startsWith('mcp__') ? name.slice('mcp__'.length).split('__') : [name];
  return parts
    .flatMap((part) => part.split(/[_\-.\s]+/))
    .flatMap((part) => part.split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/))
    .map((word) => word.toLowerCase())
    .filter((word) => word.length > 0);
}

type Indexed = { tool: AnyTool; words: string[]; description: string; descriptionWords: Set<string> };

function index(tool: AnyTool): Indexed {
  const description = tool.prompt().toLowerCase();
  return {
    tool,
    words: nameWords(tool.name),
    description,
    descriptionWords: new Set(description.split(/[^a-z0-9]+/).filter(Boolean)),
  };
}

function nameScore(entry: Indexed, term: string): number {
  const mcp = entry.tool.isMcp;
  if (entry.words.includes(term)) return mcp ? WEIGHT.mcpNameWord : WEIGHT.nameWord;
  if (entry.words.some((word) => word.includes(term) || (word.length >= 3 && term.includes(word)))) {
    return mcp ? WEIGHT.mcpNamePart : WEIGHT.namePart;
  }
  return 0;
}

function descriptionScore(entry: Indexed, term: string): number {
  if (entry.descriptionWords.has(term)) return WEIGHT.descriptionWord;
  return term.length >= 3 && entry.description.includes(term) ? WEIGHT.descriptionPart : 0;
}

/** Keyword search: every `+term` must hit the name; the score adds each term's name and description hits. */
export function keywordSearch(tools: readonly AnyTool[], query: string, maxResults: number): AnyTool[] {
  const raw = query.toLowerCase().split(/\s+/).filter(Boolean);
  const required = raw
    .filter((term) => term.startsWith('+'))
    .map((term) => term.slice(1))
    .filter(Boolean);
  const terms = [...new Set([...required, ...raw.filter((term) => !term.startsWith('+'))])];
  // A query that names a tool exactly finds that tool first.
  const exact = tools.find((tool) => tool.name.toLowerCase() === query.trim().toLowerCase());
  const scored: Array<{ tool: AnyTool; score: number }> = [];
  for (const tool of tools) {
    const entry = index(tool);
    if (required.some((term) => nameScore(entry, term) === 0)) continue;
    let score = 0;
    for (const term of terms) score += nameScore(entry, term) + descriptionScore(entry, term);
    if (tool === exact) score += 1000;
    if (score > 0) scored.push({ tool, score });
  }
  scored.sort((a, b) => b.score - a.score || (a.tool.name < b.tool.name ? -1 : 1));
  return scored.slice(0, maxResults).map(({ tool }) => tool);
}

/** `select:A,B`: the named deferred tools in the order given (a name's case may differ). */
export function selectTools(tools: readonly AnyTool[], names: string): SearchOutcome {
  const matches: AnyTool[] = [];
  const notFound: string[] = [];
  for (const name of names
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const tool =
      tools.find((candidate) => candidate.name === name) ??
      tools.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());
    if (!tool) notFound.push(name);
    else if (!matches.includes(tool)) matches.push(tool);
  }
  return { matches, notFound };
}

const SELECT_PREFIX = 'select:';

/** Runs a ToolSearch query over the deferred tools. */
export function searchDeferredTools(
  tools: readonly AnyTool[],
  query: string,
  maxResults: number,
): SearchOutcome {
  const trimmed = query.trim();
  if (trimmed.toLowerCase().startsWith(SELECT_PREFIX)) {
    return selectTools(tools, trimmed.slice(SELECT_PREFIX.length));
  }
  return { matches: keywordSearch(tools, trimmed, maxResults), notFound: [] };
}
