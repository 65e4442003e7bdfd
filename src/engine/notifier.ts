/**
 * Where a tool's notification goes: to the user (the UI, or stderr headless) and to the
 * `Notification` hooks. The hooks only observe, so a slow one never holds up the tool.
 */
import type { HookRunner } from '../hooks/types';
import type { ToolNotification } from '../tools/context';

export function notifier(
  hooks: HookRunner,
  toUser: ((notification: ToolNotification) => void) | undefined,
  signal: AbortSignal,
): (notification: ToolNotification) => void {
  return (notification) => {
    toUser?.(notification);
    const payload = { message: notification.message, notification_type: notification.level };
    void hooks.notify('Notification', payload, signal).catch(() => {});
  };
}
