/**
 * `PermissionRequest` hooks answer a permission prompt before anyone is asked (compat-surface
 * §2.4): `hookSpecificOutput.decision` is `{behavior:'allow', updatedInput?}` or
 * `{behavior:'deny', message?, interrupt?}`. A deny from any hook wins over an allow, and a
 * blocking answer (exit 2, or a reply that could not be read) is a deny as well.
 */
import type { PermissionDecision } from '../permissions/types';
import type { HookRunResult } from './combine';

function decisionOf(output: Record<string, unknown>): PermissionDecision | undefined {
  const decision = output.decision;
  if (!decision || typeof decision !== 'object') return undefined;
  const d = decision as Record<string, unknown>;
  if (d.behavior === 'deny') {
    return {
      behavior: 'deny',
      message: typeof d.message === 'string' && d.message ? d.message : 'Denied by a PermissionRequest hook.',
      ...(d.interrupt === true ? { interrupt: true } : {}),
      decisionReason: { type: 'hook', hookName: 'PermissionRequest' },
    };
  }
  if (d.behavior === 'allow') {
    const updated = d.updatedInput;
    return {
      behavior: 'allow',
      ...(updated && typeof updated === 'object' ? { updatedInput: updated as Record<string, unknown> } : {}),
      decisionReason: { type: 'hook', hookName: 'PermissionRequest' },
    };
  }
  return undefined;
}

export function permissionRequestDecision(result: HookRunResult): PermissionDecision | undefined {
  if (result.blockingErrors.length > 0) {
    return {
      behavior: 'deny',
      message: `PermissionRequest hook error: ${result.blockingErrors.join('\n')}`,
      decisionReason: { type: 'hook', hookName: 'PermissionRequest' },
    };
  }
  const decisions = result.hookSpecificOutputs.map(decisionOf).filter((d) => d !== undefined);
  return decisions.find((d) => d.behavior === 'deny') ?? decisions[0];
}
