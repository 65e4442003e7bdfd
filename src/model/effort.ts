/**
 * Effort: how much a model should spend on an answer (`--effort`, the `effortLevel` setting, an
 * agent's or a skill's `effort`). Who decides it is `EffortChoice` (the flag pins it, the rest
 * may be overridden while an agent or skill runs); what reaches the wire is decided per model,
 * because a model that does not take the field rejects the whole request.
 *
 * Anthropic: `output_config.effort`, only for models the table lists with effort levels; a level
 * above the model's highest is sent as its highest. OpenAI-compatible servers: `reasoning_effort`,
 * whose common vocabulary ends at `high`, so `xhigh` and `max` go as `high`; a model the table
 * knows as a non-reasoning one gets none.
 */
import { getModelInfo } from './models';
import type { ProviderName } from './types';

export const EFFORT_LEVELS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
export type EffortLevel = (typeof EFFORT_LEVELS)[number];
/** The `effortLevel` setting takes these (Claude Code: `max` only per session). */
export const SETTING_EFFORT_LEVELS = ['low', 'medium', 'high', 'xhigh'] as const;

export const isEffortLevel = (value: unknown): value is EffortLevel =>
  typeof value === 'string' && (EFFORT_LEVELS as readonly string[]).includes(value);

/**
 * The effort in force and where it came from. `flag` (`--effort`) holds for everything the
 * session runs; an agent's or a skill's own effort replaces any other while it runs.
 */
export type EffortChoice = { level: EffortLevel; source: 'flag' | 'agent' | 'skill' | 'setting' };

/** The choice once an agent or skill with `level` starts: the flag's stays, otherwise `level` wins. */
export function overrideEffort(
  current: EffortChoice | undefined,
  level: EffortLevel | undefined,
  source: 'agent' | 'skill',
): EffortChoice | undefined {
  if (level === undefined || current?.source === 'flag') return current;
  return { level, source };
}

/** `holder` (a loop's context) with an agent's or skill's effort applied, as `overrideEffort` decides. */
export function withEffortOverride<T extends { effort?: EffortChoice }>(
  holder: T,
  level: EffortLevel | undefined,
  source: 'agent' | 'skill',
): T {
  const effort = overrideEffort(holder.effort, level, source);
  return effort === undefined || effort === holder.effort ? holder : { ...holder, effort };
}

/** The session's effort: `--effort` > the `--agent`'s > the `effortLevel` setting > none (model default). */
export function sessionEffort(sources: {
  flag?: EffortLevel | undefined;
  agent?: EffortLevel | undefined;
  setting?: EffortLevel | undefined;
}): EffortChoice | undefined {
  if (sources.flag) return { level: sources.flag, source: 'flag' };
  if (sources.agent) return { level: sources.agent, source: 'agent' };
  if (sources.setting) return { level: sources.setting, source: 'setting' };
  return undefined;
}

/** What goes on the wire for a requested level, and what the user should be told about it. */
export type WireEffort = { value?: EffortLevel; note?: string };

const OPENAI_HIGHEST: EffortLevel = 'high';

export function wireEffort(wire: ProviderName, model: string, level: EffortLevel): WireEffort {
  const info = getModelInfo(model);
  if (wire === 'openai') {
    if (info && info.effortLevels === undefined) return { note: ignoredNote(model, level) };
    const rank = EFFORT_LEVELS.indexOf(level);
    const value = rank > EFFORT_LEVELS.indexOf(OPENAI_HIGHEST) ? OPENAI_HIGHEST : level;
    return value === level ? { value } : { value, note: cappedNote(model, level, value) };
  }
  if (wire !== 'anthropic') return {};
  // A model the table does not know may refuse the field, and the whole request with it.
  if (!info) return { note: unknownNote(model, level) };
  const levels = info.effortLevels;
  if (!levels || levels.length === 0) return { note: ignoredNote(model, level) };
  if (levels.includes(level)) return { value: level };
  // The highest level the model takes that is not above the one asked for.
  const rank = EFFORT_LEVELS.indexOf(level);
  const value = [...levels].reverse().find((l) => EFFORT_LEVELS.indexOf(l) <= rank) ?? levels[0];
  return value === undefined
    ? { note: ignoredNote(model, level) }
    : { value, note: cappedNote(model, level, value) };
}

const ignoredNote = (model: string, level: EffortLevel) =>
  `effort "${level}" is not sent: ${model} does not take an effort setting, so it answers at its default.`;
const unknownNote = (model: string, level: EffortLevel) =>
  `effort "${level}" is not sent: Yoke does not know whether ${model} takes an effort setting, so it answers at its default.`;
const cappedNote = (model: string, level: EffortLevel, value: EffortLevel) =>
  `effort "${level}" is sent as "${value}": the highest ${model} takes.`;
