/**
 * How the settings a run was given are named to the user, through the built CLI: the `--settings`
 * file or JSON is `flagSettings` (Claude Code's name for it), not `cliArg`, which is the rule flags'.
 */
import { writeFile } from 'node:fs/promises';
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

async function workspace() {
  const cwd = await tempProject();
  const home = await tempProject('yoke-home-');
  return { cwd, env: mockEnv(server.url, home) };
}

const settingsLine = (status: string) =>
  status.split('\n').find((line) => line.startsWith('Settings files:'));

describe('the --settings source', () => {
  it('is flagSettings in /status, by its file or by the flag for inline JSON', async () => {
    const { cwd, env } = await workspace();
    const file = join(cwd, 'extra.json');
    await writeFile(file, JSON.stringify({ permissions: { allow: ['Bash(ls)'] } }));
    const fromFile = await runYoke(['-p', '/status', '--settings', file], { cwd, env });
    expect(fromFile.code).toBe(0);
    expect(settingsLine(fromFile.stdout)).toBe(`Settings files:   ${file} (flagSettings)`);
    const inline = await runYoke(['-p', '/status', '--settings', '{"model":"haiku"}'], { cwd, env });
    expect(inline.code).toBe(0);
    expect(settingsLine(inline.stdout)).toBe('Settings files:   --settings (flagSettings)');
    // /status is answered without a model call.
    expect(server.requests).toHaveLength(0);
  });

  it('names its rules by the flag, apart from --allowedTools and --disallowedTools', async () => {
    const { cwd, env } = await workspace();
    server.reset([{ reply: { content: [{ type: 'text', text: 'ok' }] } }]);
    const { code, stderr } = await runYoke(
      [
        '-p',
        'hi',
        '--settings',
        '{"permissions":{"deny":["Raed", "Bash(rm:*"]}}',
        '--disallowedTools',
        'Wrtie',
      ],
      { cwd, env },
    );
    expect(code).toBe(0);
    expect(stderr).toContain(
      'yoke: warning: --settings: deny rule "Raed" names no tool Yoke has (did you mean Read?); it denies nothing',
    );
    expect(stderr).toContain('settings --settings: deny rule "Bash(rm:*" is malformed');
    expect(stderr).toContain(
      'yoke: warning: --disallowedTools: deny rule "Wrtie" names no tool Yoke has (did you mean Write?)',
    );
  });
});
