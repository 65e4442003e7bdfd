/**
 * Where a tool's notification goes: to the user (the UI, or stderr headless), to the
 * `Notification` hooks, and — when the tool wrote words for the model (`forModel`) — into the
 * conversation's queue, which the model reads at its next turn boundary. The hooks only observe,
 * so a slow one never holds up the tool.
 */
import type { HookRunner } from '../hooks/types';
import type { ToolNotification } from '../tools/context';
import type { MessageQueue } from './message-queue';

export function notifier(
  hooks: HookRunner,
  toUser: ((notification: ToolNotification) => void) | undefined,
  signal: AbortSignal,
  queue?: MessageQueue,
): (notification: ToolNotification) => void {
  return (notification) => {
    toUser?.(notification);
    if (notification.forModel) queue?.enqueue({ kind: 'notice', text: notification.forModel });
    const payload = { message: notification.message, notification_type: notification.level };
    void hooks.notify('Notification', payload, signal).catch(() => {});
  };
}
