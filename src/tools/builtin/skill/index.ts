/**
 * Skill (compat-surface §1.7): the model runs one of the session's skills or custom commands. The
 * tool result is a one-line notice; the expanded body follows it as a user turn, and the skill's
 * allowed-tools and model hold for the rest of the turn. Which skills exist, and which the model may run, is
 * the session's (`context.services.skills`, from src/skills/).
 */
import * as z from '../../../lib/zod';
import { createUserMessage } from '../../../session/messages';
import { buildTool, ToolError } from '../../tool';
import { withAllowRules } from '../../with-allow-rules';
import prompt from './prompt.md';

const inputSchema = z.strictObject({
  skill: z
    .string()
    .check(z.minLength(1), z.describe('The skill or command name, without the slash, e.g. "review"')),
  args: z.optional(
    z.string().check(z.describe('Arguments for the skill, as the user would type them after /name')),
  ),
});
export type SkillInput = z.infer<typeof inputSchema>;
export type SkillOutput = { success: true; commandName: string };

export const skillTool = buildTool<SkillInput, SkillOutput>({
  name: 'Skill',
  tier: 'read',
  inputSchema,
  prompt,
  description: (input) => `Skill ${input.skill.replace(/^\//, '')}`,
  // Loading instructions changes nothing; what the skill then asks for goes through the permission pipeline.
  isReadOnly: () => true,
  mapResultToContent: (output) => `Launching skill: ${output.commandName}`,
  async call(input, context) {
    const skills = context.services.skills;
    if (!skills) throw new ToolError('This session has no skills.');
    const name = input.skill.trim().replace(/^\//, '');
    let launch: Awaited<ReturnType<typeof skills.launch>>;
    try {
      launch = await skills.launch(name, input.args?.trim() ?? '', context);
    } catch (error) {
      throw new ToolError((error as Error).message);
    }
    const { allowRules, model } = launch;
    const widened = allowRules.length > 0 || model !== undefined;
    return {
      data: { success: true, commandName: launch.commandName },
      newMessages: [
        createUserMessage(launch.body, { isMeta: true }),
        ...launch.attachments.map((blocks) => createUserMessage(blocks, { isMeta: true })),
      ],
      // The loop adopts the context's model for its next request (engine/query.ts).
      ...(widened
        ? { contextModifier: (ctx) => ({ ...withAllowRules(ctx, allowRules), ...(model ? { model } : {}) }) }
        : {}),
    };
  },
});
