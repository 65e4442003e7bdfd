/**
 * Malformed permission rules through the real CLI: each is reported with its file (or flag) on
 * stderr and in stream-json's system/init, a broken deny rule denies its whole tool instead of
 * vanishing, and a broken allow rule is dropped. A marker file proves whether the command ran.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import { fileExists, mockEnv, runYoke, tempProject } from './helpers';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ scenario: [] });
});
afterAll(async () => {
  await server.close();
});

async function project(permissions: unknown) {
  const cwd = await tempProject();
  const home = await tempProject('yoke-home-');
  await mkdir(join(cwd, '.yoke'));
  const settingsFile = join(cwd, '.yoke', 'settings.json');
  await writeFile(settingsFile, JSON.stringify({ permissions }));
  return { cwd, settingsFile, env: mockEnv(server.url, home) };
}

function touchTurn() {
  server.reset([
    {
      reply: { content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'touch marker' } }] },
    },
    { reply: { content: [{ type: 'text', text: 'done' }] } },
  ]);
}

const toolResult = () => {
  const body = server.requests[1]?.body as { messages: { content: unknown }[] };
  return JSON.stringify(body.messages.at(-1)?.content);
};

const brokenDeny = (file: string) =>
  `settings ${file}: deny rule "Bash(touch:*" is malformed (the closing ")" is missing); until it is fixed it denies every Bash call`;
const wrongCaseAllow = (file: string) =>
  `settings ${file}: allow rule "bash(echo:*)" is malformed (tool names are case-sensitive: "bash" should be "Bash"); the rule is ignored`;

describe('malformed permission rules', () => {
  // Calibration: before, "Bash(touch:*" was dropped without a word and acceptEdits let
  // `touch marker` run inside the project; the marker file appeared.
  it('a deny rule without its ")" denies its whole tool, and both problems reach stderr', async () => {
    const { cwd, settingsFile, env } = await project({ deny: ['Bash(touch:*'], allow: ['bash(echo:*)'] });
    touchTurn();
    const { code, stderr } = await runYoke(['-p', 'go', '--permission-mode', 'acceptEdits', '--trust'], {
      cwd,
      env,
    });
    expect(code).toBe(0);
    expect(stderr).toContain(brokenDeny(settingsFile));
    expect(stderr).toContain(wrongCaseAllow(settingsFile));
    expect(toolResult()).toContain('which is malformed');
    expect(await fileExists(join(cwd, 'marker'))).toBe(false);
  });

  it('lists the problems as warnings in stream-json system/init', async () => {
    const { cwd, settingsFile, env } = await project({ deny: ['Bash(touch:*'], allow: ['bash(echo:*)'] });
    server.reset([{ reply: { content: [{ type: 'text', text: 'hello' }] } }]);
    const input = `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' } })}\n`;
    const { code, stdout } = await runYoke(
      ['-p', '--trust', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'],
      { cwd, env, input },
    );
    expect(code).toBe(0);
    const init = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line))
      .find((frame) => frame.type === 'system' && frame.subtype === 'init');
    expect(init.warnings).toEqual(
      expect.arrayContaining([brokenDeny(settingsFile), wrongCaseAllow(settingsFile)]),
    );
  });

  it('treats --disallowedTools values the same way', async () => {
    const cwd = await tempProject();
    const env = mockEnv(server.url, await tempProject('yoke-home-'));
    touchTurn();
    const { code, stderr } = await runYoke(
      ['-p', 'go', '--permission-mode', 'acceptEdits', '--disallowedTools', 'Bash(touch:*'],
      { cwd, env },
    );
    expect(code).toBe(0);
    expect(stderr).toContain(
      '--disallowedTools: deny rule "Bash(touch:*" is malformed (the closing ")" is missing); until it is fixed it denies every Bash call',
    );
    expect(await fileExists(join(cwd, 'marker'))).toBe(false);
  });
});
