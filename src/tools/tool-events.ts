/**
 * What running tools reports, in order: progress, refusals, and the messages (tool results and
 * anything a tool adds). The query loop forwards these among its own events.
 */
import type { PermissionDecision } from '../permissions/types';
import type { Message } from '../session/messages';
import type { ToolProgress } from './tool';

export type ToolEvent =
  /** A finished message: a tool result, or a message a tool added after it. */
  | { type: 'message'; message: Message }
  | { type: 'tool_progress'; progress: ToolProgress; toolName: string }
  /**
   * The call passed its hooks and its permission check and the tool itself starts now. Until
   * then a call waits (behind an earlier call, a hook or a permission question): a view that
   * shows a running clock starts it here, not when the model asked for the call.
   */
  | { type: 'tool_started'; toolUseId: string; toolName: string }
  /** A tool call the permission pipeline refused (for `permission_denials`). */
  | {
      type: 'permission_denied';
      toolName: string;
      toolUseId: string;
      toolInput: Record<string, unknown>;
      decision: Extract<PermissionDecision, { behavior: 'deny' }>;
    };
