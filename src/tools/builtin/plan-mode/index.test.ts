import { describe, expect, it } from 'vitest';
import { emptyPermissionContext } from '../../../permissions/types';
import { ToolError } from '../../tool';
import { makeTestContext } from '../shared/test-context';
import { enterPlanModeTool, exitPlanModeTool } from '.';

const inMode = (mode: 'default' | 'acceptEdits' | 'plan') =>
  makeTestContext({ getPermissionContext: () => ({ ...emptyPermissionContext(), mode }) });

describe('EnterPlanMode and ExitPlanMode', () => {
  it('go into plan mode and back to the mode that was in force before it', async () => {
    const context = makeTestContext();
    context.switchPermissionMode('acceptEdits');
    await enterPlanModeTool.call({}, context, () => {});
    expect(context.getPermissionContext().mode).toBe('plan');
    const { data } = await exitPlanModeTool.call({ plan: '1. Edit a.ts' }, context, () => {});
    expect(data).toEqual({ plan: '1. Edit a.ts', isAgent: false });
    expect(context.getPermissionContext().mode).toBe('acceptEdits');
    expect(exitPlanModeTool.mapResultToContent(data)).toContain('1. Edit a.ts');
  });

  it('always ask, showing the plan to approve', async () => {
    const context = makeTestContext();
    await expect(exitPlanModeTool.checkPermissions({ plan: 'Step one' }, context)).resolves.toEqual({
      behavior: 'ask',
      message: 'Approve this plan and leave plan mode?\n\nStep one',
    });
    await expect(enterPlanModeTool.checkPermissions({}, context)).resolves.toMatchObject({ behavior: 'ask' });
  });

  it('refuse to leave a plan mode the session is not in', async () => {
    const call = exitPlanModeTool.call({ plan: 'x' }, inMode('default'), () => {});
    await expect(call).rejects.toBeInstanceOf(ToolError);
    await expect(call).rejects.toThrow('not in plan mode');
  });

  it('accept the extra keys older models send to ExitPlanMode', () => {
    const parsed = exitPlanModeTool.inputSchema['~standard'].validate({ plan: 'p', allowedPrompts: [] });
    expect(parsed).toMatchObject({ value: { plan: 'p', allowedPrompts: [] } });
    expect(exitPlanModeTool.inputJsonSchema.additionalProperties).toBe(true);
  });
});
