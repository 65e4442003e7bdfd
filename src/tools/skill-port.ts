/**
 * What the Skill tool asks of its session: the session's skills live above the tools
 * (src/skills/), so the tool reaches them through this port on `SessionServices.skills`, which the
 * composition root fills. A session without skills has none, and the tool says so.
 */
import type { EffortLevel } from '../model/effort';
import type { UserContentBlock } from '../model/types';
import type { PermissionRule } from '../permissions/types';
import type { ToolUseContext } from './context';
import type { ToolProgress } from './tool';

/** An inline skill: its body joins the conversation and the model carries it out. */
export type InlineSkillLaunch = {
  kind: 'inline';
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
  /** The skill's `effort`, for the rest of the turn (unless `--effort` pinned the session's). */
  effort?: EffortLevel;
};

/** A `context: fork` skill: a subagent ran it to its end; only its report comes back. */
export type ForkedSkillLaunch = {
  kind: 'forked';
  commandName: string;
  agentId: string;
  agentType: string;
  /** The worker's report and its usage line: the tool result the model reads. */
  text: string;
  /** The Agent tool's output fields for the same run (usage, tokens, duration, model, end reason). */
  details: Record<string, unknown>;
  /** The worker did not end normally (a budget, an error): the result is marked as an error. */
  isError: boolean;
};

export type SkillLaunch = InlineSkillLaunch | ForkedSkillLaunch;

export interface SkillPort {
  /**
   * Runs a skill the model may invoke: expands an inline one, runs a forked one in a subagent
   * whose messages go out as the call's progress. Throws an Error whose message is for the model
   * when it may not (unknown, user-only, a `!` command refused, a fork inside a fork).
   * `inline` expands even a `context: fork` skill in place: an agent preloading it is already
   * the separate context a fork would make.
   */
  launch(
    name: string,
    args: string,
    context: ToolUseContext,
    onProgress?: (progress: ToolProgress) => void,
    options?: { inline?: boolean },
  ): Promise<SkillLaunch>;
}
