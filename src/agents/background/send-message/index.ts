/**
 * SendMessage: a follow-up for a background agent. A running agent reads it at its next turn
 * boundary; a finished one continues its own conversation with it (runAgent with its earlier
 * messages) and notifies again when that run ends.
 */
import * as z from '../../../lib/zod';
import { agentLabel, unknownTaskMessage } from '../../../tools/builtin/shared/background-tasks';
import { buildTool, ToolError } from '../../../tools/tool';
import prompt from './prompt.md';

// Built on first validation: the JSON Schema the model sees comes from the build.
const inputShape = () => ({
  to: z.string().check(z.maxLength(300), z.describe("The background agent's id or name")),
  message: z.string().check(z.describe('What the agent should do next: a complete instruction')),
  summary: z
    .optional(z.string().check(z.maxLength(200)))
    .check(z.describe('A few words for the user about the message')),
  notify_when_idle: z
    .optional(z.boolean())
    .check(z.describe('Accepted for compatibility: a background agent always notifies when it stops')),
});
const inputSchema = z.lazy(() => z.strictObject(inputShape()));

export type SendMessageInput = z.infer<typeof inputSchema>;

export type SendMessageOutput = {
  success: true;
  message: string;
  agentId: string;
  /** `queued`: the running agent reads it at its next step; `resumed`: a finished agent continues. */
  delivery: 'queued' | 'resumed';
};

export const sendMessageTool = buildTool<SendMessageInput, SendMessageOutput>({
  name: 'SendMessage',
  inputSchema,
  // Not offered in plan mode: it sets an agent with write tools working again.
  tier: 'exec',
  prompt,
  description: (input) => `Message to ${input.to}`,
  // Like the Agent call it continues: the agent's own tool calls are each decided as they come.
  checkPermissions: async () => ({ behavior: 'allow' }),
  interruptBehavior: () => 'block',
  validateInput: async (input) => {
    if (input.to.trim() === '' || input.to.includes('\n'))
      return { ok: false, message: "`to` must be one agent's id or name, on one line." };
    if (input.message.trim() === '')
      return { ok: false, message: 'The message is empty: say what the agent should do.' };
    return { ok: true };
  },
  mapResultToContent: (out) => out.message,
  async call(input, context) {
    const { agentTasks, shells } = context.services;
    const target = agentTasks.get(input.to.trim());
    if (!target) {
      const shell = shells.get(input.to.trim());
      if (shell)
        throw new ToolError(
          `${shell.id} is a background shell, which cannot take messages; SendMessage is for background agents.`,
        );
      throw new ToolError(unknownTaskMessage(input.to, [], agentTasks.list()));
    }
    if (target.id === context.agentId)
      throw new ToolError('This is your own id: SendMessage is for other background agents.');
    const delivery = agentTasks.send(target.id, input.message);
    const label = agentLabel(target);
    return {
      data: {
        success: true,
        agentId: target.id,
        delivery,
        message:
          delivery === 'queued'
            ? `Message sent to background agent ${label}; it reads it at its next step. You will be notified when it finishes.`
            : `Background agent ${label} was ${target.status} and now continues with your message in the background. You will be notified when it finishes.`,
      },
    };
  },
});
