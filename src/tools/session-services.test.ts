import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MissingCredentialsError } from '../model/errors';
import { emptyUsage } from '../model/types';
import { isAlive, waitFor } from './builtin/bash/test-helpers';
import { SessionServices, sideCallModelFromEnv, toolSettings } from './session-services';

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

describe('sideCallModelFromEnv', () => {
  it("selects the fast model from the session's environment, once", async () => {
    const access = sideCallModelFromEnv({ ANTHROPIC_API_KEY: 'k', YOKE_FAST_MODEL: 'claude-haiku-4-5' });
    const first = await access.fast();
    expect(first.model).toBe('claude-haiku-4-5');
    expect(await access.fast()).toBe(first);
  });

  it('reports missing credentials at each use rather than remembering the failure', async () => {
    const env: Record<string, string> = {};
    const access = sideCallModelFromEnv(env);
    await expect(access.fast()).rejects.toBeInstanceOf(MissingCredentialsError);
    env.ANTHROPIC_API_KEY = 'k';
    expect((await access.fast()).model).toMatch(/haiku/);
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
