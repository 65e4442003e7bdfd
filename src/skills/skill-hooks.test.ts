import { describe, expect, it } from 'vitest';
import type { HooksSettings } from '../config/settings-schema';
import { LiveHooks } from './skill-hooks';

const group = (command: string) => ({ hooks: [{ type: 'command' as const, command }] });
const commands = (hooks: HooksSettings, event: string) =>
  (hooks[event] ?? []).flatMap((g) => g.hooks.map((h) => ('command' in h ? h.command : h.type)));

describe('LiveHooks', () => {
  it('keeps settings, plugin and skill hooks in that order; a plugin reload swaps only the plugins’ part, in the same object', () => {
    const live = new LiveHooks({ Stop: [group('settings')] }, { Stop: [group('plugin-v1')] });
    const seen = live.settings;
    expect(live.add('lint', { Stop: [group('skill')], PreToolUse: [group('skill-pre')] })).toBe(true);
    expect(live.add('lint', { Stop: [group('skill-again')] })).toBe(false);
    expect(commands(seen, 'Stop')).toEqual(['settings', 'plugin-v1', 'skill']);

    live.replacePluginHooks({ Stop: [group('plugin-v2')], SessionStart: [group('plugin-start')] });
    // The runner holds `seen`: it reads the new set at its next event.
    expect(live.settings).toBe(seen);
    expect(commands(seen, 'Stop')).toEqual(['settings', 'plugin-v2', 'skill']);
    expect(commands(seen, 'SessionStart')).toEqual(['plugin-start']);
    expect(commands(seen, 'PreToolUse')).toEqual(['skill-pre']);

    live.replacePluginHooks(undefined);
    expect(commands(seen, 'Stop')).toEqual(['settings', 'skill']);
    expect(seen.SessionStart).toBeUndefined();
  });

  it('leaves the settings it was given as they were read', () => {
    const settings: HooksSettings = { Stop: [group('settings')] };
    const live = new LiveHooks(settings, { Stop: [group('plugin')] });
    live.add('skill', { Stop: [group('skill')] });
    expect(commands(settings, 'Stop')).toEqual(['settings']);
  });
});
