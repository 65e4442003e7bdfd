/**
 * The hooks a prompt command's expansion runs (compat-surface §2.4). `UserPromptExpansion` fires
 * when the user runs `/name args`, before anything of the command happens: a blocking answer
 * stops it (its `!` commands never run), `additionalContext` goes with the expansion, and
 * `suppressOriginalPrompt` sends that context without the expansion. `PreSkillShellCommand` fires
 * for each `!` command before the permission pipeline: only a hook's `allow` (or no opinion) lets
 * the command on; `deny`, `ask`, a block or an `updatedInput` stop the whole expansion.
 */
import type { HookRunner } from '../hooks/types';
import type { ToolUseContext } from '../tools/context';
import { ExpansionError } from './expansion-error';
import type { PromptCommandSpec } from './types';

export type ExpansionGate = {
  /** The hooks' context for the model, each a meta message after the expansion. */
  context: string[];
  /** Send the context alone, without the command's expansion. */
  suppress: boolean;
};

function tell(context: ToolUseContext, messages: readonly string[] | undefined): void {
  for (const message of messages ?? []) context.notify({ level: 'info', message });
}

/** Runs UserPromptExpansion for `/name args`; throws an ExpansionError when a hook blocks it. */
export async function userPromptExpansionGate(
  hooks: HookRunner,
  spec: PromptCommandSpec,
  args: string,
  context: ToolUseContext,
): Promise<ExpansionGate> {
  const outcome = await hooks.userPromptExpansion?.(
    {
      expansion_type: spec.loadedFrom === 'mcp' ? 'mcp_prompt' : 'slash_command',
      command_name: spec.name,
      command_args: args,
      command_source: spec.source,
      prompt: args === '' ? `/${spec.name}` : `/${spec.name} ${args}`,
    },
    context.abortSignal,
  );
  tell(context, outcome?.systemMessages);
  if (outcome?.blocked)
    throw new ExpansionError(
      `/${spec.name} was not run: a UserPromptExpansion hook blocked it: ${outcome.blocked.reason}`,
    );
  return { context: outcome?.additionalContext ?? [], suppress: outcome?.suppressOriginalPrompt === true };
}

/** Runs PreSkillShellCommand for one `!` command; throws an ExpansionError when it may not run. */
export async function preSkillShellCommandGate(
  hooks: HookRunner,
  call: {
    command: string;
    toolUseId: string;
    commandName: string;
    commandSource: string;
    invokedBy: 'user' | 'claude';
  },
  context: ToolUseContext,
): Promise<void> {
  const outcome = await hooks.preSkillShellCommand?.(
    {
      tool_name: 'Bash',
      tool_input: { command: call.command },
      tool_use_id: call.toolUseId,
      command_name: call.commandName,
      command_source: call.commandSource,
      invoked_by: call.invokedBy,
    },
    context.abortSignal,
  );
  tell(context, outcome?.systemMessages);
  if (outcome?.blocked)
    throw new ExpansionError(
      `/${call.commandName} was not run: its command \`${call.command}\` was blocked by a PreSkillShellCommand hook: ${outcome.blocked.reason}`,
    );
}
