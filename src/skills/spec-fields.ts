/**
 * The frontmatter keys of commands and skills (compat-surface §5), read into a spec. A value of
 * the wrong type is reported (which key, what it should be) and left out; the file still loads.
 */
import { type HooksSettings, hooksSettingsSchema } from '../config/settings-schema';
import { EFFORT_LEVELS, type EffortLevel, isEffortLevel } from '../model/effort';
import { splitRuleList } from '../permissions/permission-context';
import type { PromptCommandSpec } from './types';

export type SpecFields = Pick<
  PromptCommandSpec,
  | 'description'
  | 'hasUserSpecifiedDescription'
  | 'whenToUse'
  | 'argumentHint'
  | 'argumentNames'
  | 'allowedTools'
  | 'model'
  | 'effort'
  | 'disableModelInvocation'
  | 'userInvocable'
  | 'context'
  | 'agent'
  | 'paths'
  | 'hooks'
>;

/** A string, or a list of strings joined by `joiner`; undefined when absent or empty. */
function text(value: unknown, joiner = ' '): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number'))
    return value.length === 0 ? undefined : value.join(joiner);
  return undefined;
}

/** A list written as YAML list or as one comma/space separated string. */
function list(value: unknown): string[] | undefined {
  if (typeof value === 'string') return splitRuleList([value]);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string'))
    return splitRuleList(value as string[]);
  return undefined;
}

function flag(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

/** How each key is read, and what it should be when it cannot be. */
const READERS = new Map<string, { read: (v: unknown) => unknown; expected: string }>(
  Object.entries({
    description: { read: (v) => text(v), expected: 'a string' },
    when_to_use: { read: (v) => text(v), expected: 'a string' },
    whenToUse: { read: (v) => text(v), expected: 'a string' },
    'argument-hint': { read: (v) => text(v), expected: 'a string' },
    arguments: { read: list, expected: 'a list of names' },
    'allowed-tools': { read: list, expected: 'a list of tool rules' },
    model: { read: (v) => text(v), expected: 'a model id or alias' },
    effort: { read: (v) => (isEffortLevel(v) ? v : undefined), expected: EFFORT_LEVELS.join(', ') },
    'disable-model-invocation': { read: flag, expected: 'true or false' },
    'user-invocable': { read: flag, expected: 'true or false' },
    context: {
      read: (v) => (v === 'fork' || v === 'inline' ? v : undefined),
      expected: '"inline" or "fork"',
    },
    agent: { read: (v) => text(v), expected: 'an agent type' },
    paths: { read: list, expected: 'a list of globs' },
    hooks: {
      read: (v) => {
        const parsed = hooksSettingsSchema().safeParse(v);
        return parsed.success ? parsed.data : undefined;
      },
      expected: 'a hooks object as in settings ({"PreToolUse": [{"matcher": …, "hooks": [...]}]})',
    },
  }),
);

export function specFields(
  data: Record<string, unknown>,
  fallbackDescription: string,
  problems: string[],
): SpecFields {
  // Only the keys a file has are read: a few each, where hundreds of files load at start.
  const got: Record<string, unknown> = {};
  for (const key in data) {
    // A Map: a key such as `constructor` or `__proto__` in a file is just an unknown key.
    const reader = READERS.get(key);
    const raw = data[key];
    if (!reader || raw === undefined || raw === null) continue;
    const value = reader.read(raw);
    if (value === undefined) problems.push(`"${key}" should be ${reader.expected}`);
    else got[key] = value;
  }
  const description = got.description as string | undefined;
  const whenToUse = (got.when_to_use ?? got.whenToUse) as string | undefined;
  const argumentHint = got['argument-hint'] as string | undefined;
  const model = got.model as string | undefined;
  const agent = got.agent as string | undefined;
  const effort = got.effort as EffortLevel | undefined;
  const hooks = got.hooks as HooksSettings | undefined;
  return {
    description: description ?? fallbackDescription,
    hasUserSpecifiedDescription: description !== undefined,
    ...(whenToUse ? { whenToUse } : {}),
    ...(argumentHint ? { argumentHint } : {}),
    argumentNames: (got.arguments as string[] | undefined) ?? [],
    allowedTools: (got['allowed-tools'] as string[] | undefined) ?? [],
    ...(model && model !== 'inherit' ? { model } : {}),
    ...(effort ? { effort } : {}),
    disableModelInvocation: (got['disable-model-invocation'] as boolean | undefined) ?? false,
    userInvocable: (got['user-invocable'] as boolean | undefined) ?? true,
    context: (got.context as 'inline' | 'fork' | undefined) ?? 'inline',
    ...(agent ? { agent } : {}),
    paths: (got.paths as string[] | undefined) ?? [],
    ...(hooks && Object.keys(hooks).length > 0 ? { hooks } : {}),
  };
}
