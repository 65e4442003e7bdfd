/**
 * One structural search: which grammar each file is parsed with, the pattern compiled once per
 * grammar (an unparseable pattern is an error, see pattern.ts), and the matches in each file.
 * Shared by ast_grep (which reports them) and ast_edit (which rewrites them).
 */

import { readFile, stat } from 'node:fs/promises';
import type { SgNode } from '@ast-grep/napi';
import type { ToolUseContext } from '../../context';
import { ToolError } from '../../tool';
import { skippedNote } from '../shared/deny-exclusions';
import { type FileSelection, selectFiles } from './files';
import { type AstEngine, astEngine, canonicalLanguage, LANGUAGE_IDS, type Language } from './languages';
import { type CompiledPattern, compilePattern } from './pattern';

/** Larger files are generated or data, not code a pattern is meant for; they are counted, not parsed. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;

export type FileMatches = {
  path: string;
  source: string;
  bytes: Buffer;
  language: Language;
  nodes: SgNode[];
};

export type SearchResult = {
  files: FileMatches[];
  selection: FileSelection;
  filesSearched: number;
  tooLarge: number;
  /** Grammars present in the folder whose grammar cannot parse the pattern, with their file count. */
  unparsedLanguages: { language: string; files: number }[];
};

function pickLanguage(engine: AstEngine, name: string): Language {
  const language =
    engine.languages.get(canonicalLanguage(name)) ??
    [...engine.languages.values()].find((l) => l.id.toLowerCase() === canonicalLanguage(name));
  if (language) return language;
  const missing = engine.missing.find((m) => m.startsWith(`${canonicalLanguage(name)} `));
  if (missing) throw new ToolError(`The ${canonicalLanguage(name)} grammar is not available: ${missing}.`);
  throw new ToolError(`Unknown language "${name}". Languages: ${LANGUAGE_IDS.join(', ')}.`);
}

/** Keeps the outermost of nested or overlapping matches, in source order. */
function outermost(nodes: SgNode[]): SgNode[] {
  const sorted = [...nodes].sort(
    (a, b) => a.range().start.index - b.range().start.index || b.range().end.index - a.range().end.index,
  );
  const kept: SgNode[] = [];
  let end = -1;
  for (const node of sorted) {
    const range = node.range();
    if (range.start.index < end) continue;
    kept.push(node);
    end = range.end.index;
  }
  return kept;
}

export async function structuralSearch(
  context: ToolUseContext,
  input: { pattern: string; path?: string; language?: string },
  options: { nested: boolean },
): Promise<SearchResult> {
  const engine = await astEngine();
  const forced = input.language ? pickLanguage(engine, input.language) : undefined;
  const selection = await selectFiles(context, input.path);
  const single = selection.files.length === 1 && input.path !== undefined;
  const byFile: { path: string; language: Language }[] = [];
  for (const path of selection.files) {
    const language = forced && single ? forced : engine.byExtension(path);
    if (!language || (forced && language.id !== forced.id)) continue;
    byFile.push({ path, language });
  }
  if (single && byFile.length === 0)
    throw new ToolError(
      `No grammar for ${selection.files[0]}: pass language (one of ${LANGUAGE_IDS.join(', ')}).`,
    );
  const compiled = new Map<string, CompiledPattern | ToolError>();
  const compile = (language: Language) => {
    let entry = compiled.get(language.id);
    if (!entry) {
      try {
        entry = compilePattern(engine, language, input.pattern);
      } catch (error) {
        if (!(error instanceof ToolError)) throw error;
        entry = error;
      }
      compiled.set(language.id, entry);
    }
    return entry;
  };
  // A pattern meant for one grammar must parse in it: with a language given (or one file), or
  // when no grammar present accepts it, the search stops with why.
  if (forced) {
    const entry = compile(forced);
    if (entry instanceof ToolError) throw entry;
  }
  const grammars = new Set(byFile.map((f) => f.language));
  if (!forced && grammars.size > 0 && [...grammars].every((l) => compile(l) instanceof ToolError)) {
    const first = compile([...grammars][0] as Language);
    if (grammars.size === 1) throw first;
    throw new ToolError(
      `Unparseable pattern for ${[...grammars].map((l) => l.id).join(', ')}: no grammar in ${input.path ?? context.cwd} accepts \`${input.pattern.trim()}\`.`,
    );
  }
  const files: FileMatches[] = [];
  let tooLarge = 0;
  let filesSearched = 0;
  const unparsed = new Map<string, number>();
  for (const { path, language } of byFile) {
    context.abortSignal.throwIfAborted();
    const entry = compile(language);
    if (entry instanceof ToolError) {
      unparsed.set(language.id, (unparsed.get(language.id) ?? 0) + 1);
      continue;
    }
    if ((await stat(path)).size > MAX_FILE_BYTES) {
      tooLarge++;
      continue;
    }
    const bytes = await readFile(path);
    const source = bytes.toString('utf8');
    filesSearched++;
    const found = engine.findAll(engine.parse(language, source), entry.rule);
    const nodes = options.nested ? found : outermost(found);
    if (nodes.length > 0) files.push({ path, source, bytes, language, nodes });
  }
  return {
    files,
    selection,
    filesSearched,
    tooLarge,
    unparsedLanguages: [...unparsed].map(([language, count]) => ({ language, files: count })),
  };
}

/** The lines that say what a search left out; empty when it left out nothing. */
export function leftOutNotes(result: SearchResult): string[] {
  const notes: string[] = [];
  const { deniedSkipped, outsideSkipped, truncated } = result.selection;
  const denied = skippedNote(deniedSkipped);
  if (denied) notes.push(denied);
  if (outsideSkipped > 0)
    notes.push(
      `(${outsideSkipped} file${outsideSkipped === 1 ? '' : 's'} left out: symlinked from outside the project.)`,
    );
  if (result.tooLarge > 0)
    notes.push(`(${result.tooLarge} file${result.tooLarge === 1 ? '' : 's'} over 2 MiB not parsed.)`);
  for (const { language, files } of result.unparsedLanguages)
    notes.push(
      `(${files} ${language} file${files === 1 ? '' : 's'} not searched: the pattern is not valid ${language}.)`,
    );
  if (truncated) notes.push('(The file listing was cut short: pass a narrower path.)');
  return notes;
}
