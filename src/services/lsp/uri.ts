/** A file path as the URI language servers name documents by. */
import { pathToFileURL } from 'node:url';

export const fileUri = (path: string): string => pathToFileURL(path).href;
