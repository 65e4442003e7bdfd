/** Rule strings, and settings → permission context. */
import { describe, expect, it } from 'vitest';
import { buildPermissionContext, modeRefusal, splitRuleList } from './permission-context';
import { formatRule, parseRuleValue } from './rule-string';

describe('rule strings', () => {
  it('parses and formats Tool and Tool(specifier), resolving aliases', () => {
    expect(parseRuleValue('Bash(npm run:*)')).toEqual({ toolName: 'Bash', ruleContent: 'npm run:*' });
    expect(parseRuleValue('Bash(echo (x))')).toEqual({ toolName: 'Bash', ruleContent: 'echo (x)' });
    expect(parseRuleValue('Read')).toEqual({ toolName: 'Read' });
    expect(parseRuleValue('Bash(*)')).toEqual({ toolName: 'Bash' });
    expect(parseRuleValue('Task(Explore)')).toEqual({ toolName: 'Agent', ruleContent: 'Explore' });
    expect(parseRuleValue('KillShell')).toEqual({ toolName: 'TaskStop' });
    expect(parseRuleValue('mcp__db__*')).toEqual({ toolName: 'mcp__db__*' });
    expect(parseRuleValue('Bash(unclosed')).toBeUndefined();
    expect(parseRuleValue('')).toBeUndefined();
    expect(formatRule({ toolName: 'WebFetch', ruleContent: 'domain:example.com' })).toBe(
      'WebFetch(domain:example.com)',
    );
  });

  it('splits --allowedTools lists on commas and spaces outside parentheses', () => {
    expect(splitRuleList(['Bash(npm test),Read', 'Edit(src/**) WebFetch'])).toEqual([
      'Bash(npm test)',
      'Read',
      'Edit(src/**)',
      'WebFetch',
    ]);
    // Nested and unbalanced parentheses keep what is inside them together.
    expect(splitRuleList(['Bash(echo (a b)), Read', 'Bash(unclosed x, y', 'Read) Edit'])).toEqual([
      'Bash(echo (a b))',
      'Read',
      'Bash(unclosed x, y',
      'Read)',
      'Edit',
    ]);
    expect(splitRuleList(['  Bash( git status ) ,, Read\tWrite '])).toEqual([
      'Bash( git status )',
      'Read',
      'Write',
    ]);
  });
});

