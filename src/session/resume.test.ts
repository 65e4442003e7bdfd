import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSystemMessage, createUserMessage, type Message } from './messages';
import { resolveSession, SessionResolveError } from './resume';
import { USE_ORDER_FILE } from './session-use-order';
import { loadTranscript } from './transcript-loader';
import { projectDir, transcriptPath } from './transcript-paths';
import { INTERRUPTED_TOOL_RESULT } from './transcript-repair';
import { assistant, conversation, TEST_MODEL, tempHome, writeSession } from './transcript-test-support';
import { TranscriptWriter } from './transcript-writer';

const model = TEST_MODEL;

/** Sets a session's mtime `secondsAgo` in the past, so "newest" is decided by the test. */
function age(path: string, secondsAgo: number) {
  const t = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(path, t, t);
}

/** The message of the error resolveSession rejects with. */
async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected resolveSession to fail');
}

/** A session whose last run ended between a Bash call and its result. */
function cutOffSession(env: Record<string, string>, cwd: string) {
  const call = assistant([{ type: 'tool_use', id: 'toolu_cut', name: 'Bash', input: { command: 'make' } }]);
  return { call, ...writeSession(env, cwd, [createUserMessage('build it'), call]) };
}

/** Resumes a session, collecting the warnings it reports. */
async function resumeNoting(env: Record<string, string>, cwd: string, sessionId: string) {
  const warnings: string[] = [];
  const resolved = await resolveSession({
    cwd,
    env,
    model,
    resume: sessionId,
    onWarning: (w) => warnings.push(w),
  });
  return { resolved, warnings };
}

