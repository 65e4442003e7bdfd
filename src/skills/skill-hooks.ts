/**
 * A skill's `hooks:` join the session's hooks once the skill runs, and stay for the rest of the
 * session (the hook runner reads its settings at each event, so an added group applies from the
 * next event on). Added once per skill, and only where its author may widen what the session
 * does (session-skills.ts: not an untrusted project's skill, not when hooks are turned off).
 */
import type { HooksSettings } from '../config/settings-schema';

/** The session's hooks as the runner reads them: the settings' own, and the skills' added later. */
export class LiveHooks {
  readonly settings: HooksSettings;
  private readonly added = new Set<string>();

  constructor(initial: HooksSettings | undefined) {
    // A copy: the loaded settings stay as they were read.
    this.settings = Object.fromEntries(
      Object.entries(initial ?? {}).map(([event, groups]) => [event, [...groups]]),
    );
  }

  /** Adds a skill's hooks unless they were added already; returns whether they were. */
  add(skill: string, hooks: HooksSettings): boolean {
    if (this.added.has(skill)) return false;
    this.added.add(skill);
    for (const [event, groups] of Object.entries(hooks)) {
      this.settings[event] = [...(this.settings[event] ?? []), ...groups];
    }
    return true;
  }
}
