/**
 * What the settings files ask for that Yoke will not do, through the built CLI: every problem of
 * a broken file with what was kept and dropped, unknown keys with the nearest known one, Claude
 * Code keys Yoke does not act on, a sandbox that cannot start said plainly, and `--setting-sources` choosing the
 * memory files as well.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import { mockEnv, runYoke, tempProject } from './helpers';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ scenario: [] });
});
afterAll(async () => {
  await server.close();
});

async function project(settings: unknown) {
  const cwd = await tempProject();
  const home = await tempProject('yoke-home-');
  await mkdir(join(cwd, '.yoke'));
  const file = join(cwd, '.yoke', 'settings.json');
  await writeFile(file, JSON.stringify(settings));
  return { cwd, home, file, env: mockEnv(server.url, home) };
}

const answer = () => server.reset([{ reply: { content: [{ type: 'text', text: 'ok' }] } }]);
const lines = (stderr: string) => stderr.trim().split('\n');

describe('settings problems', () => {
  it('lists every problem of a file, each with what was dropped, and runs with the rest', async () => {
    const { cwd, env, file } = await project({
      model: 'claude-haiku-4-5',
      permissions: { allow: ['Read', 42], defaultMode: 'yolo' },
      env: { TOKEN: ['not', 'a', 'string'] },
    });
    answer();
    // Trusted, so the only lines are the file's problems (not the untrusted allow rule's notice).
    const { code, stdout, stderr } = await runYoke(['-p', 'hi', '--trust'], { cwd, env });
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'ok\n' });
    expect(lines(stderr)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^yoke: warning: Invalid settings ${file}: env\\.TOKEN: .*; dropped env\\.TOKEN, kept the rest of the file$`,
        ),
      ),
      expect.stringMatching(
        /permissions\.allow\[1\]: .*; dropped permissions\.allow\[1\], kept the rest of the file$/,
      ),
      expect.stringMatching(
        /permissions\.defaultMode: .*; dropped permissions\.defaultMode, kept the rest of the file$/,
      ),
    ]);
    // What was kept still applies.
    expect(server.requests[0]?.body).toMatchObject({ model: 'claude-haiku-4-5' });
  });

  it('names an unknown key with the nearest known key, and the Claude Code keys Yoke ignores', async () => {
    const { cwd, env, file } = await project({
      modle: 'opus',
      subagentStatusLine: { type: 'command', command: 'echo hi' },
      outputStyle: 'Explanatory',
    });
    answer();
    const { code, stderr } = await runYoke(['-p', 'hi'], { cwd, env });
    expect(code).toBe(0);
    expect(lines(stderr)).toEqual([
      `yoke: warning: settings ${file}: unknown key "modle" (did you mean "model"?); it has no effect`,
      `yoke: warning: settings: Yoke does not act on these Claude Code settings yet, so they have no effect: subagentStatusLine (${file}), outputStyle (${file})`,
    ]);
  });

  it('names an additional directory that is not there, and still runs', async () => {
    const { cwd, env, file } = await project({
      permissions: { additionalDirectories: ['../shared-lib-that-is-not-there', '.'] },
    });
    answer();
    // Before, the missing folder was taken silently: tools asked or refused there, unexplained.
    const { code, stdout, stderr } = await runYoke(['-p', 'hi', '--trust'], { cwd, env });
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'ok\n' });
    expect(lines(stderr)).toEqual([
      `yoke: warning: settings ${file}: permissions.additionalDirectories "../shared-lib-that-is-not-there" is not a folder (${join(cwd, '..', 'shared-lib-that-is-not-there')}); tools cannot use it`,
    ]);
  });

  /** A PATH with git but no bubblewrap: the sandbox cannot start, as on a machine without it. */
  async function pathWithoutBwrap(): Promise<string> {
    const bin = await tempProject('yoke-bin-');
    await symlink('/usr/bin/git', join(bin, 'git'));
    return bin;
  }

  it('says once, with the cause, that commands are NOT sandboxed when the sandbox cannot start; stream-json system/init too', async () => {
    const { cwd, env } = await project({ sandbox: { enabled: true } });
    answer();
    const { code, stdout, stderr } = await runYoke(
      ['-p', 'hi', '--output-format', 'stream-json', '--verbose'],
      { cwd, env: { ...env, PATH: await pathWithoutBwrap() } },
    );
    expect(code).toBe(0);
    const notice =
      'sandbox: Bash commands are NOT sandboxed — the sandbox cannot start: bubblewrap is not installed (Debian/Ubuntu: apt-get install bubblewrap). Commands go through the permission prompts instead.';
    expect(lines(stderr)).toEqual([`yoke: warning: ${notice}`]);
    const init = JSON.parse(stdout.split('\n')[0] as string) as { subtype: string; warnings?: string[] };
    expect(init.subtype).toBe('init');
    expect(init.warnings).toContain(notice);
  });

  it('refuses to run when the settings require a sandbox that cannot start', async () => {
    const { cwd, env } = await project({ sandbox: { enabled: true, failIfUnavailable: true } });
    answer();
    const { code, stderr } = await runYoke(['-p', 'hi'], {
      cwd,
      env: { ...env, PATH: await pathWithoutBwrap() },
    });
    expect(code).toBe(1);
    expect(stderr).toContain(
      'the sandbox is required (sandbox.failIfUnavailable) but cannot start: bubblewrap is not installed',
    );
    expect(server.requests).toHaveLength(0);
  });

  it('ignores, and names, a project file that would loosen the sandbox', async () => {
    const { cwd, env, file } = await project({ sandbox: { enabled: true, autoAllowBashIfSandboxed: true } });
    answer();
    const { code, stderr } = await runYoke(['-p', 'hi'], { cwd, env });
    expect(code).toBe(0);
    expect(lines(stderr)).toContain(
      `yoke: warning: settings ${file}: sandbox.autoAllowBashIfSandboxed is ignored: project settings can only tighten the sandbox (set it in your user settings)`,
    );
  });
});

describe('--setting-sources and memory files', () => {
  it("loads only the chosen sources' memory files; an empty list loads none", async () => {
    const cwd = await tempProject();
    const home = await tempProject('yoke-home-');
    await mkdir(join(home, '.claude'), { recursive: true });
    await writeFile(join(home, '.claude', 'CLAUDE.md'), 'USER-MEMORY\n');
    await writeFile(join(cwd, 'CLAUDE.md'), 'PROJECT-MEMORY\n');
    await writeFile(join(cwd, 'CLAUDE.local.md'), 'LOCAL-MEMORY\n');
    const env = mockEnv(server.url, home);
    const sent = async (sources: string[]) => {
      answer();
      await runYoke(['-p', 'hi', ...sources], { cwd, env });
      const body = JSON.stringify(server.requests[0]?.body);
      return ['USER', 'PROJECT', 'LOCAL'].filter((kind) => body.includes(`${kind}-MEMORY`));
    };
    expect(await sent([])).toEqual(['USER', 'PROJECT', 'LOCAL']);
    expect(await sent(['--setting-sources=project'])).toEqual(['PROJECT']);
    expect(await sent(['--setting-sources', 'user,local'])).toEqual(['USER', 'LOCAL']);
    expect(await sent(['--setting-sources='])).toEqual([]);
  });
});
