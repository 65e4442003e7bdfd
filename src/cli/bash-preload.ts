/**
 * When the Bash tool gets ready in the background (tools/builtin/bash/preload.ts). Paid by the
 * first Bash call, loading the shell parser is a pause of about 150 ms between the model's tool
 * call and the next request, which later calls do not have; done while a request is out, it
 * overlaps the model's time to first token instead.
 *
 * Not before the first request has left: its body is built and sent on the main thread, which
 * the preload would compete for. The model transport (model/http) reports on
 * `diagnostics_channel` when a request body has been sent, so that is the trigger.
 */
import { REQUEST_SENT_CHANNEL } from '../model/http/request-sent';
import { preloadBash } from '../tools/builtin/bash/preload';
import type { AnyTool } from '../tools/tool';

/** Only a pool with a shell tool (Bash) ever parses a command line or starts a shell. */
const offersBash = (tools: readonly AnyTool[]) => tools.some((tool) => tool.access === 'shell');

const start = () => void preloadBash();

/** Prepares Bash once the process has sent its first request body. */
export function preloadBashAfterFirstRequest(tools: readonly AnyTool[]): void {
  if (!offersBash(tools)) return;
  const channels = process.getBuiltinModule('node:diagnostics_channel');
  const onSent = () => {
    channels.unsubscribe(REQUEST_SENT_CHANNEL, onSent);
    // Out of the transport's own call stack, after the I/O it has queued.
    setImmediate(start);
  };
  channels.subscribe(REQUEST_SENT_CHANNEL, onSent);
}

/** Prepares Bash on the next turn of the event loop (a session idle at start, waiting for its host). */
export function preloadBashWhenIdle(tools: readonly AnyTool[]): void {
  if (offersBash(tools)) setImmediate(start);
}
