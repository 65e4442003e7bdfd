/**
 * Lets the event loop read input before the caller goes on: resolves after Node has polled for
 * I/O at least once. One `setImmediate` is not enough: code that runs after a stdin or socket
 * callback is already past this iteration's poll phase, so its immediate runs in the same
 * iteration's check phase without reading anything new. An immediate queued from the check
 * phase runs in the next iteration, after a poll (which does not block, since an immediate is
 * pending), so a keystroke that arrived meanwhile is handled first.
 */
export function yieldToInput(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
