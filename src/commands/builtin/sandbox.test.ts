/** /sandbox with a real SandboxManager (bubblewrap's probe stubbed: the status is what is tested). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxAvailability } from '../../sandbox/availability';
import { SandboxManager } from '../../sandbox/manager';
import { defaultSandboxConfig, type SandboxConfig } from '../../sandbox/settings';
import { commandText, createTestHost, type TestHost } from '../test-host';

let host: TestHost;
const managers: SandboxManager[] = [];
beforeEach(async () => {
  host = await createTestHost();
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.dispose()));
  await host.cleanup();
});

function withSandbox(
  config: Partial<SandboxConfig>,
  availability: SandboxAvailability = { available: true, socat: true },
): SandboxManager {
  const manager = new SandboxManager({
    config: { ...defaultSandboxConfig(), ...config },
    projectRoot: host.projectRoot,
    additionalDirs: [],
    home: host.env.HOME,
    rules: [],
    protectedPaths: [],
    probe: async () => availability,
  });
  managers.push(manager);
  host.sandboxManager = manager;
  return manager;
}

describe('/sandbox', () => {
  it('shows what a sandboxed command may do', async () => {
    const manager = withSandbox({ enabled: true, excludedCommands: ['docker'] });
    await manager.start();
    const text = await commandText(host, '/sandbox');
    expect(text.split('\n')[0]).toBe('Sandbox: on — Bash commands run inside bubblewrap');
    expect(text).toContain(`Writable: ${host.projectRoot}`);
    expect(text).toContain('Read-only inside them: .git/hooks, .git/config');
    expect(text).toContain('Network: none');
    expect(text).toContain('Excluded commands (run outside, with the permission prompts): docker');
    expect(text).toContain(
      'Running a command outside (dangerouslyDisableSandbox): allowed, always with a permission prompt',
    );
  });

  it('switches it off and on again for the session', async () => {
    const manager = withSandbox({ enabled: true });
    await manager.start();
    expect(await commandText(host, '/sandbox off')).toBe(
      'Sandbox off for this session: Bash commands run outside it and go through the permission prompts.',
    );
    expect(manager.decide({ command: 'ls' })).toEqual({ sandboxed: false, why: 'the sandbox is off' });
    expect((await commandText(host, '/sandbox')).split('\n')[0]).toBe(
      'Sandbox: off for this session (/sandbox off) — commands go through the permission prompts',
    );
    expect((await commandText(host, '/sandbox on')).split('\n')[0]).toBe('Sandbox on for this session.');
    expect(manager.decide({ command: 'ls' })).toEqual({ sandboxed: true });
  });

  it('turns on a sandbox the settings left off, or says why it cannot start', async () => {
    const manager = withSandbox({});
    expect((await manager.start()).kind).toBe('off');
    await commandText(host, '/sandbox on');
    expect(manager.state.kind).toBe('active');

    withSandbox({}, { available: false, reason: 'bubblewrap is not installed' });
    expect(await commandText(host, '/sandbox on')).toBe(
      'The sandbox cannot start: bubblewrap is not installed. Commands go through the permission prompts.',
    );
  });

  it('refuses to switch off when managed policy or the settings require it, saying which', async () => {
    const required = withSandbox({ enabled: true, requiredByPolicy: true });
    await required.start();
    expect(await commandText(host, '/sandbox off')).toBe(
      'The sandbox stays on: managed policy settings require the sandbox (sandbox.enabled).',
    );
    expect(required.state.kind).toBe('active');

    const strict = withSandbox({ enabled: true, allowUnsandboxedCommands: false });
    await strict.start();
    expect(await commandText(host, '/sandbox off')).toBe(
      'The sandbox stays on: sandbox.allowUnsandboxedCommands is false: commands may not run outside the sandbox.',
    );
    expect(await commandText(host, '/sandbox maybe')).toBe(
      'Unknown argument "maybe". Usage: /sandbox (status), /sandbox on, /sandbox off',
    );
  });

  it('says so when the session has no sandbox', async () => {
    expect(await commandText(host, '/sandbox')).toBe(
      'This session has no shell sandbox: Bash commands go through the permission prompts.',
    );
  });
});