describe('resolveSession', () => {
  it('starts a new session with a fresh or fixed id', async () => {
    const { env, cwd } = tempHome();
    const fresh = await resolveSession({ cwd, env, model });
    expect(fresh.messages).toEqual([]);
    expect(fresh.transcriptPath).toBe(transcriptPath(env, cwd, fresh.sessionId));
    const id = randomUUID();
    expect((await resolveSession({ cwd, env, model, sessionId: id })).sessionId).toBe(id);
  });

  it('refuses a --session-id that exists or is not a UUID', async () => {
    const { env, cwd } = tempHome();
    const { sessionId } = writeSession(env, cwd, conversation(1));
    await expect(resolveSession({ cwd, env, model, sessionId })).rejects.toThrow(/already exists/);
    await expect(resolveSession({ cwd, env, model, sessionId: 'abc' })).rejects.toThrow(/must be a UUID/);
    await expect(
      resolveSession({ cwd, env, model, sessionId: randomUUID(), resume: sessionId }),
    ).rejects.toThrow(/needs --fork-session/);
  });

  it('resumes by exact id and by unique prefix', async () => {
    const { env, cwd } = tempHome();
    const messages = conversation(2);
    const { sessionId, path } = writeSession(env, cwd, messages);
    writeSession(env, cwd, conversation(1));
    const byId = await resolveSession({ cwd, env, model, resume: sessionId });
    expect(byId).toMatchObject({ sessionId, transcriptPath: path, parentUuid: messages.at(-1)?.uuid });
    expect(byId.messages).toEqual(messages);
    const byPrefix = await resolveSession({ cwd, env, model, resume: sessionId.slice(0, 8).toUpperCase() });
    expect(byPrefix.sessionId).toBe(sessionId);
  });

  it('reports an ambiguous prefix with the candidates', async () => {
    const { env, cwd } = tempHome();
    const a = writeSession(env, cwd, conversation(1), `abcd${randomUUID().slice(4)}`);
    const b = writeSession(
      env,
      cwd,
      [createUserMessage('second session prompt')],
      `abcd${randomUUID().slice(4)}`,
    );
    const error = await resolveSession({ cwd, env, model, resume: 'abcd' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionResolveError);
    const text = (error as Error).message;
    expect(text).toMatch(/"abcd" matches 2 sessions/);
    expect(text).toContain(a.sessionId);
    expect(text).toContain(b.sessionId);
    expect(text).toContain('second session prompt');
  });

  it('reports a missing id with the nearest matches, their age and first prompt', async () => {
    const { env, cwd } = tempHome();
    const near = writeSession(env, cwd, [createUserMessage('fix the login bug')]);
    age(near.path, 7200);
    writeSession(env, cwd, [createUserMessage('unrelated')]);
    const typo = `${near.sessionId.slice(0, 6)}x${near.sessionId.slice(7, 12)}`;
    const text = await failure(resolveSession({ cwd, env, model, resume: typo }));
    expect(text).toMatch(new RegExp(`No session "${typo}"`));
    const firstSuggestion = text.split('\n')[1] as string;
    expect(firstSuggestion).toContain(near.sessionId);
    expect(firstSuggestion).toContain('2h ago');
    expect(firstSuggestion).toContain('fix the login bug');
  });

  it('points to the folder a session ran in when it is resumed from another one', async () => {
    const { env, cwd } = tempHome();
    const { sessionId } = writeSession(env, `${cwd}/elsewhere`, conversation(1));
    const text = await failure(resolveSession({ cwd, env, model, resume: sessionId }));
    expect(text).toContain(`was started in ${cwd}/elsewhere`);
    expect(text).toContain(`yoke -p --resume ${sessionId} "<prompt>"`);
  });

  it('--continue picks the newest session of this folder, and says so when there is none', async () => {
    const { env, cwd } = tempHome();
    await expect(resolveSession({ cwd, env, model, continue: true })).rejects.toThrow(
      /No conversation to continue/,
    );
    const old = writeSession(env, cwd, conversation(1));
    const recent = writeSession(env, cwd, conversation(2));
    const other = writeSession(env, `${cwd}-other`, conversation(1));
    age(old.path, 60);
    age(recent.path, 30);
    age(other.path, 0);
    expect((await resolveSession({ cwd, env, model, continue: true })).sessionId).toBe(recent.sessionId);
  });

  it('--continue picks the session used last, even when the clock was set back while it was used', async () => {
    const { env, cwd } = tempHome();
    const earlier = writeSession(env, cwd, conversation(1));
    const last = writeSession(env, cwd, conversation(1));
    // The clock was six years behind when `last` was written: its mtime is older than `earlier`'s.
    age(last.path, 6 * 365 * 86_400);
    age(earlier.path, 60);
    expect((await resolveSession({ cwd, env, model, continue: true })).sessionId).toBe(last.sessionId);
  });

  it('--continue falls back to the newest mtime among sessions that predate the use order', async () => {
    const { env, cwd } = tempHome();
    const older = writeSession(env, cwd, conversation(1));
    const newer = writeSession(env, cwd, conversation(1));
    rmSync(join(projectDir(env, cwd), USE_ORDER_FILE));
    age(older.path, 30);
    age(newer.path, 60);
    expect((await resolveSession({ cwd, env, model, continue: true })).sessionId).toBe(older.sessionId);
  });

  it('--fork-session writes a new file that starts with the history and leaves the old one untouched', async () => {
    const { env, cwd } = tempHome();
    const messages = conversation(2);
    const source = writeSession(env, cwd, messages);
    const before = readFileSync(source.path, 'utf8');
    const forked = await resolveSession({ cwd, env, model, resume: source.sessionId, forkSession: true });
    expect(forked.sessionId).not.toBe(source.sessionId);
    expect(forked.forkedFrom).toEqual({ sessionId: source.sessionId, transcriptPath: source.path });
    expect(readFileSync(source.path, 'utf8')).toBe(before);
    const strip = (ms: readonly Message[]) => ms.map(({ uuid: _u, ...rest }) => rest);
    expect(strip(forked.messages)).toEqual(strip(messages));
    expect(forked.parentUuid).toBe(forked.messages.at(-1)?.uuid);
    const copy = await loadTranscript(forked.transcriptPath);
    expect(copy.messages).toEqual(forked.messages);
    expect(copy.sessionId).toBe(forked.sessionId);
    const firstLine = JSON.parse(readFileSync(forked.transcriptPath, 'utf8').split('\n')[0] as string);
    expect(firstLine.forkedFrom).toEqual({ sessionId: source.sessionId, messageUuid: messages[0]?.uuid });
  });

  it('--resume-session-at truncates the history after that message', async () => {
    const { env, cwd } = tempHome();
    const messages = conversation(3);
    const { sessionId } = writeSession(env, cwd, messages);
    const at = messages[3] as Message;
    const resolved = await resolveSession({ cwd, env, model, resume: sessionId, resumeSessionAt: at.uuid });
    expect(resolved.messages).toEqual(messages.slice(0, 4));
    expect(resolved.parentUuid).toBe(at.uuid);
  });

  it('drops thinking only when the model changed', async () => {
    const { env, cwd } = tempHome();
    const thinking = assistant([
      { type: 'thinking', thinking: 'hmm', signature: 'sig-bound-to-sonnet' },
      { type: 'text', text: 'answer' },
    ]);
    const { sessionId } = writeSession(env, cwd, [createUserMessage('q'), thinking]);
    const same = await resolveSession({ cwd, env, model: 'sonnet', resume: sessionId });
    expect(same.messages[1]).toEqual(thinking);
    const other = await resolveSession({ cwd, env, model: 'claude-opus-5-5', resume: sessionId });
    const content = other.messages[1]?.type === 'assistant' ? other.messages[1].message.content : [];
    expect(content).toEqual([{ type: 'text', text: 'answer' }]);
  });

  it('respects the last compaction boundary', async () => {
    const { env, cwd } = tempHome();
    const boundary = createSystemMessage('compact_boundary', 'Conversation compacted', {
      data: { trigger: 'manual', preTokens: 1000, postTokens: 100 },
    });
    const summary = createUserMessage('summary', { isMeta: true });
    const tail = conversation(1);
    const { sessionId } = writeSession(env, cwd, [...conversation(3), boundary, summary, ...tail]);
    const resolved = await resolveSession({ cwd, env, model, continue: true });
    expect(resolved.sessionId).toBe(sessionId);
    expect(resolved.messages).toEqual([boundary, summary, ...tail]);
  });

  it('answers a tool call a crash cut off with a synthetic interrupted result', async () => {
    const { env, cwd } = tempHome();
    const { call, sessionId } = cutOffSession(env, cwd);
    const { resolved, warnings } = await resumeNoting(env, cwd, sessionId);
    expect(resolved.messages).toHaveLength(3);
    expect(resolved.messages[2]).toMatchObject({
      type: 'user',
      message: {
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_cut', content: INTERRUPTED_TOOL_RESULT, is_error: true },
        ],
      },
    });
    expect(warnings.join()).toMatch(/1 tool call\(s\) were cut off/);
    // The synthetic answer is not on disk: new lines chain to the last real message.
    expect(resolved.parentUuid).toBe(call.uuid);
  });

  it('records a repair it reported, so the next resume repairs quietly, and reports a new one', async () => {
    const { env, cwd } = tempHome();
    const { call, sessionId, path } = cutOffSession(env, cwd);
    const resume = () => resumeNoting(env, cwd, sessionId);
    expect((await resume()).warnings).toHaveLength(1);
    const again = await resume();
    expect(again.warnings).toEqual([]);
    // Still repaired in memory: the API needs every call answered.
    expect(again.resolved.messages).toHaveLength(3);

    // A later run is cut off too: only the new call is reported.
    const next = assistant([{ type: 'tool_use', id: 'toolu_new', name: 'Bash', input: { command: 'ls' } }]);
    const writer = new TranscriptWriter({ path, sessionId, cwd, parentUuid: call.uuid });
    writer.append(next);
    writer.close();
    const third = await resume();
    expect(third.warnings).toEqual([
      '1 tool call(s) were cut off by the end of the last run; marked as interrupted',
    ]);
  });

  it('leaves the file alone without session persistence', async () => {
    const { env, cwd } = tempHome();
    const { sessionId, path } = cutOffSession(env, cwd);
    const before = readFileSync(path, 'utf8');
    await resolveSession({ cwd, env, model, resume: sessionId, persist: false });
    expect(readFileSync(path, 'utf8')).toBe(before);
  });
});
