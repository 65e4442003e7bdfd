/**
 * A definition's `skills`: each named skill's body is put into the worker's conversation before
 * its task, as if the worker had invoked it, so it starts knowing the procedure. The bodies come
 * from the session's skills through the Skill tool's port, expanded for the worker's own context
 * (its `!` commands go through the worker's permissions). A skill the session does not have, or
 * may not hand to the model, is left out with one line for the user.
 */
import { createUserMessage, type Message } from '../session/messages';
import type { ToolUseContext } from '../tools/context';
import type { AgentDefinition } from './types';

export type PreloadedSkills = { messages: Message[]; problems: string[] };

export async function preloadSkills(
  definition: Pick<AgentDefinition, 'agentType' | 'skills'>,
  context: ToolUseContext,
): Promise<PreloadedSkills> {
  const names = definition.skills ?? [];
  const out: PreloadedSkills = { messages: [], problems: [] };
  if (names.length === 0) return out;
  const port = context.services.skills;
  if (!port) {
    out.problems.push(
      `The agent ${definition.agentType} runs without its skills (${names.join(', ')}): this session has no skills.`,
    );
    return out;
  }
  for (const name of names) {
    try {
      const launch = await port.launch(name, '', context, undefined, { inline: true });
      if (launch.kind !== 'inline') throw new Error('it ran as a fork instead of loading');
      out.messages.push(
        createUserMessage(
          [{ type: 'text', text: `The skill "${launch.commandName}" is loaded for you:` }, ...launch.body],
          { isMeta: true },
        ),
        ...launch.attachments.map((blocks) => createUserMessage(blocks, { isMeta: true })),
      );
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      out.problems.push(`The agent ${definition.agentType} runs without the skill "${name}": ${reason}`);
    }
  }
  return out;
}
