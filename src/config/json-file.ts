/**
 * Reads a JSON file that must hold an object (settings, state), telling apart a missing file,
 * an object and a file that cannot be used — with the line and column of a syntax error.
 */
import { isJsonObject, type JsonObject } from '../lib/json-object';
import { readRegularText, UnreadableFileError } from '../lib/regular-file-text';
import { locateJsonError } from './json-error';

export type JsonObjectFile =
  | { kind: 'missing' }
  | { kind: 'object'; json: JsonObject }
  /** `problem` completes "…: <problem>", e.g. "invalid JSON at line 3, column 7: …". */
  | { kind: 'invalid'; problem: string };

/** Parses JSON text (a BOM allowed); a syntax error comes back as "line L, column C: why". */
export function parseJsonText(text: string): { value: unknown } | { syntaxError: string } {
  const source = text.replace(/^\uFEFF/, '');
  try {
    return { value: JSON.parse(source) };
  } catch (error) {
    const where = locateJsonError(source);
    return {
      syntaxError: where
        ? `line ${where.line}, column ${where.column}: ${where.message}`
        : (error as Error).message,
    };
  }
}

/**
 * The most a settings or state file is read of: a planted device or multi-gigabyte file must not
 * fill memory, and no real one comes near it (a long-used ~/.claude.json is a few MB).
 */
export const MAX_JSON_FILE_BYTES = 32 * 1024 * 1024;

/** Reads the file; a FIFO, a device or a file over MAX_JSON_FILE_BYTES is `invalid`, saying what it is. */
export async function readJsonObjectFile(path: string): Promise<JsonObjectFile> {
  let text: string;
  try {
    text = await readRegularText(path, MAX_JSON_FILE_BYTES);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    if (error instanceof UnreadableFileError) return { kind: 'invalid', problem: error.reason };
    throw error;
  }
  if (text.replace(/^\uFEFF/, '').trim() === '') return { kind: 'object', json: {} };
  const parsed = parseJsonText(text);
  if ('syntaxError' in parsed) return { kind: 'invalid', problem: `invalid JSON at ${parsed.syntaxError}` };
  if (!isJsonObject(parsed.value)) return { kind: 'invalid', problem: 'the top level is not a JSON object' };
  return { kind: 'object', json: parsed.value };
}
