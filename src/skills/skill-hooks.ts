/**
 * The session's hooks as the hook runner reads them, at each event: the settings' own, then the
 * enabled plugins', then a skill's `hooks:` once the skill has run. The runner holds one object
 * (`settings`), which is changed in place, so a change applies from the next event on.
 *
 * A skill's hooks are added once per skill and stay for the rest of the session, and only where
 * its author may widen what the session does (session-skills.ts: not an untrusted project's
 * skill, not when hooks are turned off). A plugin reload swaps the plugins' part whole: a removed
 * plugin's hooks stop, a new one's start, and the settings' and skills' hooks keep their place.
 */
import type { HooksSettings } from '../config/settings-schema';

export class LiveHooks {
  readonly settings: HooksSettings = {};
  private readonly base: HooksSettings;
  private plugins: HooksSettings;
  private readonly skills = new Map<string, HooksSettings>();

  constructor(settingsHooks: HooksSettings | undefined, pluginHooks?: HooksSettings) {
    // Copies: the loaded settings stay as they were read.
    this.base = { ...settingsHooks };
    this.plugins = { ...pluginHooks };
    this.rebuild();
  }

  /** Adds a skill's hooks unless they were added already; returns whether they were. */
  add(skill: string, hooks: HooksSettings): boolean {
    if (this.skills.has(skill)) return false;
    this.skills.set(skill, hooks);
    this.rebuild();
    return true;
  }

  /** The plugins' hooks after a plugin reload, in place of those read before. */
  replacePluginHooks(hooks: HooksSettings | undefined): void {
    this.plugins = { ...hooks };
    this.rebuild();
  }

  /** Whether any hook is configured: a session without one may run without a hook runner. */
  get isEmpty(): boolean {
    return Object.values(this.settings).every((groups) => groups.length === 0);
  }

  private rebuild(): void {
    for (const event of Object.keys(this.settings)) delete this.settings[event];
    for (const part of [this.base, this.plugins, ...this.skills.values()]) {
      for (const [event, groups] of Object.entries(part))
        this.settings[event] = [...(this.settings[event] ?? []), ...groups];
    }
  }
}
