/**
 * The session's prompt commands (custom commands, skills, MCP prompts) as registry entries. Running
 * one from the interactive UI submits its line as a turn: the engine's input step
 * (process-user-input.ts) expands it, the same way `-p` and stream-json do.
 */
import type { PromptCommandSpec } from '../skills/types';
import type { PromptCommand } from './types';

export function promptCommandOf(spec: PromptCommandSpec, isEnabled?: () => boolean): PromptCommand {
  // Where it comes from, as Claude Code's menu shows it: "(user)", "(project)", "(plugin)"…
  const description = `${spec.description} (${spec.source})`;
  return {
    kind: 'prompt',
    name: spec.name,
    description,
    ...(spec.argumentHint ? { argumentHint: spec.argumentHint } : {}),
    source: spec.source,
    userInvocable: spec.userInvocable,
    ...(isEnabled ? { isEnabled } : {}),
    run: async (args) => {
      const line = args === '' ? `/${spec.name}` : `/${spec.name} ${args}`;
      return { kind: 'prompt', prompt: line, display: line };
    },
  };
}
