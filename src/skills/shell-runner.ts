/**
 * Runs a command body's `!` commands as the model's Bash calls run: the Bash tool's execution (its
 * shell, sandbox, timeout and output cap) behind the whole permission pipeline (PreToolUse hooks,
 * deny and ask rules, the mode, the prompt). The command's `allowed-tools` join the rules for these
 * calls only, and only when its author may widen permissions (see expand.ts). A call the pipeline
 * refuses is never run: the expansion fails with the refusal as its reason. Before the pipeline, the
 * PreSkillShellCommand hooks may stop it the same way (expansion-hooks.ts).
 */
import { randomUUID } from 'node:crypto';
import { callToolDirect } from '../engine/direct-tool-call';
import type { HookRunner } from '../hooks/types';
import type { CanUseToolFn, PermissionRule } from '../permissions/types';
import type { ToolUseContext } from '../tools/context';
import { withAllowRules } from '../tools/with-allow-rules';
import { ExpansionError } from './expansion-error';
import { preSkillShellCommandGate } from './expansion-hooks';
import type { ShellRun } from './shell-expansion';

export type ShellRunnerDeps = {
  context: ToolUseContext;
  canUseTool: CanUseToolFn;
  hooks: HookRunner;
  /** Extra allow rules for these calls (the command's allowed-tools), or none. */
  allowRules: readonly PermissionRule[];
  /** For the error and the PreSkillShellCommand hook: the command's name, without the slash. */
  commandName: string;
  /** Where the command came from (`project`, `user`, `plugin`…), for the hook. */
  commandSource: string;
  /** Who ran it: the user typed `/name`, or the model called the Skill tool. */
  invokedBy: 'user' | 'claude';
};

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .flatMap((b) => (b && typeof b === 'object' && 'text' in b ? [String(b.text)] : []))
      .join('\n');
  return '';
}

export function shellRunner(deps: ShellRunnerDeps): ShellRun {
  const context = withAllowRules(deps.context, deps.allowRules);
  return async (command) => {
    if (!context.tools.some((tool) => tool.name === 'Bash')) {
      throw new ExpansionError(
        `/${deps.commandName} runs \`${command}\`, but the Bash tool is not available in this session.`,
      );
    }
    const toolUseId = `toolu_skill_${randomUUID()}`;
    await preSkillShellCommandGate(
      deps.hooks,
      {
        command,
        toolUseId,
        commandName: deps.commandName,
        commandSource: deps.commandSource,
        invokedBy: deps.invokedBy,
      },
      context,
    );
    const result = await callToolDirect({
      context,
      canUseTool: deps.canUseTool,
      hooks: deps.hooks,
      name: 'Bash',
      input: { command },
      id: toolUseId,
    });
    const text = contentText(result.content);
    if (result.denied !== undefined) {
      throw new ExpansionError(
        `/${deps.commandName} was not run: its command \`${command}\` was refused: ${result.denied}`,
      );
    }
    // A failing command's output (and its exit code line) is what the prompt shows, as Claude Code does.
    return text;
  };
}
