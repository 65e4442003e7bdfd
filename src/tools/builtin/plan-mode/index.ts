/**
 * EnterPlanMode and ExitPlanMode: the model asks the user to switch the session into plan mode,
 * or to approve its plan and leave it. Both ask every time (the user's answer is the point), so
 * they exist only where someone can answer: the interactive UI or an SDK host that takes
 * permission prompts. The switch goes through the loop's own `switchPermissionMode`, so the next
 * decision and the next request's tool list follow it.
 */

import * as z from '../../../lib/zod';
import type { JsonSchemaObject } from '../../../model/types';
import { buildTool, ToolError } from '../../tool';
import enterPrompt from './enter-plan-mode.md';
import exitPrompt from './exit-plan-mode.md';

const exitInputSchema = z.lazy(() =>
  z.looseObject({
    plan: z.optional(z.string().check(z.describe('The plan to approve, in markdown'))),
  }),
);
export type ExitPlanModeInput = z.infer<typeof exitInputSchema>;
export type ExitPlanModeOutput = { plan: string | null; isAgent: boolean; planWasEdited?: boolean };

// Claude Code's ExitPlanMode takes extra keys (older models send `allowedPrompts`); a closed
// schema would turn those calls into validation errors.
const exitJsonSchema: JsonSchemaObject = {
  type: 'object',
  properties: { plan: { type: 'string', description: 'The plan to approve, in markdown' } },
  additionalProperties: true,
};

export const exitPlanModeTool = buildTool<ExitPlanModeInput, ExitPlanModeOutput>({
  name: 'ExitPlanMode',
  tier: 'read',
  inputSchema: exitInputSchema,
  inputJsonSchema: exitJsonSchema,
  prompt: exitPrompt,
  description: () => 'Approve the plan and leave plan mode',
  isReadOnly: () => true,
  async checkPermissions(input) {
    const plan = input.plan?.trim();
    return {
      behavior: 'ask',
      message: plan ? `Approve this plan and leave plan mode?\n\n${plan}` : 'Leave plan mode?',
    };
  },
  async call(input, context) {
    if (context.getPermissionContext().mode !== 'plan') {
      throw new ToolError(
        'The session is not in plan mode, so there is nothing to leave: carry on with the task.',
      );
    }
    context.switchPermissionMode('before-plan');
    const plan = input.plan ?? null;
    return { data: { plan, isAgent: context.agentId !== undefined } };
  },
  mapResultToContent: (output) =>
    output.plan
      ? `The user approved the plan and plan mode is over: carry it out now, step by step, and keep the todo list current.\n\nThe approved plan:\n${output.plan}`
      : 'The user approved leaving plan mode: carry on with the task.',
});

const enterInputSchema = z.strictObject({});
export type EnterPlanModeOutput = { message: string };

export const enterPlanModeTool = buildTool<Record<string, never>, EnterPlanModeOutput>({
  name: 'EnterPlanMode',
  tier: 'read',
  inputSchema: enterInputSchema,
  prompt: enterPrompt,
  description: () => 'Enter plan mode',
  isReadOnly: () => true,
  async checkPermissions() {
    return {
      behavior: 'ask',
      message: 'Switch to plan mode (read and plan only, until a plan is approved)?',
    };
  },
  async call(_input, context) {
    if (context.agentId !== undefined)
      throw new ToolError('A subagent cannot switch the session to plan mode.');
    if (context.getPermissionContext().mode === 'plan')
      return { data: { message: 'The session is already in plan mode.' } };
    context.switchPermissionMode('plan');
    return {
      data: {
        message:
          'Plan mode is on: explore with read-only tools and design the change; nothing may be edited or run that changes anything. When the plan is ready, present it with ExitPlanMode.',
      },
    };
  },
  mapResultToContent: (output) => output.message,
});
