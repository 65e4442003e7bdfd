import { describe, expect, it } from 'vitest';
import type { HookRunResult } from './combine';
import { permissionRequestDecision } from './permission-request';

const result = (...outputs: Record<string, unknown>[]) =>
  ({ hookSpecificOutputs: outputs, blockingErrors: [] }) as unknown as HookRunResult;

describe('permissionRequestDecision', () => {
  it('has no opinion without a decision', () => {
    expect(permissionRequestDecision(result())).toBeUndefined();
    expect(permissionRequestDecision(result({ hookEventName: 'PermissionRequest' }))).toBeUndefined();
  });

  it('allows with the rewritten input', () => {
    expect(
      permissionRequestDecision(result({ decision: { behavior: 'allow', updatedInput: { command: 'ls' } } })),
    ).toMatchObject({ behavior: 'allow', updatedInput: { command: 'ls' } });
  });

  it('lets a deny win over an allow and keeps its message', () => {
    expect(
      permissionRequestDecision(
        result(
          { decision: { behavior: 'allow' } },
          { decision: { behavior: 'deny', message: 'not here', interrupt: true } },
        ),
      ),
    ).toMatchObject({ behavior: 'deny', message: 'not here', interrupt: true });
  });

  it('denies on a blocking answer, even beside an allow', () => {
    const blocked = {
      ...result({ decision: { behavior: 'allow' } }),
      blockingErrors: ['[./check.sh]: no'],
    } as HookRunResult;
    expect(permissionRequestDecision(blocked)).toMatchObject({
      behavior: 'deny',
      message: 'PermissionRequest hook error: [./check.sh]: no',
    });
  });
});
