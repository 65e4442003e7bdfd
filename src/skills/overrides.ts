/**
 * `skillOverrides` in settings (compat-surface §3.2): per skill or command name, how far it is
 * offered. `on` is the default; `name-only` lists it to the model without its description (fewer
 * tokens); `user-invocable-only` keeps it from the model (the listing and the Skill tool) while
 * `/name` still works; `off` leaves it out of the session altogether.
 */
import type { PromptCommandSpec } from './types';

export const SKILL_OVERRIDES = ['on', 'name-only', 'user-invocable-only', 'off'] as const;
export type SkillOverride = (typeof SKILL_OVERRIDES)[number];
export type SkillOverrides = Readonly<Record<string, SkillOverride>>;

/** A lookup by name, as the slash and the Skill tool match names: ignoring case. */
export function skillOverrideLookup(overrides: SkillOverrides | undefined): (name: string) => SkillOverride {
  const byName = new Map(Object.entries(overrides ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  return (name) => byName.get(name.toLowerCase()) ?? 'on';
}

/** The specs the session keeps: every one not turned `off`. */
export function withoutDisabled(
  specs: readonly PromptCommandSpec[],
  overrides: SkillOverrides | undefined,
): PromptCommandSpec[] {
  if (!overrides || Object.keys(overrides).length === 0) return [...specs];
  const lookup = skillOverrideLookup(overrides);
  return specs.filter((spec) => lookup(spec.name) !== 'off');
}
