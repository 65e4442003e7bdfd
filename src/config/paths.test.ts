import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeHome, managedSettingsPath, settingsFilePaths, yokeHome } from './paths';

describe('config paths', () => {
  it('defaults to folders in HOME and honours the override variables', () => {
    expect(yokeHome({ HOME: '/h' })).toBe('/h/.yoke');
    expect(claudeHome({ HOME: '/h' })).toBe('/h/.claude');
    expect(yokeHome({ HOME: '/h', YOKE_HOME: '/y' })).toBe('/y');
    expect(claudeHome({ HOME: '/h', CLAUDE_CONFIG_DIR: '/c' })).toBe('/c');
    expect(managedSettingsPath({})).toBe('/etc/yoke/managed-settings.json');
    expect(managedSettingsPath({ YOKE_MANAGED_SETTINGS: '/m.json' })).toBe('/m.json');
  });

  it('lists the Claude file before the Yoke file so Yoke wins', () => {
    expect(settingsFilePaths('local', '/p', {})).toEqual([
      join('/p', '.claude', 'settings.local.json'),
      join('/p', '.yoke', 'settings.local.json'),
    ]);
  });
});
