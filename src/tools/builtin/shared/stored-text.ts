/**
 * A text file as the changing tools (Edit, MultiEdit, Write, NotebookEdit) work on it, and back
 * to the bytes to store. Decoding and encoding are exact inverses for every file (text-format),
 * so a change alters only the bytes of the text it replaces.
 */
import { ToolError } from '../../tool';
import {
  DEFAULT_TEXT_FORMAT,
  decodeText,
  encodeText,
  findUnrepresentable,
  type LineEnding,
  type TextFormat,
  unrepresentableMessage,
} from './text-format';

export type StoredText = {
  text: string;
  format: TextFormat;
  /** The line break the model's `\n` stands for in this text. */
  editLineEnding: LineEnding;
  /**
   * A file whose only breaks are lone CRs is worked on with `\n` (so matching, line numbers
   * and diffs work as in any file) and gets its CRs back when stored.
   */
  crShownAsLf: boolean;
};

/** A new file: UTF-8 with the model's own line breaks. */
export const NEW_FILE: Omit<StoredText, 'text'> = {
  format: DEFAULT_TEXT_FORMAT,
  editLineEnding: 'LF',
  crShownAsLf: false,
};

export function fromStoredText(bytes: Uint8Array): StoredText {
  const { text, format } = decodeText(bytes);
  if (format.lineEnding === 'CR' && !text.includes('\n')) {
    return { text: text.replace(/\r/g, '\n'), format, editLineEnding: 'LF', crShownAsLf: true };
  }
  return { text, format, editLineEnding: format.lineEnding, crShownAsLf: false };
}

/**
 * The bytes to write for `text` in the file's format. Throws a ToolError naming the first
 * character the encoding cannot hold (a Latin-1 file cannot take "€"), so nothing is written.
 */
export function toStoredText(text: string, stored: Omit<StoredText, 'text'>, path: string): Buffer {
  const onDisk = stored.crShownAsLf ? text.replace(/\r?\n/g, '\r') : text;
  const unrepresentable = findUnrepresentable(onDisk, stored.format.encoding);
  if (unrepresentable) {
    throw new ToolError(unrepresentableMessage(path, stored.format.encoding, unrepresentable, onDisk));
  }
  return encodeText(onDisk, stored.format.encoding);
}
