/**
 * Skill (compat-surface §1.7): the model runs one of the session's skills or custom commands. The
 * tool result is a one-line notice; the expanded body follows it as a user turn, and the skill's
 * allowed-tools and model hold for the rest of the turn. A `context: fork` skill instead runs to its end in a
 * subagent (its messages nested under this call, as the Agent tool's are), and the result is the
 * worker's report. Which skills exist, and which the model may run, is the session's
 * (`context.services.skills`, from src/skills/).
 */
import * as z from '../../../lib/zod';
import { withEffortOverride } from '../../../model/effort';
import { createUserMessage } from '../../../session/messages';
import { buildTool, ToolError } from '../../tool';
import { withAllowRules } from '../../with-allow-rules';
import prompt from './prompt.md';

const inputSchema = z.lazy(() =>
  z.strictObject({
    skill: z
      .string()
      .check(z.minLength(1), z.describe('The skill or command name, without the slash, e.g. "review"')),
    args: z.optional(
      z.string().check(z.describe('Arguments for the skill, as the user would type them after /name')),
    ),
  }),
);
export type SkillInput = z.infer<typeof inputSchema>;
export type SkillOutput =
  | { success: true; commandName: string }
  /** A forked skill: the worker's id and report, with the Agent tool's run metadata. */
  | {
      success: true;
      commandName: string;
      status: 'forked';
      agentId: string;
      agentType: string;
      result: string;
      details: Record<string, unknown>;
    };

export const skillTool = buildTool<SkillInput, SkillOutput>({
  name: 'Skill',
  tier: 'read',
  inputSchema,
  prompt,
  description: (input) => `Skill ${input.skill.replace(/^\//, '')}`,
  // Loading instructions changes nothing; what the skill then asks for goes through the permission pipeline.
  isReadOnly: () => true,
  mapResultToContent: (output) =>
    'status' in output
      ? `Skill "${output.commandName}" ran in a forked ${output.agentType} agent. Its report:\n\n${output.result}`
      : `Launching skill: ${output.commandName}`,
  async call(input, context, onProgress) {
    const skills = context.services.skills;
    if (!skills) throw new ToolError('This session has no skills.');
    const name = input.skill.trim().replace(/^\//, '');
    let launch: Awaited<ReturnType<typeof skills.launch>>;
    try {
      launch = await skills.launch(name, input.args?.trim() ?? '', context, onProgress);
    } catch (error) {
      throw new ToolError((error as Error).message);
    }
    if (launch.kind === 'forked') {
      const { commandName, agentId, agentType, text, details } = launch;
      return {
        data: { success: true, commandName, status: 'forked', agentId, agentType, result: text, details },
        ...(launch.isError ? { isError: true } : {}),
      };
    }
    const { allowRules, model, effort } = launch;
    const widened = allowRules.length > 0 || model !== undefined || effort !== undefined;
    return {
      data: { success: true, commandName: launch.commandName },
      newMessages: [
        createUserMessage(launch.body, { isMeta: true }),
        ...launch.attachments.map((blocks) => createUserMessage(blocks, { isMeta: true })),
      ],
      // The loop adopts the context's model for its next request (engine/query.ts).
      ...(widened
        ? {
            contextModifier: (ctx) =>
              withEffortOverride(
                { ...withAllowRules(ctx, allowRules), ...(model ? { model } : {}) },
                effort,
                'skill',
              ),
          }
        : {}),
    };
  },
});
