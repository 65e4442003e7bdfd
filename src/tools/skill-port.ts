/**
 * What the Skill tool asks of its session: the session's skills live above the tools
 * (src/skills/), so the tool reaches them through this port on `SessionServices.skills`, which the
 * composition root fills. A session without skills has none, and the tool says so.
 */
import type { UserContentBlock } from '../model/types';
import type { PermissionRule } from '../permissions/types';
import type { ToolUseContext } from './context';

export type SkillLaunch = {
  /** The name as the listing has it. */
  commandName: string;
  /** The expanded body, for the user turn after the tool result. */
  body: UserContentBlock[];
  /** Attached files, each a meta message after the body. */
  attachments: readonly UserContentBlock[][];
  /** The skill's allowed-tools, in force for the rest of the turn (none when they may not widen). */
  allowRules: readonly PermissionRule[];
  /** The skill's `model` (a full id), which answers for the rest of the turn. */
  model?: string;
};

export interface SkillPort {
  /**
   * Expands a skill the model may invoke; throws an Error whose message is for the model when it
   * may not (unknown, user-only, a `!` command refused).
   */
  launch(name: string, args: string, context: ToolUseContext): Promise<SkillLaunch>;
}
