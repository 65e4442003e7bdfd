/**
 * Hook matchers as Claude Code reads them (compat-surface §2.2): empty or `*` matches all; a
 * string of name characters is an exact, case-sensitive name or a `|`/`,` list of names; any
 * other string is a JavaScript regex tested unanchored.
 */

import type { HookEvent, HookPayload } from './types';

const NAME_LIST = /^[\w\s|,-]+$/;
// Process-wide on purpose: a compiled matcher depends on its text alone, the same in every session.
const regexCache = new Map<string, RegExp | null>();

/** Whether `matcher` selects `target`; events without a target ignore their matcher. */
export function matchesTarget(matcher: string | undefined, target: string | undefined): boolean {
  if (matcher === undefined || matcher.trim() === '' || matcher.trim() === '*') return true;
  if (target === undefined) return true;
  if (NAME_LIST.test(matcher)) {
    return matcher
      .split(/[|,]/)
      .map((name) => name.trim())
      .some((name) => name === target);
  }
  const regex = compile(matcher);
  return regex?.test(target) === true;
}

/** A matcher that is neither a name list nor a valid regex; the runner reports it once. */
export function isInvalidMatcher(matcher: string | undefined): boolean {
  if (matcher === undefined || NAME_LIST.test(matcher) || matcher.trim() === '*') return false;
  return compile(matcher) === null;
}

function compile(source: string): RegExp | null {
  let regex = regexCache.get(source);
  if (regex === undefined) {
    try {
      regex = new RegExp(source);
    } catch {
      regex = null;
    }
    regexCache.set(source, regex);
  }
  return regex;
}

/**
 * The payload field an event's matcher is compared with (compat-surface §2.4): the tool name for
 * tool events, else the documented field. Events without one (UserPromptSubmit, Stop,
 * PostSampling) ignore their matcher.
 */
const TARGET_FIELDS: { [E in HookEvent]?: keyof HookPayload<E> & string } = {
  PreToolUse: 'tool_name',
  PostToolUse: 'tool_name',
  PostToolUseFailure: 'tool_name',
  PermissionRequest: 'tool_name',
  SessionStart: 'source',
  SessionEnd: 'reason',
  Notification: 'notification_type',
  PreCompact: 'trigger',
  SubagentStart: 'agent_type',
  SubagentStop: 'agent_type',
  StopFailure: 'error',
  UserPromptExpansion: 'command_name',
  PreSkillShellCommand: 'command_name',
};

/** What an event's matcher is compared with; undefined for events that ignore it. */
export function matchTargetFor<E extends HookEvent>(event: E, payload: HookPayload<E>): string | undefined {
  const field = TARGET_FIELDS[event];
  const value = field === undefined ? undefined : payload[field];
  return typeof value === 'string' ? value : undefined;
}
