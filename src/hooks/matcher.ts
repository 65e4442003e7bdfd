/**
 * Hook matchers as Claude Code reads them (compat-surface §2.2): empty or `*` matches all; a
 * string of name characters is an exact, case-sensitive name or a `|`/`,` list of names; any
 * other string is a JavaScript regex tested unanchored.
 */

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

/** Events whose matcher is ignored (compat-surface §2.4 lists no matcher target for them). */
const UNMATCHED_EVENTS = new Set(['UserPromptSubmit', 'Stop', 'PostSampling']);

/** What an event's matcher is compared with: the tool name for tool events, else its documented field. */
export function matchTargetFor(event: string, payload: Record<string, unknown>): string | undefined {
  if (UNMATCHED_EVENTS.has(event)) return undefined;
  const field = TARGET_FIELDS[event];
  const value = field === undefined ? undefined : payload[field];
  if (typeof value === 'string') return value;
  // StopFailure carries the error object; its kind is what a matcher names.
  if (event === 'StopFailure' && typeof value === 'object' && value !== null) {
    const kind = (value as { type?: unknown }).type;
    return typeof kind === 'string' ? kind : undefined;
  }
  return undefined;
}

const TARGET_FIELDS: Record<string, string> = {
  PreToolUse: 'tool_name',
  PostToolUse: 'tool_name',
  PostToolUseFailure: 'tool_name',
  PermissionRequest: 'tool_name',
  PermissionDenied: 'tool_name',
  SessionStart: 'source',
  SessionEnd: 'reason',
  Notification: 'notification_type',
  PreCompact: 'trigger',
  PostCompact: 'trigger',
  SubagentStart: 'agent_type',
  SubagentStop: 'agent_type',
  StopFailure: 'error',
  ConfigChange: 'source',
};
