import { describe, expect, it } from 'vitest';
import { resolveSandboxConfig, type SandboxSettingsSource } from './settings';

const user = (sandbox: SandboxSettingsSource['sandbox']): SandboxSettingsSource => ({
  source: 'userSettings',
  label: '~/.yoke/settings.json',
  ...(sandbox ? { sandbox } : {}),
});
const project = (sandbox: SandboxSettingsSource['sandbox']): SandboxSettingsSource => ({
  source: 'projectSettings',
  label: '.yoke/settings.json',
  ...(sandbox ? { sandbox } : {}),
});

describe('sandbox settings', () => {
  it('takes every key from user settings', () => {
    const { config, ignored } = resolveSandboxConfig([
      user({
        enabled: true,
        autoAllowBashIfSandboxed: true,
        excludedCommands: ['docker:*'],
        network: { allowedDomains: ['github.com'] },
        filesystem: { allowWrite: ['~/.cache'] },
      }),
    ]);
    expect(ignored).toEqual([]);
    expect(config).toMatchObject({
      enabled: true,
      autoAllowBashIfSandboxed: true,
      excludedCommands: ['docker:*'],
      allowedDomains: ['github.com'],
      allowWrite: [{ path: '~/.cache', source: 'userSettings' }],
    });
  });

  it('lets a project tighten but never loosen, naming what it ignored', () => {
    const { config, ignored } = resolveSandboxConfig([
      user({ enabled: true }),
      project({
        enabled: false,
        autoAllowBashIfSandboxed: true,
        allowUnsandboxedCommands: false,
        network: { allowedDomains: ['evil.example'], deniedDomains: ['tracker.example'] },
        filesystem: { allowWrite: ['/'], denyRead: ['secrets'] },
      }),
    ]);
    expect(config).toMatchObject({
      enabled: true,
      autoAllowBashIfSandboxed: false,
      allowUnsandboxedCommands: false,
      allowedDomains: [],
      deniedDomains: ['tracker.example'],
      allowWrite: [],
      denyRead: [{ path: 'secrets', source: 'projectSettings' }],
    });
    expect(ignored).toEqual(
      ['enabled', 'autoAllowBashIfSandboxed', 'network.allowedDomains', 'filesystem.allowWrite'].map(
        (key) =>
          `settings .yoke/settings.json: sandbox.${key} is ignored: project settings can only tighten the sandbox (set it in your user settings)`,
      ),
    );
  });

  it('--no-sandbox wins over user settings; managed policy wins over the flag', () => {
    expect(resolveSandboxConfig([user({ enabled: true })], false).config.enabled).toBe(false);
    const policy: SandboxSettingsSource = {
      source: 'policySettings',
      label: 'policy',
      sandbox: { enabled: true },
    };
    expect(resolveSandboxConfig([policy], false).config.enabled).toBe(true);
    expect(resolveSandboxConfig([], true).config.enabled).toBe(true);
  });
});
