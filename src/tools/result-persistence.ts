/**
 * Keeps huge tool results out of the context window: the full text goes to a file in the session
 * folder and the model gets the head of it plus the path, so it can Read further on demand.
 */
import { join } from 'node:path';
import { writeFileAtomic } from '../config/atomic-write';
import { groupDigits } from '../lib/group-digits';
import type { TextBlock, ToolResultContent } from '../model/types';

/** How much of a persisted result the model sees inline. */
export const PERSISTED_PREVIEW_CHARS = 2_000;

export type PersistResultParams = {
  content: ToolResultContent;
  maxResultSizeChars: number;
  sessionDir: string;
  toolUseId: string;
};

export type PersistResultOutcome = {
  content: ToolResultContent;
  /** Where the full text was written; absent when the result was small enough to keep inline. */
  path?: string;
};

/** The text of a result, which is what counts against the size limit (images are kept as they are). */
export function resultText(content: ToolResultContent): string {
  if (typeof content === 'string') return content;
  return content
    .filter((block): block is TextBlock => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

/** Writes via a temporary file and a rename, so a reader never sees half a result. */

// Tool-use ids come from the model API; keep them from naming anything outside the folder.
const safeFileName = (toolUseId: string) => toolUseId.replace(/[^A-Za-z0-9_-]/g, '_') || 'result';

function preview(text: string, limit: number): string {
  const head = text.slice(0, limit);
  // Cut at a line end when one is near, so the preview does not stop mid-line.
  const lineEnd = head.lastIndexOf('\n');
  return lineEnd > limit / 2 ? head.slice(0, lineEnd) : head;
}

function persistedNote(totalChars: number, shownChars: number, path: string): string {
  const fmt = groupDigits;
  return (
    `[Result too large to show in full: ${fmt(totalChars)} characters. Above are the first ` +
    `${fmt(shownChars)}. The complete result was saved to ${path} — use the Read tool on that ` +
    'file (with offset and limit) to see the rest.]'
  );
}

/** Returns the content unchanged when it fits, else a preview that points at the saved file. */
export async function persistLargeResult(params: PersistResultParams): Promise<PersistResultOutcome> {
  const { content, maxResultSizeChars, sessionDir, toolUseId } = params;
  const text = resultText(content);
  if (text.length <= maxResultSizeChars) return { content };

  const path = join(sessionDir, 'tool-results', `${safeFileName(toolUseId)}.txt`);
  await writeFileAtomic(path, Buffer.from(text, 'utf8'));

  const head = preview(text, Math.min(PERSISTED_PREVIEW_CHARS, maxResultSizeChars));
  const summary = `${head}\n\n${persistedNote(text.length, head.length, path)}`;
  if (typeof content === 'string') return { content: summary, path };
  // Non-text blocks (images, documents) stay; all text collapses into one preview block.
  const others = content.filter((block) => block.type !== 'text');
  return { content: [{ type: 'text', text: summary }, ...others], path };
}
