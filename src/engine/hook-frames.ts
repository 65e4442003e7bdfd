/**
 * The stream-json `system/hook_started` and `system/hook_response` frames (agent-sdk-protocol
 * §5.7). SessionStart (and Setup) hooks always report them, as Claude Code does; every other
 * event only with `--include-hook-events`. Hooks run deep inside the loop, so their lifecycle is
 * queued here and the QueryEngine writes the queue out before the next frame it yields: a hook's
 * frames always come before whatever the hook's verdict led to.
 */
import type { HookLifecycle } from '../hooks/types';
import { newUuid } from './sdk-convert';
import type { SDKHookResponseMessage, SDKHookStartedMessage } from './sdk-messages';

/** Events whose hook frames are written even without `--include-hook-events`. */
const ALWAYS_REPORTED: ReadonlySet<string> = new Set(['SessionStart', 'Setup']);

export type HookFrame = SDKHookStartedMessage | SDKHookResponseMessage;

export class HookFrameQueue {
  private pending: HookLifecycle[] = [];

  constructor(private readonly includeAllEvents: boolean) {}

  /** The hook runner's `onLifecycle`. */
  readonly push = (event: HookLifecycle): void => {
    if (this.includeAllEvents || ALWAYS_REPORTED.has(event.hookEvent)) this.pending.push(event);
  };

  /** The frames queued so far, oldest first; the queue is empty afterwards. */
  *drain(sessionId: string): Generator<HookFrame> {
    const events = this.pending;
    this.pending = [];
    for (const event of events) yield toFrame(event, sessionId);
  }
}

function toFrame(event: HookLifecycle, sessionId: string): HookFrame {
  const names = { hook_id: event.hookId, hook_name: event.hookName, hook_event: event.hookEvent };
  if (event.phase === 'started') {
    return { type: 'system', subtype: 'hook_started', ...names, uuid: newUuid(), session_id: sessionId };
  }
  return {
    type: 'system',
    subtype: 'hook_response',
    ...names,
    output: event.output,
    stdout: event.stdout,
    stderr: event.stderr,
    ...(event.exitCode === undefined ? {} : { exit_code: event.exitCode }),
    outcome: event.outcome,
    uuid: newUuid(),
    session_id: sessionId,
  };
}
