/**
 * The QueryEngine's transcript hook: every message that enters history is on disk before the
 * next API call, and a resumed engine continues the same file and chain.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { QueryEngine } from '../engine/query-engine';
import { callTool, echoTool, text } from '../engine/query-test-support';
import { noopHooks } from '../hooks/types';
import { allowAll } from '../permissions/types';
import { FakeProvider, type FakeScript } from '../testing/fake-provider';
import { resolveSession } from './resume';
import { tempHome } from './transcript-test-support';
import { TranscriptWriter } from './transcript-writer';

const MODEL = 'claude-opus-5-5';
const environment = {
  cwd: '/project',
  platform: 'linux',
  date: '2026-11-29',
  isGitRepo: false,
  model: MODEL,
};

const types = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { type: string; subtype?: string });

async function runTurn(engine: QueryEngine, prompt: string) {
  for await (const _ of engine.submitMessage(prompt)) {
    // Drained for its side effects on the transcript.
  }
}

describe('QueryEngine transcript hook', () => {
  it('writes the prompt, the tool call and its result before the next API call', async () => {
    const { env, cwd } = tempHome();
    const session = await resolveSession({ cwd, env, model: MODEL });
    const writer = new TranscriptWriter({ path: session.transcriptPath, sessionId: session.sessionId, cwd });
    const seenBeforeSecondCall: string[] = [];
    const script: FakeScript = (_request, index) => {
      if (index === 1) seenBeforeSecondCall.push(...types(session.transcriptPath).map((l) => l.type));
      return index === 0 ? callTool('t1') : text('done');
    };
    const engine = new QueryEngine({
      cwd,
      provider: new FakeProvider(script),
      model: MODEL,
      tools: [echoTool()],
      canUseTool: allowAll,
      hooks: noopHooks,
      environment,
      sessionId: session.sessionId,
      transcript: writer,
    });
    await runTurn(engine, 'use the tool');
    const messagesOnly = (all: string[]) => all.filter((t) => t !== 'cost');
    expect(messagesOnly(seenBeforeSecondCall)).toEqual(['user', 'assistant', 'user']);
    const written = types(session.transcriptPath).map((l) => l.type);
    expect(messagesOnly(written)).toEqual(['user', 'assistant', 'user', 'assistant']);
    // One cost line per API request.
    expect(written.filter((t) => t === 'cost')).toHaveLength(2);

    // A resumed engine gets the same history and appends to the same chain.
    writer.close();
    const resumed = await resolveSession({ cwd, env, model: MODEL, resume: session.sessionId });
    expect(resumed.messages).toEqual(engine.messages);
    const writer2 = new TranscriptWriter({
      path: resumed.transcriptPath,
      sessionId: resumed.sessionId,
      cwd,
      parentUuid: resumed.parentUuid,
    });
    const engine2 = new QueryEngine({
      cwd,
      provider: new FakeProvider([text('again')]),
      model: MODEL,
      tools: [echoTool()],
      canUseTool: allowAll,
      hooks: noopHooks,
      environment,
      sessionId: resumed.sessionId,
      initialMessages: resumed.messages,
      transcript: writer2,
    });
    await runTurn(engine2, 'second prompt');
    writer2.close();
    const again = await resolveSession({ cwd, env, model: MODEL, continue: true });
    expect(again.messages).toEqual(engine2.messages);
    expect(again.messages).toHaveLength(6);
  });
});
