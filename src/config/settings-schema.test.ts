/**
 * `safeParseSettings` checks a file against an object of only the top-level keys it has (the
 * rest of the schema is not even made). It must answer exactly as the whole schema does: the same
 * success, the same values in the same key order, the same issues with the same paths and
 * messages — for valid files, files broken in each kind of section, and things that are not
 * objects at all.
 */
import { describe, expect, it } from 'vitest';
import * as z from '../lib/zod';
import { SETTINGS_KEYS, safeParseSettings, wholeSettingsSchema } from './settings-schema';

const FILES: Record<string, unknown> = {
  empty: {},
  'one key': { model: 'claude-opus-4-1' },
  'keys out of the schema order, unknown ones between': {
    zeta: 1,
    model: 'm',
    permissions: { deny: ['Bash(rm:*)'], allow: ['Read'], extra: true },
    alpha: { kept: [1, 2] },
    env: { A: 1, B: true, C: 'c' },
    hooks: { Stop: [{ hooks: ['echo stop', { type: 'command', command: 'x', timeout: 5000 }] }] },
  },
  'every kind of value': {
    bashOutputMaxChars: 1,
    defaultModeless: null,
    sandbox: {
      enabled: true,
      network: { allowedDomains: ['example.com'] },
      filesystem: { denyRead: ['~/.ssh'] },
    },
    models: { custom: { contextWindow: 200_000, inputPrice: 3 } },
    apiTimeouts: { connectMs: 1000 },
    context: { snip: true },
    worktree: { baseRef: 'head' },
    enabledPlugins: { 'p@m': true, 'q@m': ['x'] },
    permissions: { defaultMode: 'manual' },
  },
  'a bad deny list': { permissions: { deny: 'Bash(rm:*)' }, model: 'm' },
  'a hook without its command': {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command' }] }] },
  },
  'bad values in several sections': {
    autoCompactThreshold: 2,
    apiTimeouts: { connectMs: -1, totalMs: 1.5 },
    sandbox: { enabled: 'yes', network: { allowedDomains: 'x' } },
    effortLevel: 'extreme',
    models: { m: { contextWindow: 10 } },
  },
  'a key Yoke reads given the wrong type': { statusLine: { type: 'command' }, lsp: [] },
  'an array': [{ model: 'm' }],
  'a string': 'settings',
  null: null,
  'a number': 3,
};

const outcome = (result: z.core.util.SafeParseResult<unknown>) =>
  result.success
    ? { success: true, data: JSON.stringify(result.data) }
    : {
        success: false,
        issues: result.error.issues.map((issue) => ({
          code: issue.code,
          path: issue.path,
          message: issue.message,
        })),
      };

describe('safeParseSettings', () => {
  it.each(Object.entries(FILES))('answers as the whole schema does: %s', (_name, raw) => {
    const whole = z.safeParse(wholeSettingsSchema(), structuredClone(raw));
    expect(outcome(safeParseSettings(structuredClone(raw)))).toEqual(outcome(whole));
  });

  it('tells a bad file by the whole schema’s messages (the cases above do fail)', () => {
    const result = safeParseSettings(FILES['a bad deny list']);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['permissions', 'deny']);
    expect(safeParseSettings(FILES.null).success).toBe(false);
  });

  it('knows every key of the schema', () => {
    expect(SETTINGS_KEYS).toContain('permissions');
    expect(SETTINGS_KEYS).toContain('sandbox');
    expect(SETTINGS_KEYS.length).toBeGreaterThan(30);
  });
});
