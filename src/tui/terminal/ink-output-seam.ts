/**
 * What Ink's vendor bundle imports in place of its own `log-update.js` and
 * `write-synchronized.js` (scripts/esbuild-plugins.mjs): the frame writer, which draws only what
 * changed and synchronizes the frames that need it itself — so Ink is told never to add the
 * synchronized-output marks around a frame (they would cost 16 bytes on every streamed word).
 */
import { createFrameWriter } from './frame-writer';

export default { create: createFrameWriter };

export const bsu = '\x1b[?2026h';
export const esu = '\x1b[?2026l';

export function shouldSynchronize(): boolean {
  return false;
}
