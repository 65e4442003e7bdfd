/**
 * Compact answers: project-relative paths, 1-based lines and the source line itself, so the model
 * needs no second Read to see what a location is. A file a Read deny rule covers keeps its path
 * and line but never shows its text.
 */
import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Diagnostic, Location, LocationLink, Range } from 'vscode-languageserver-protocol';
import { relativeWithin } from '../../../lib/path-within';
import type { FileRules } from './file-rules';

const SEVERITY = ['', 'error', 'warning', 'info', 'hint'] as const;
/** Files larger than this are not read just to show one of their lines. */
const MAX_SHOWN_FILE_BYTES = 4 * 1024 * 1024;
const MAX_LINE_CHARS = 200;

export function pathOfUri(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/** Reads the files results point into, once each, and shows their lines subject to Read deny rules. */
export class SourceView {
  private readonly texts = new Map<string, Promise<string[] | undefined>>();

  constructor(
    readonly projectRoot: string,
    private readonly rules: FileRules,
    /** Text the caller already holds (a document just synced), by path. */
    private readonly known: ReadonlyMap<string, string> = new Map(),
  ) {}

  label(path: string): string {
    const rel = relativeWithin(this.projectRoot, path);
    return rel || path;
  }

  private lines(path: string): Promise<string[] | undefined> {
    let pending = this.texts.get(path);
    if (!pending) {
      const held = this.known.get(path);
      pending =
        held !== undefined
          ? Promise.resolve(held.split('\n'))
          : stat(path)
              .then((info) => (info.size > MAX_SHOWN_FILE_BYTES ? undefined : readFile(path, 'utf8')))
              .then((text) => text?.split('\n'))
              .catch(() => undefined);
      this.texts.set(path, pending);
    }
    return pending;
  }

  /** `path:line: source` (1-based line); the source is left out under a Read deny rule. */
  async at(path: string, line0: number): Promise<string> {
    const head = `${this.label(path)}:${line0 + 1}`;
    if (this.rules.readDenied(path)) return `${head}: (not shown: a Read deny rule covers this file)`;
    const source = (await this.lines(path))?.[line0]?.replace(/\r$/, '').trim();
    if (!source) return head;
    return `${head}: ${source.length > MAX_LINE_CHARS ? `${source.slice(0, MAX_LINE_CHARS)}…` : source}`;
  }
}

export type Place = { path: string; range: Range };

/** Locations and links from definition-like answers, as files and ranges (non-file URIs dropped). */
export function placesOf(answer: Location | Location[] | LocationLink[] | null | undefined): Place[] {
  if (!answer) return [];
  const list = Array.isArray(answer) ? answer : [answer];
  const places: Place[] = [];
  for (const item of list) {
    const uri = 'targetUri' in item ? item.targetUri : item.uri;
    const range = 'targetUri' in item ? item.targetSelectionRange : item.range;
    const path = pathOfUri(uri);
    if (path) places.push({ path, range });
  }
  return places;
}

export async function formatPlaces(
  places: readonly Place[],
  view: SourceView,
  limit: number,
): Promise<string> {
  const unique = new Map<string, Place>();
  for (const place of places) unique.set(`${place.path}\0${place.range.start.line}`, place);
  const shown = [...unique.values()].slice(0, limit);
  const lines = await Promise.all(shown.map((place) => view.at(place.path, place.range.start.line)));
  if (unique.size > limit)
    lines.push(`(${unique.size - limit} more not shown; the first ${limit} are above)`);
  return lines.join('\n');
}

export function severityName(diagnostic: Diagnostic): string {
  return SEVERITY[diagnostic.severity ?? 1] ?? 'error';
}

/** `path:line: error TS2322: message` (the message's first line; later lines indented). */
export function formatDiagnostic(diagnostic: Diagnostic, label: string): string {
  const code = diagnostic.code === undefined ? '' : ` ${codeLabel(diagnostic)}`;
  const text = typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value;
  const message = text.trim().split('\n').join('\n    ');
  return `${label}:${diagnostic.range.start.line + 1}: ${severityName(diagnostic)}${code}: ${message}`;
}

function codeLabel(diagnostic: Diagnostic): string {
  const { code, source } = diagnostic;
  if (typeof code === 'number' && source?.toLowerCase().startsWith('typescript')) return `TS${code}`;
  return String(code);
}
