import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeHome, homeDir, managedSettingsPath, settingsFilePaths, yokeHome } from './paths';

describe('config paths', () => {
  it('defaults to folders in HOME and honours the override variables', () => {
    expect(yokeHome({ HOME: '/h' })).toBe('/h/.yoke');
    expect(claudeHome({ HOME: '/h' })).toBe('/h/.claude');
    expect(yokeHome({ HOME: '/h', YOKE_HOME: '/y' })).toBe('/y');
    expect(claudeHome({ HOME: '/h', CLAUDE_CONFIG_DIR: '/c' })).toBe('/c');
    expect(managedSettingsPath({})).toBe('/etc/yoke/managed-settings.json');
    expect(managedSettingsPath({ YOKE_MANAGED_SETTINGS: '/m.json' })).toBe('/m.json');
  });

  it("an empty, unset or relative HOME falls back to the account's home folder, never the working folder", () => {
    const account = () => '/home/alice';
    for (const HOME of ['', undefined, '.', 'relative/home'])
      expect(homeDir(HOME === undefined ? {} : { HOME }, account)).toBe('/home/alice');
    expect(homeDir({ HOME: '/h' }, account)).toBe('/h');
    // The real fallback (the password database) gives an absolute path on this machine too.
    expect(yokeHome({ HOME: '' })).toMatch(/^\/.*\.yoke$/);
  });

  it('says what to set when neither HOME nor the account names a home folder', () => {
    expect(() => homeDir({ HOME: '' }, () => undefined)).toThrow(
      'Yoke cannot tell your home folder: HOME is empty and your account has no home folder. Set HOME to it.',
    );
    expect(() => homeDir({ HOME: 'x' }, () => '')).toThrow('HOME is "x", not an absolute path');
  });

  it('lists the Claude file before the Yoke file so Yoke wins', () => {
    expect(settingsFilePaths('local', '/p', {})).toEqual([
      join('/p', '.claude', 'settings.local.json'),
      join('/p', '.yoke', 'settings.local.json'),
    ]);
  });
});
