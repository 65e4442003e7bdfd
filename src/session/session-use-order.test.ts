/** The project's use order: written by the transcript writer, read by --continue and the picker. */
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createToolResultMessage, createUserMessage } from './messages';
import { projectSessionFiles, sessionAge } from './session-list';
import { agesUnknown, byLastUse, readUseOrder, USE_ORDER_FILE } from './session-use-order';
import { projectDir, transcriptPath } from './transcript-paths';
import { conversation, tempHome, writeSession } from './transcript-test-support';
import { TranscriptWriter } from './transcript-writer';

/** Six years back from whatever this machine's clock says now (it may itself say 2020). */
const setBack = () => new Date(Date.now() - 6 * 365 * 86_400_000);

function setMtime(path: string, at: Date) {
  utimesSync(path, at, at);
}

describe('the use order', () => {
  it('a typed prompt moves its session to the front; tool results and workers do not', () => {
    const { env, cwd } = tempHome();
    const a = writeSession(env, cwd, conversation(1));
    const b = writeSession(env, cwd, conversation(1));
    expect(readUseOrder(projectDir(env, cwd))).toEqual([b.sessionId, a.sessionId]);

    // A tool result in session a is not the user coming back to it.
    const writer = new TranscriptWriter({ path: a.path, sessionId: a.sessionId, cwd });
    writer.append(createToolResultMessage({ type: 'tool_result', tool_use_id: 't', content: 'ok' }, {}));
    expect(readUseOrder(projectDir(env, cwd))).toEqual([b.sessionId, a.sessionId]);
    // A worker's transcript, whatever it says, neither.
    const worker = new TranscriptWriter({
      path: join(projectDir(env, cwd), a.sessionId, 'subagents', 'agent-w.jsonl'),
      sessionId: a.sessionId,
      cwd,
      agentId: 'w',
    });
    worker.append(createUserMessage('find the config'));
    worker.close();
    expect(readUseOrder(projectDir(env, cwd))).toEqual([b.sessionId, a.sessionId]);
    // A prompt typed in session a is.
    writer.append(createUserMessage('and now the tests'));
    writer.close();
    expect(readUseOrder(projectDir(env, cwd))).toEqual([a.sessionId, b.sessionId]);
  });

  it('orders the recorded sessions first, in use order, then the rest by mtime', () => {
    const files = ['old', 'x', 'y', 'z'].map((sessionId) => ({ sessionId }));
    expect(byLastUse(files, ['z', 'old']).map((f) => f.sessionId)).toEqual(['z', 'old', 'x', 'y']);
  });

  it('a damaged record is no order at all: the sessions fall back to their mtimes', () => {
    const { env, cwd } = tempHome();
    const a = writeSession(env, cwd, conversation(1));
    const b = writeSession(env, cwd, conversation(1));
    writeFileSync(join(projectDir(env, cwd), USE_ORDER_FILE), '{"order": [tru');
    setMtime(b.path, new Date(Date.now() - 60_000));
    expect(projectSessionFiles(env, cwd).map((f) => f.sessionId)).toEqual([a.sessionId, b.sessionId]);
    // The next prompt writes it whole again.
    writeSession(env, cwd, [createUserMessage('again')], b.sessionId);
    expect(JSON.parse(readFileSync(join(projectDir(env, cwd), USE_ORDER_FILE), 'utf8')).order).toEqual([
      b.sessionId,
    ]);
  });

  it('a session used while the clock was set back keeps its place, and its age is not made up', () => {
    const { env, cwd } = tempHome();
    const earlier = writeSession(env, cwd, conversation(1));
    const later = writeSession(env, cwd, conversation(1));
    // `later` was written while the clock was six years behind; `earlier` an hour ago by a right one.
    setMtime(later.path, setBack());
    setMtime(earlier.path, new Date(Date.now() - 3600_000));
    const files = projectSessionFiles(env, cwd);
    expect(files.map((f) => f.sessionId)).toEqual([later.sessionId, earlier.sessionId]);
    expect(files.map((f) => sessionAge(f))).toEqual(['unknown', '1h ago']);
  });

  it('an mtime in the future (the clock set back now) has no age', () => {
    const { env, cwd } = tempHome();
    const path = transcriptPath(env, cwd, writeSession(env, cwd, conversation(1)).sessionId);
    setMtime(path, new Date(Date.now() + 5 * 86_400_000));
    const [file] = projectSessionFiles(env, cwd);
    expect(sessionAge(file!)).toBe('unknown');
    expect(sessionAge({ modifiedMs: Date.now() - 30_000 })).toBe('just now');
  });

  it('tells which ages contradict the use order', () => {
    const list = [
      { sessionId: 'a', modifiedMs: 100 },
      { sessionId: 'b', modifiedMs: 500 },
      { sessionId: 'c', modifiedMs: 300 },
      { sessionId: 'd', modifiedMs: 200 },
    ];
    // Used d, c, b, then a: a is stamped before the sessions used before it.
    expect([...agesUnknown(list, 1000)]).toEqual(['a']);
    // At 400, b's stamp is in the future: it proves nothing about a, which still follows c.
    expect([...agesUnknown(list, 400)].sort()).toEqual(['a', 'b']);
  });
});
