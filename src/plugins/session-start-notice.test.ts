import { describe, expect, it } from 'vitest';
import type { HooksSettings } from '../config/settings-schema';
import { NO_PLUGINS, type SessionPlugins } from './session-plugins';
import { newSessionStartHooks, sessionStartNotice } from './session-start-notice';
import type { LoadedPlugin } from './types';

const start = (command: string): HooksSettings => ({
  SessionStart: [{ hooks: [{ type: 'command', command }] }],
});

/** Plugins as the session holds them; `hooksOn: false` is a policy that turned plugin hooks off. */
function plugins(hooks: Record<string, HooksSettings | undefined>, hooksOn = true): SessionPlugins {
  const list = Object.entries(hooks).map(
    ([name, h]) => ({ pluginName: name, ...(h ? { hooks: h } : {}) }) as unknown as LoadedPlugin,
  );
  const merged = Object.values(hooks).flatMap((h) => h?.SessionStart ?? []);
  return {
    ...NO_PLUGINS,
    plugins: list,
    hooks: hooksOn && merged.length > 0 ? { SessionStart: merged } : undefined,
  };
}

describe('newSessionStartHooks', () => {
  it('names a new plugin’s and a changed plugin’s SessionStart hooks, not an unchanged one’s', () => {
    const before = plugins({ same: start('echo same'), edited: start('echo v1'), plain: undefined });
    const after = plugins({
      same: start('echo same'),
      edited: start('echo v2'),
      plain: undefined,
      fresh: start('echo fresh'),
    });
    expect(newSessionStartHooks(before, after)).toEqual(['edited', 'fresh']);
    expect(newSessionStartHooks(after, after)).toEqual([]);
  });

  it('names none when a policy turned plugin hooks off: they would not run at a start either', () => {
    expect(newSessionStartHooks(NO_PLUGINS, plugins({ fresh: start('echo fresh') }, false))).toEqual([]);
  });

  it('says it in one line, naming the plugins', () => {
    expect(sessionStartNotice(['a', 'b'])).toBe(
      'reload: the SessionStart hooks of plugins "a", "b" did not run: a reload does not start the session again; they run when a session starts (a new session, a resume, or /clear in the REPL).',
    );
  });
});
