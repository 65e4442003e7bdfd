import { describe, expect, it } from 'vitest';
import { CLAUDE_CODE_SETTINGS_KEYS } from './claude-settings-keys';
import { settingsNotices } from './settings-notices';
import { SETTINGS_KEYS } from './settings-schema';

const user = '/home/u/.claude/settings.json';
const project = '/p/.yoke/settings.json';

describe('settingsNotices', () => {
  it('is silent for the keys Yoke acts on and for $schema', () => {
    const settings = { $schema: 'x', model: 'sonnet', permissions: { allow: ['Read'], defaultMode: 'plan' } };
    expect(settingsNotices([{ label: project, settings }])).toEqual({ warnings: [], errors: [] });
  });

  it('takes a misspelt restricting key for a lost restriction, not a warning', () => {
    const { warnings, errors } = settingsNotices([
      {
        label: project,
        source: 'projectSettings',
        settings: {
          permisions: { deny: ['Bash'] },
          hook: {},
          permissions: { Deny: ['Read(./.env)'], alow: [] },
        },
      },
    ]);
    expect(errors).toEqual([
      {
        file: project,
        keyPath: 'permisions',
        source: 'projectSettings',
        message: `Invalid settings ${project}: unknown key "permisions" (did you mean "permissions"?)`,
        lostRestrictions:
          'deny rules, ask rules, disableBypassPermissionsMode, disableAutoMode, denyInsteadOfPrompting',
      },
      {
        file: project,
        keyPath: 'hook',
        source: 'projectSettings',
        message: `Invalid settings ${project}: unknown key "hook" (did you mean "hooks"?)`,
        lostRestrictions: 'hooks',
      },
      {
        file: project,
        keyPath: 'permissions.Deny',
        source: 'projectSettings',
        message: `Invalid settings ${project}: unknown key "permissions.Deny" (did you mean "permissions.deny"?)`,
        lostRestrictions: 'deny rules',
      },
    ]);
    // A typo of a key whose loss only asks more stays a warning.
    expect(warnings).toEqual([
      `settings ${project}: unknown key "permissions.alow" (did you mean "permissions.allow"?); it has no effect`,
    ]);
  });

  it('names an unknown key with the nearest known one, top level and in permissions', () => {
    const { warnings } = settingsNotices([
      { label: project, settings: { modle: 'x', permissions: { alow: ['Read'] }, frobnicate: 1 } },
    ]);
    expect(warnings).toEqual([
      `settings ${project}: unknown key "modle" (did you mean "model"?); it has no effect`,
      `settings ${project}: unknown key "frobnicate"; it has no effect`,
      `settings ${project}: unknown key "permissions.alow" (did you mean "permissions.allow"?); it has no effect`,
    ]);
  });

  it('checks the keys of the context object too: a typo would switch nothing on', () => {
    const { warnings } = settingsNotices([
      { label: project, settings: { context: { snip: true, colapse: true } } },
    ]);
    expect(warnings).toEqual([
      `settings ${project}: unknown key "context.colapse" (did you mean "context.collapse"?); it has no effect`,
    ]);
  });

  it('says nothing of the .mcp.json approvals, which the MCP loader reads (src/mcp/config-sources.ts)', () => {
    const { warnings, errors } = settingsNotices([
      {
        label: project,
        settings: {
          enableAllProjectMcpServers: true,
          enabledMcpjsonServers: ['github'],
          disabledMcpjsonServers: ['slack'],
        },
      },
    ]);
    expect({ warnings, errors }).toEqual({ warnings: [], errors: [] });
  });

  it('names every Claude Code key Yoke does not act on in one line, with the files that set it', () => {
    const { warnings } = settingsNotices([
      {
        label: user,
        settings: { subagentStatusLine: { type: 'command', command: 'x' }, outputStyle: 'Explanatory' },
      },
      {
        label: project,
        settings: {
          subagentStatusLine: { type: 'command', command: 'y' },
          permissions: { blockWritesOutsideWorkingDirectories: true },
        },
      },
    ]);
    expect(warnings).toEqual([
      `settings: Yoke does not act on these Claude Code settings yet, so they have no effect: subagentStatusLine (${user}, ${project}), outputStyle (${user}), permissions.blockWritesOutsideWorkingDirectories (${project})`,
    ]);
  });

  it('derives the list from data: every Claude Code key outside the schema is named, none inside it', () => {
    const settings = Object.fromEntries(CLAUDE_CODE_SETTINGS_KEYS.map((key) => [key, null]));
    const [line] = settingsNotices([{ label: user, settings }]).warnings;
    const list = (line ?? '').split('so they have no effect: ')[1] ?? '';
    const named = new Set(list.split(`(${user})`).map((item) => item.replace(/^, /, '').trim()));
    for (const key of CLAUDE_CODE_SETTINGS_KEYS) {
      const implemented = SETTINGS_KEYS.includes(key) || key === '$schema';
      expect(named.has(key), key).toBe(!implemented);
    }
  });

  it('names no sandbox key: the sandbox settings are read (src/sandbox/)', () => {
    const { warnings } = settingsNotices([
      { label: user, settings: { sandbox: { enabled: true, failIfUnavailable: true } } },
    ]);
    expect(warnings).toEqual([]);
  });
});
