/**
 * The frontmatter keys of commands and skills (compat-surface §5), read into a spec. A value of
 * the wrong type is reported (which key, what it should be) and left out; the file still loads.
 */
import { hooksSettingsSchema } from '../config/settings-schema';
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

export function specFields(
  data: Record<string, unknown>,
  fallbackDescription: string,
  problems: string[],
): SpecFields {
  const wrong = (key: string, expected: string) => problems.push(`"${key}" should be ${expected}`);
  const pick = <T>(key: string, read: (v: unknown) => T | undefined, expected: string): T | undefined => {
    const raw = data[key];
    if (raw === undefined || raw === null) return undefined;
    const value = read(raw);
    if (value === undefined) wrong(key, expected);
    return value;
  };
  const description = pick('description', (v) => text(v), 'a string');
  const whenToUse =
    pick('when_to_use', (v) => text(v), 'a string') ?? pick('whenToUse', (v) => text(v), 'a string');
  const argumentHint = pick('argument-hint', (v) => text(v), 'a string');
  const argumentNames = pick('arguments', list, 'a list of names') ?? [];
  const allowedTools = pick('allowed-tools', list, 'a list of tool rules') ?? [];
  const rawModel = pick('model', (v) => text(v), 'a model id or alias');
  const disableModelInvocation = pick('disable-model-invocation', flag, 'true or false') ?? false;
  const userInvocable = pick('user-invocable', flag, 'true or false') ?? true;
  const context = pick(
    'context',
    (v) => (v === 'fork' || v === 'inline' ? v : undefined),
    '"inline" or "fork"',
  );
  const agent = pick('agent', (v) => text(v), 'an agent type');
  const paths = pick('paths', list, 'a list of globs') ?? [];
  const hooks = pick(
    'hooks',
    (v) => {
      const parsed = hooksSettingsSchema.safeParse(v);
      return parsed.success ? parsed.data : undefined;
    },
    'a hooks object as in settings ({"PreToolUse": [{"matcher": …, "hooks": [...]}]})',
  );
  return {
    description: description ?? fallbackDescription,
    hasUserSpecifiedDescription: description !== undefined,
    ...(whenToUse ? { whenToUse } : {}),
    ...(argumentHint ? { argumentHint } : {}),
    argumentNames,
    allowedTools,
    ...(rawModel && rawModel !== 'inherit' ? { model: rawModel } : {}),
    disableModelInvocation,
    userInvocable,
    context: context ?? 'inline',
    ...(agent ? { agent } : {}),
    paths,
    ...(hooks && Object.keys(hooks).length > 0 ? { hooks } : {}),
  };
}
