import { utimesSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createUserMessage } from '../../session/messages';
import { conversation, tempHome, writeSession } from '../../session/transcript-test-support';
import { TranscriptWriter } from '../../session/transcript-writer';
import { commandHeader } from '../../skills/command-header';
import { sessionsListCommand } from './sessions';

async function list(options: Parameters<typeof sessionsListCommand>[0]): Promise<string> {
  let out = '';
  const code = await sessionsListCommand({ ...options, write: (t) => (out += t) });
  expect(code).toBe(0);
  return out;
}

describe('yoke sessions list', () => {
  it('lists this folder newest first with age, turns, cost and first prompt', async () => {
    const { env, cwd } = tempHome();
    const old = writeSession(env, cwd, [createUserMessage('an older question'), ...conversation(1)]);
    const recent = writeSession(env, cwd, [createUserMessage(`a very long first prompt ${'x'.repeat(100)}`)]);
    const writer = new TranscriptWriter({ path: recent.path, sessionId: recent.sessionId, cwd });
    writer.recordUsage({
      model: 'claude-sonnet-5-5',
      usage: { inputTokens: 1, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
      costUsd: 0.25,
    });
    writer.recordUsage({
      model: 'claude-sonnet-5-5',
      usage: { inputTokens: 1, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
      costUsd: 0.5,
    });
    writer.close();
    const now = Date.now();
    utimesSync(old.path, new Date(now - 3 * 86_400_000), new Date(now - 3 * 86_400_000));
    writeSession(env, `${cwd}/other`, [createUserMessage('elsewhere')]);

    const rows = (await list({ cwd, env, nowMs: now })).trimEnd().split('\n');
    expect(rows[0]).toMatch(/^ID\s+AGE\s+TURNS\s+COST\s+FIRST PROMPT$/);
    expect(rows).toHaveLength(3);
    expect(rows[1]).toMatch(
      new RegExp(`^${recent.sessionId}\\s+just now\\s+1\\s+\\$0\\.75\\s+a very long first prompt x+…$`),
    );
    expect(rows[2]).toMatch(new RegExp(`^${old.sessionId}\\s+3d ago\\s+2\\s+\\$0\\s+an older question$`));

    const all = await list({ cwd, env, all: true, nowMs: now });
    expect(all).toContain('FOLDER');
    expect(all).toContain(`${cwd}/other`);
    expect(all.trimEnd().split('\n')).toHaveLength(4);
  });

  it('names a session of commands alone by the first command typed, and counts commands as turns', async () => {
    const { env, cwd } = tempHome();
    const command = (name: string, args: string, body: string) =>
      createUserMessage([
        { type: 'text', text: commandHeader({ name }, args) },
        { type: 'text', text: body },
      ]);
    // Before, such a session was listed with 0 turns and "(no prompt)".
    const alone = writeSession(env, cwd, [command('formatter:fmt', 'src  lib', 'Format the code.')]);
    const mixed = writeSession(env, cwd, [
      command('init', '', 'Write AGENTS.md'),
      createUserMessage('fix the test'),
    ]);
    const rows = (await list({ cwd, env })).trimEnd().split('\n');
    expect(rows).toContainEqual(
      expect.stringMatching(new RegExp(`^${alone.sessionId}\\s.*\\s1\\s+\\$0\\s+/formatter:fmt src lib$`)),
    );
    // A typed prompt still names the session before any command does.
    expect(rows).toContainEqual(
      expect.stringMatching(new RegExp(`^${mixed.sessionId}\\s.*\\s2\\s+\\$0\\s+fix the test$`)),
    );
  });

  it('says where it looked when there is nothing', async () => {
    const { env, cwd } = tempHome();
    expect(await list({ cwd, env })).toContain(`No sessions saved for ${cwd}`);
  });
});
