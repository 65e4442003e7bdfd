/**
 * processUserInput (seed 001): what a submitted prompt becomes, in the seed's order. Empty input
 * is ignored; a `/name args` line of a prompt command expands (its body, arguments, `!` commands
 * under the permission pipeline, `@file` attachments) into the turn's messages with the tools it
 * grants and the model it asks for; a local command runs and answers without the model; anything
 * else is a query as typed. The engine calls it at the start of each turn (engine/user-input.ts),
 * so `-p`, stream-json and the interactive UI expand commands the same way.
 *
 * Headless, only the local commands marked `headless` run; the rest, and every `ui` command,
 * answer that they need the interactive UI.
 */
import type { InputProcessor, ProcessedInput } from '../engine/user-input';
import { resolveModelAlias } from '../model/models';
import type { UserContentBlock } from '../model/types';
import { commandHeader } from '../skills/command-header';
import type { SessionSkills } from '../skills/session-skills';
import type { PromptCommandSpec } from '../skills/types';
import { looksLikePath, unknownCommandText } from './dispatch';
import { parseCommandLine } from './registry';
import type { CommandHost, CommandOutcome, CommandRegistry } from './types';

export type UserInputDeps = {
  commands: CommandRegistry;
  skills: SessionSkills;
  /** The session as local commands see it (a headless host outside the UI). */
  host: () => CommandHost;
  /** Waits until the MCP servers have connected or failed (their prompts are commands too). */
  settleMcp?: () => Promise<void>;
  /** Runs `/compact` and says what it did. */
  compact(instructions: string | undefined, signal: AbortSignal): Promise<string>;
};

/** UI commands with a shell command of their own, named where they are refused headless. */
const FROM_THE_SHELL: Readonly<Record<string, string>> = { doctor: 'yoke doctor' };

const NEEDS_UI = (name: string) => {
  const shell = FROM_THE_SHELL[name];
  const also = shell === undefined ? '' : ` (or \`${shell}\` from the shell)`;
  return `/${name} needs the interactive UI: run \`yoke\` without -p to use it${also}.`;
};

/** The text of a prompt that could be a command: a string, or content whose only text block starts it. */
function commandText(prompt: string | UserContentBlock[]): string | undefined {
  if (typeof prompt === 'string') return prompt;
  const texts = prompt.filter((block) => block.type === 'text');
  if (texts.length !== 1 || prompt.length !== 1) return undefined;
  return (texts[0] as { text: string }).text;
}

function answered(text: string, isError = false): ProcessedInput {
  return { kind: 'answered', text, isError };
}

async function headlessOutcome(
  name: string,
  outcome: CommandOutcome,
  deps: UserInputDeps,
  signal: AbortSignal,
): Promise<ProcessedInput> {
  switch (outcome.kind) {
    case 'text':
      return answered(outcome.text);
    // A live view's text is what a host without a screen shows.
    case 'view':
      return answered(outcome.text);
    case 'none':
      return answered('');
    case 'prompt':
      return { kind: 'query', content: outcome.prompt };
    case 'compact':
      return answered(await deps.compact(outcome.instructions, signal));
    default:
      return answered(NEEDS_UI(name), true);
  }
}

/**
 * A `context: fork` command typed by the user runs in a subagent; as in Claude Code, its report is
 * the command's answer (shown, no model turn follows), and the command line with the report joins
 * the conversation so the next prompt can build on it.
 */
async function forkedAnswer(
  spec: PromptCommandSpec,
  args: string,
  turn: Parameters<InputProcessor>[1],
  skills: SessionSkills,
): Promise<ProcessedInput> {
  const fork = await skills.forkForUser(spec, args, turn.context, turn.onProgress);
  if (fork.kind === 'suppressed') {
    // A UserPromptExpansion hook sent its own context instead: it goes to the model, nothing forks.
    const { blocks, attachments } = fork.expansion;
    return { kind: 'query', content: blocks, attachments, allowRules: [] };
  }
  return {
    kind: 'answered',
    text: fork.text,
    isError: fork.isError,
    conversation: [
      { content: commandHeader(spec, args), isMeta: false },
      {
        content: `The forked ${fork.agentType} agent's report for /${spec.name}:\n\n${fork.text}`,
        isMeta: true,
      },
    ],
  };
}

export async function processUserInput(
  prompt: string | UserContentBlock[],
  turn: Parameters<InputProcessor>[1],
  deps: UserInputDeps,
): Promise<ProcessedInput> {
  const text = commandText(prompt);
  if (text !== undefined && text.trim() === '') return answered('');
  const parsed = text === undefined ? undefined : parseCommandLine(text);
  if (!parsed || text === undefined) return { kind: 'query', content: prompt };
  const command = deps.commands.find(parsed.name);
  // An MCP prompt is a command once its server is connected: wait for the servers before saying it is unknown.
  if (!command && parsed.name.startsWith('mcp__') && !deps.skills.find(parsed.name)) await deps.settleMcp?.();
  const dynamic = command ? undefined : deps.skills.find(parsed.name);
  if (!command && !dynamic) {
    if (looksLikePath(text, parsed.name)) return { kind: 'query', content: prompt };
    return answered(unknownCommandText(parsed.name, deps.commands), true);
  }
  if (!command || command.kind === 'prompt') {
    const spec = dynamic ?? deps.skills.find(parsed.name);
    if (!spec) return answered(unknownCommandText(parsed.name, deps.commands), true);
    try {
      if (spec.context === 'fork') return await forkedAnswer(spec, parsed.args, turn, deps.skills);
      const expansion = await deps.skills.expandForUser(spec, parsed.args, turn.context);
      const notes = expansion.problems.length > 0 ? [expansion.problems.join('\n')] : [];
      return {
        kind: 'query',
        content: expansion.blocks,
        attachments: [...expansion.attachments, ...notes],
        allowRules: expansion.allowRules,
        ...(spec.model ? { model: resolveModelAlias(spec.model) } : {}),
        ...(spec.effort ? { effort: spec.effort } : {}),
      };
    } catch (error) {
      return answered((error as Error).message, true);
    }
  }
  if (command.kind === 'ui' || !command.headless) return answered(NEEDS_UI(command.name), true);
  try {
    return await headlessOutcome(
      command.name,
      await command.run(parsed.args, deps.host()),
      deps,
      turn.signal,
    );
  } catch (error) {
    return answered(`/${command.name} failed: ${(error as Error).message}`, true);
  }
}
