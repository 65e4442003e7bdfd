/**
 * The permission decision before rules exist: fail closed. Read-only calls are allowed, and so is
 * everything in `bypassPermissions` mode; any other call is denied with a message telling the
 * user how to allow it. Tool-level verdicts (`checkPermissions`) are honoured first.
 */
import type { CanUseToolFn, PermissionMode } from './types';

export function createBasicCanUseTool(getMode: () => PermissionMode): CanUseToolFn {
  return async ({ toolName, toolPermission, isReadOnly, hookDecision }) => {
    if (toolPermission.behavior === 'deny') return { behavior: 'deny', message: toolPermission.message };
    // A PreToolUse hook's allow settles the call: there are no deny rules here that could outrank it.
    if (hookDecision?.behavior === 'allow') return hookDecision;
    if (toolPermission.behavior === 'allow') {
      return toolPermission.updatedInput
        ? { behavior: 'allow', updatedInput: toolPermission.updatedInput }
        : { behavior: 'allow' };
    }
    const mode = getMode();
    if (mode === 'bypassPermissions') return { behavior: 'allow', decisionReason: { type: 'mode', mode } };
    if (isReadOnly && toolPermission.behavior === 'passthrough') {
      return { behavior: 'allow', decisionReason: { type: 'other', reason: 'read-only call' } };
    }
    return {
      behavior: 'deny',
      message: `Permission to use ${toolName} was not granted: no one is here to approve it. Run Yoke with --permission-mode bypassPermissions to allow every tool call.`,
      decisionReason: { type: 'headless', reason: 'no approval available' },
    };
  };
}
