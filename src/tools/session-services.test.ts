import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NoSideCallModelError } from '../model/side-call';
import { emptyUsage } from '../model/types';
import { FakeProvider } from '../testing/fake-provider';
import { isAlive, waitFor } from './builtin/bash/test-helpers';
import { SessionServices, toolSettings } from './session-services';

describe('toolSettings', () => {
  it('takes BASH_MAX_OUTPUT_LENGTH over bashOutputMaxChars, and either over the default', () => {
    expect(toolSettings({}, {}).bashOutputMaxChars).toBe(30_000);
    expect(toolSettings({ bashOutputMaxChars: 50_000 }, {}).bashOutputMaxChars).toBe(50_000);
    const both = toolSettings({ bashOutputMaxChars: 50_000 }, { BASH_MAX_OUTPUT_LENGTH: '6000' });
    expect(both.bashOutputMaxChars).toBe(6_000);
  });

  it('ignores a variable that is not a positive number, and clamps what it takes', () => {
    expect(
      toolSettings({ bashOutputMaxChars: 50_000 }, { BASH_MAX_OUTPUT_LENGTH: 'lots' }).bashOutputMaxChars,
    ).toBe(50_000);
    expect(toolSettings({}, { BASH_MAX_OUTPUT_LENGTH: '0' }).bashOutputMaxChars).toBe(30_000);
    expect(toolSettings({}, { BASH_MAX_OUTPUT_LENGTH: '10' }).bashOutputMaxChars).toBe(4_000);
    expect(toolSettings({}, { BASH_MAX_OUTPUT_LENGTH: '9999999' }).bashOutputMaxChars).toBe(128_000);
  });

  it('reads the allowed WebFetch hosts from the settings alone, normalized', () => {
    const settings = toolSettings(
      { webFetch: { allowedHosts: [' LocalHost:3000 ', '', '10.0.0.2'] } },
      // The variable of earlier versions no longer opens anything.
      { YOKE_WEBFETCH_ALLOW_HOSTS: '169.254.169.254' },
    );
    expect(settings.webFetchAllowedHosts).toEqual(['localhost:3000', '10.0.0.2']);
  });
});

describe('the side calls of a session', () => {
  it("go to the session's provider and fast model, and count in the session's costs", async () => {
    const provider = new FakeProvider([{ content: [{ type: 'text', text: 'short answer' }] }]);
    const services = new SessionServices({
      env: {},
      sideCalls: { provider, fastModel: () => 'claude-haiku-4-5' },
    });
    const result = await services.sideCalls.complete(
      { purpose: 'web_fetch', system: [], messages: [{ role: 'user', content: 'hi' }], maxTokens: 100 },
      new AbortController().signal,
    );
    expect(result).toMatchObject({ text: 'short answer', model: 'claude-haiku-4-5' });
    expect(provider.requests[0]?.model).toBe('claude-haiku-4-5');
    expect(services.costs.total().costUsd).toBe(result.costUsd);
  });

  it('fail with a clear error when the session has no model for them', async () => {
    const services = new SessionServices({ env: {} });
    await expect(
      services.sideCalls.complete(
        { purpose: 'web_fetch', system: [], messages: [], maxTokens: 1 },
        new AbortController().signal,
      ),
    ).rejects.toThrow(NoSideCallModelError);
  });
});

describe('SessionServices', () => {
  it('keeps caches, costs and shells apart between two sessions', async () => {
    const a = new SessionServices({ env: {} });
    const b = new SessionServices({ env: {} });
    const page = { url: 'https://example.com/', status: 200, statusText: 'OK', bytes: 2, text: 'hi' };
    a.webPages.set(page.url, page);
    expect(a.webPages.get(page.url)).toEqual(page);
    expect(b.webPages.get(page.url)).toBeUndefined();
    a.costs.add('claude-sonnet-4-5', { ...emptyUsage(), inputTokens: 1000 });
    expect(a.costs.total().costUsd).toBeGreaterThan(0);
    expect(b.costs.total()).toMatchObject({ costUsd: 0, requests: 0 });
    expect(a.shells).not.toBe(b.shells);
    expect(a.gitConfig).not.toBe(b.gitConfig);
  });

  it('dispose ends the background shells, once, however often it is called', async () => {
    const services = new SessionServices({ env: {} });
    const dir = mkdtempSync(join(tmpdir(), 'yoke-services-'));
    const pidFile = join(dir, 'child.pid');
    services.shells.start({
      sessionDir: dir,
      cwd: dir,
      env: { PATH: process.env.PATH },
      command: `sleep 100 & echo $! > ${pidFile}; sleep 100`,
    });
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), 'the pid file');
    const child = Number(readFileSync(pidFile, 'utf8').trim());
    const first = services.dispose();
    expect(services.dispose()).toBe(first);
    await first;
    await waitFor(() => !isAlive(child), `process ${child} to die`);
    expect(services.shells.list()).toEqual([]);
  });
});