describe('buildPermissionContext', () => {
  it('tags each rule with its source and adds CLI rules', () => {
    const context = buildPermissionContext({
      settingsSources: [
        { source: 'userSettings', settings: { permissions: { allow: ['Bash(npm test)'] } } },
        { source: 'policySettings', settings: { permissions: { deny: ['WebFetch'] } } },
      ],
      cliAllowed: ['Read'],
      cliDisallowed: ['Bash(rm:*)'],
      cwd: '/p',
    });
    expect(context.rules).toEqual([
      { toolName: 'Bash', ruleContent: 'npm test', behavior: 'allow', source: 'userSettings' },
      { toolName: 'WebFetch', behavior: 'deny', source: 'policySettings' },
      { toolName: 'Bash', ruleContent: 'rm:*', behavior: 'deny', source: 'cliArg' },
      { toolName: 'Read', behavior: 'allow', source: 'cliArg' },
    ]);
    expect(context.mode).toBe('default');
  });

  it('gates project settings by folder trust, as the trust table pins it', () => {
    const project = {
      source: 'projectSettings' as const,
      settings: {
        permissions: { allow: ['Bash(npm test)'], ask: ['Bash(git push:*)'], deny: ['Read(.env)'] },
      },
    };
    const local = { source: 'localSettings' as const, settings: { permissions: { allow: ['Bash(make)'] } } };
    const names = (trusted: boolean) =>
      buildPermissionContext({ settingsSources: [project, local], projectTrusted: trusted }).rules.map(
        (r) => `${r.behavior} ${r.ruleContent} ${r.source}`,
      );
    expect(names(false)).toEqual([
      'deny .env projectSettings',
      'ask git push:* projectSettings',
      'allow make localSettings',
    ]);
    expect(names(true)).toContain('allow npm test projectSettings');
    const dirs = (trusted: boolean) =>
      buildPermissionContext({
        settingsSources: [
          { source: 'projectSettings', settings: { permissions: { additionalDirectories: ['/'] } } },
        ],
        projectTrusted: trusted,
        cwd: '/p',
      }).additionalDirectories;
    expect([dirs(false), dirs(true)]).toEqual([[], ['/']]);
    const mode = (
      defaultMode: 'acceptEdits' | 'bypassPermissions' | 'auto' | 'plan' | 'dontAsk',
      trusted: boolean,
    ) =>
      buildPermissionContext({
        settingsSources: [{ source: 'projectSettings', settings: { permissions: { defaultMode } } }],
        projectTrusted: trusted,
      }).mode;
    expect([mode('acceptEdits', false), mode('acceptEdits', true)]).toEqual(['default', 'acceptEdits']);
    expect([mode('bypassPermissions', true), mode('auto', true)]).toEqual(['default', 'default']);
    expect([mode('plan', false), mode('dontAsk', false)]).toEqual(['plan', 'dontAsk']);
  });

  it('takes the mode from the flag, else settings; project settings cannot escalate; bypass can be disabled', () => {
    const src = (
      source: 'projectSettings' | 'localSettings',
      defaultMode: 'acceptEdits' | 'bypassPermissions' | 'plan',
    ) => ({
      source,
      settings: { permissions: { defaultMode } },
    });
    expect(buildPermissionContext({ settingsSources: [src('localSettings', 'plan')] }).mode).toBe('plan');
    expect(
      buildPermissionContext({ settingsSources: [src('projectSettings', 'bypassPermissions')] }).mode,
    ).toBe('default');
    expect(buildPermissionContext({ settingsSources: [src('projectSettings', 'acceptEdits')] }).mode).toBe(
      'default',
    );
    expect(
      buildPermissionContext({ settingsSources: [src('localSettings', 'plan')], mode: 'acceptEdits' }).mode,
    ).toBe('acceptEdits');
    const disabled = {
      source: 'policySettings' as const,
      settings: { permissions: { disableBypassPermissionsMode: 'disable' as const } },
    };
    expect(buildPermissionContext({ settingsSources: [disabled], mode: 'bypassPermissions' }).mode).toBe(
      'default',
    );
  });

  it('disableAutoMode and denyInsteadOfPrompting: from any source, a project too, since they only restrict', () => {
    const project = {
      source: 'projectSettings' as const,
      settings: { permissions: { disableAutoMode: 'disable' as const, denyInsteadOfPrompting: true } },
    };
    const context = buildPermissionContext({ settingsSources: [project], mode: 'auto' });
    expect(context.mode).toBe('default');
    expect(context.denyInsteadOfPrompting).toBe(true);
    expect(modeRefusal(context.disabledModes, 'auto')).toBe(
      'Permission mode auto is disabled by permissions.disableAutoMode (projectSettings).',
    );
    expect(modeRefusal(context.disabledModes, 'bypassPermissions')).toBeUndefined();
    // Controls: without the settings, auto stays and nothing is refused.
    const open = buildPermissionContext({ settingsSources: [], mode: 'auto' });
    expect(open.mode).toBe('auto');
    expect(open.denyInsteadOfPrompting).toBeUndefined();
    expect(modeRefusal(open.disabledModes, 'auto')).toBeUndefined();
  });

  it('resolves additional directories from settings and --add-dir', () => {
    const context = buildPermissionContext({
      settingsSources: [
        { source: 'localSettings', settings: { permissions: { additionalDirectories: ['../lib'] } } },
      ],
      additionalDirectories: ['/data', '../lib'],
      cwd: '/work/app',
    });
    expect(context.additionalDirectories).toEqual(['/work/lib', '/data']);
  });
});

describe("managed policy's allowManagedPermissionRulesOnly", () => {
  const sources = (managedOnly: boolean) => [
    {
      source: 'policySettings' as const,
      settings: {
        allowManagedPermissionRulesOnly: managedOnly,
        permissions: { allow: ['Bash(npm test)'], deny: ['Bash(curl:*)'] },
      },
    },
    {
      source: 'userSettings' as const,
      settings: { permissions: { allow: ['Bash'], deny: ['Read(./.env)'], additionalDirectories: ['/srv'] } },
    },
    {
      source: 'localSettings' as const,
      settings: { permissions: { allow: ['Edit'], ask: ['Bash(git push:*)'] } },
    },
  ];
  const texts = (managedOnly: boolean) =>
    buildPermissionContext({
      settingsSources: sources(managedOnly),
      cliAllowed: ['WebFetch'],
      cliDisallowed: ['Bash(rm:*)'],
      additionalDirectories: ['/work'],
      cwd: '/p',
    });

  it('keeps allow rules and folders to the policy; every deny and ask rule still counts', () => {
    const context = texts(true);
    expect(context.managedRulesOnly).toBe(true);
    expect(context.rules.map((r) => `${r.behavior} ${formatRule(r)} ${r.source}`)).toEqual([
      'deny Bash(curl:*) policySettings',
      'allow Bash(npm test) policySettings',
      'deny Read(./.env) userSettings',
      'ask Bash(git push:*) localSettings',
      'deny Bash(rm:*) cliArg',
    ]);
    // `--add-dir` is typed by the user for this run; folders from settings files are allows.
    expect(context.additionalDirectories).toEqual(['/work']);
  });

  it('changes nothing when the switch is off or comes from another source', () => {
    expect(texts(false).managedRulesOnly).toBeUndefined();
    expect(texts(false).rules.filter((r) => r.behavior === 'allow')).toHaveLength(4);
    const fromUser = buildPermissionContext({
      settingsSources: [
        {
          source: 'userSettings',
          settings: { allowManagedPermissionRulesOnly: true, permissions: { allow: ['Bash'] } },
        },
      ],
    });
    expect(fromUser.managedRulesOnly).toBeUndefined();
    expect(fromUser.rules).toHaveLength(1);
  });
});
