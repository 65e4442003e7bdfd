import { appendFileSync, existsSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSystemMessage, createUserMessage, type Message } from './messages';
import { loadTranscript } from './transcript-loader';
import { projectSlug, subagentTranscriptPaths, transcriptPath } from './transcript-paths';
import { assistant, conversation, tempHome, writeSession } from './transcript-test-support';
import { TranscriptWriter } from './transcript-writer';

const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('transcript paths', () => {
  it('maps the cwd to a Claude Code project slug', () => {
    expect(projectSlug('/a/b.c')).toBe('-a-b-c');
    expect(projectSlug('/home/me/my_project')).toBe('-home-me-my-project');
  });

  it('cuts long slugs and appends a hash so distinct long paths stay distinct', () => {
    const a = projectSlug(`/${'x'.repeat(250)}/a`);
    const b = projectSlug(`/${'x'.repeat(250)}/b`);
    expect(a.length).toBeLessThan(215);
    expect(a.startsWith(`-${'x'.repeat(199)}-`)).toBe(true);
    expect(a).not.toBe(b);
  });
});

describe('TranscriptWriter + loadTranscript', () => {
  it('round-trips a conversation in the compat line shape, chained by parentUuid', async () => {
    const { env, cwd } = tempHome();
    const messages = conversation(3);
    const { sessionId, path } = writeSession(env, cwd, messages);
    expect(path).toBe(transcriptPath(env, cwd, sessionId));

    const written = lines(path);
    expect(written).toHaveLength(12);
    expect(written[0]).toMatchObject({
      type: 'user',
      parentUuid: null,
      sessionId,
      cwd,
      isSidechain: false,
      userType: 'external',
      message: { role: 'user', content: 'Prompt number 0: please look at file 0.ts' },
    });
    expect(typeof written[0]?.version).toBe('string');
    for (let i = 1; i < written.length; i++) expect(written[i]?.parentUuid).toBe(written[i - 1]?.uuid);
    // Assistant lines carry the API message with the API's snake_case usage.
    expect(written[1]).toMatchObject({
      type: 'assistant',
      message: { role: 'assistant', usage: { input_tokens: 100 } },
    });
    expect(written[2]).toMatchObject({ type: 'user', toolUseResult: { type: 'text' } });

    const loaded = await loadTranscript(path);
    expect(loaded.messages).toEqual(messages);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.leafUuid).toBe(messages.at(-1)?.uuid);
    expect(loaded.sessionId).toBe(sessionId);
  });

  it("sums the earlier runs' cost lines, so a resumed REPL shows the session's spend", async () => {
    const { env, cwd } = tempHome();
    const { sessionId, path } = writeSession(env, cwd, conversation(1));
    const writer = new TranscriptWriter({ path, sessionId, cwd });
    const usage = {
      inputTokens: 1000,
      outputTokens: 50,
      cacheReadInputTokens: 200,
      cacheCreationInputTokens: 0,
    };
    writer.recordUsage({ model: 'claude-sonnet-4-5', usage, costUsd: 0.25 });
    writer.recordUsage({ model: 'claude-haiku-4-5', usage, costUsd: 0.5 });
    writer.close();
    const loaded = await loadTranscript(path);
    expect(loaded.spent).toEqual({
      costUsd: 0.75,
      requests: 2,
      usage: { inputTokens: 2000, outputTokens: 100, cacheReadInputTokens: 400, cacheCreationInputTokens: 0 },
    });
    expect(loaded.messages).toHaveLength(conversation(1).length);
  });

  it('writes compact_boundary with compactMetadata and resumes from the last boundary', async () => {
    const { env, cwd } = tempHome();
    const before = conversation(2);
    const boundary = createSystemMessage('compact_boundary', 'Conversation compacted', {
      data: { trigger: 'auto', preTokens: 180_000, postTokens: 45_000 },
    });
    const summary = createUserMessage('Summary of the earlier conversation', { isMeta: true });
    const after = conversation(1);
    const { path } = writeSession(env, cwd, [...before, boundary, summary, ...after]);

    const boundaryLine = lines(path).find((l) => l.subtype === 'compact_boundary');
    expect(boundaryLine?.compactMetadata).toEqual({
      trigger: 'auto',
      preTokens: 180_000,
      postTokens: 45_000,
    });

    const loaded = await loadTranscript(path);
    expect(loaded.messages).toEqual([boundary, summary, ...after]);
    expect(loaded.compactBoundaryUuid).toBe(boundary.uuid);
  });

  it('ignores a torn last line with a warning, and the next append starts on a fresh line', async () => {
    const { env, cwd } = tempHome();
    const messages = conversation(2);
    const { sessionId, path } = writeSession(env, cwd, messages);
    const size = statSync(path).size;
    const lastLine = readFileSync(path, 'utf8').trimEnd().split('\n').at(-1) as string;
    truncateSync(path, size - Math.floor(lastLine.length / 2));

    const loaded = await loadTranscript(path);
    expect(loaded.messages).toEqual(messages.slice(0, -1));
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings[0]).toMatch(/torn last line/);

    const writer = new TranscriptWriter({ path, sessionId, cwd, parentUuid: loaded.leafUuid });
    const next = createUserMessage('after the crash');
    writer.append(next);
    writer.close();
    const reloaded = await loadTranscript(path);
    expect(reloaded.messages).toEqual([...messages.slice(0, -1), next]);
    expect(reloaded.warnings.join('\n')).toMatch(/:8: ignored a line that is not valid JSON/);
  });

  it('skips a garbage line in the middle, names its line number, and keeps the history whole', async () => {
    const { env, cwd } = tempHome();
    const messages = conversation(2);
    const { path } = writeSession(env, cwd, messages);
    const text = readFileSync(path, 'utf8').split('\n');
    text[3] = '{"type":"user","uuid":"broken';
    writeFileSync(path, text.join('\n'));

    const loaded = await loadTranscript(path);
    expect(loaded.warnings.some((w) => w.includes(':4: ignored a line that is not valid JSON'))).toBe(true);
    // The damaged line's message is gone; everything before it is still chained in.
    expect(loaded.messages).toEqual(messages.filter((_, i) => i !== 3));
  });

  it('applies content replacements so a resume sees the budgeted tool results', async () => {
    const { env, cwd } = tempHome();
    const messages = conversation(2, 5000);
    const { sessionId, path } = writeSession(env, cwd, messages);
    const writer = new TranscriptWriter({ path, sessionId, cwd, parentUuid: messages.at(-1)?.uuid });
    const first = messages[2] as Extract<Message, { type: 'user' }>;
    const firstBlock = (first.message.content as { type: string; tool_use_id: string }[])[0];
    writer.recordContentReplacements([
      { kind: 'tool-result', toolUseId: firstBlock?.tool_use_id as string, content: '[persisted to /tmp/x]' },
    ]);
    const second = messages[6] as Extract<Message, { type: 'user' }>;
    const secondBlock = (second.message.content as { tool_use_id: string }[])[0];
    writer.recordContentReplacement(second.uuid, [
      { type: 'tool_result', tool_use_id: secondBlock?.tool_use_id as string, content: '[cleared]' },
    ]);
    writer.close();

    const loaded = await loadTranscript(path);
    const results = loaded.messages
      .filter((m) => m.type === 'user' && Array.isArray(m.message.content))
      .map((m) => (m.type === 'user' && Array.isArray(m.message.content) ? m.message.content[0] : undefined));
    expect(results.map((b) => (b?.type === 'tool_result' ? b.content : undefined))).toEqual([
      '[persisted to /tmp/x]',
      '[cleared]',
    ]);
  });

  it('records a replacement when history content changes under a known tool result (syncContent)', async () => {
    const { env, cwd } = tempHome();
    const messages = conversation(1, 5000);
    const { sessionId, path } = writeSession(env, cwd, []);
    const writer = new TranscriptWriter({ path, sessionId, cwd });
    writer.appendMany(messages);
    writer.syncContent(messages);
    expect(lines(path).filter((l) => l.type === 'content-replacement')).toHaveLength(0);

    const budgeted = messages.map((m) =>
      m.type === 'user' && Array.isArray(m.message.content) && m.message.content[0]?.type === 'tool_result'
        ? { ...m, message: { ...m.message, content: [{ ...m.message.content[0], content: 'preview…' }] } }
        : m,
    );
    writer.syncContent(budgeted);
    writer.syncContent(budgeted);
    writer.close();
    expect(lines(path).filter((l) => l.type === 'content-replacement')).toHaveLength(1);
    expect((await loadTranscript(path)).messages).toEqual(budgeted);
  });

  it('records the note that replaced an image in a prompt, so a resume does not send the image again', async () => {
    const { env, cwd } = tempHome();
    const prompt = createUserMessage([
      { type: 'text', text: 'What is in this picture?' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
    ]);
    const messages = [prompt, assistant([{ type: 'text', text: 'A cat.' }])];
    const { sessionId, path } = writeSession(env, cwd, []);
    const writer = new TranscriptWriter({ path, sessionId, cwd });
    writer.appendMany(messages);
    writer.syncContent(messages);
    const stripped = [
      {
        ...prompt,
        message: {
          ...prompt.message,
          content: [
            { type: 'text' as const, text: 'What is in this picture?' },
            { type: 'text' as const, text: '[An image from the user was removed.]' },
          ],
        },
      },
      messages[1] as Message,
    ];
    writer.syncContent(stripped);
    writer.syncContent(stripped);
    writer.close();
    expect(lines(path).filter((l) => l.type === 'content-replacement')).toHaveLength(1);
    expect((await loadTranscript(path)).messages).toEqual(stripped);
  });

  it('resumeAt rebuilds the history up to and including that message, even on an old branch', async () => {
    const { env, cwd } = tempHome();
    const messages = conversation(3);
    const { sessionId, path } = writeSession(env, cwd, messages);
    const at = messages[5] as Message;
    expect((await loadTranscript(path, { resumeAt: at.uuid })).messages).toEqual(messages.slice(0, 6));

    // Continuing from there forks the chain; the newest leaf wins, the abandoned tail is dropped.
    const writer = new TranscriptWriter({ path, sessionId, cwd, parentUuid: at.uuid });
    const branch = createUserMessage('a different direction');
    writer.append(branch);
    writer.close();
    expect((await loadTranscript(path)).messages).toEqual([...messages.slice(0, 6), branch]);
    await expect(loadTranscript(path, { resumeAt: 'nope' })).rejects.toThrow(/not in the transcript/);
  });

  it('writes each message once and opens the file only when there is something to write', () => {
    const { env, cwd } = tempHome();
    const path = transcriptPath(env, cwd, '00000000-0000-4000-8000-000000000000');
    const writer = new TranscriptWriter({ path, sessionId: 'x', cwd });
    expect(existsSync(path)).toBe(false);
    const m = createUserMessage('hi');
    writer.append(m);
    writer.append(m);
    writer.recordUsage({
      model: 'claude-sonnet-5-5',
      usage: { inputTokens: 10, outputTokens: 2, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
      costUsd: 0.5,
    });
    writer.close();
    expect(lines(path).map((l) => l.type)).toEqual(['user', 'cost']);
    expect(lines(path)[1]).toMatchObject({ costUSD: 0.5, usage: { input_tokens: 10 } });
  });

  it('writes subagent sidechains beside the session with a meta file', async () => {
    const { env, cwd } = tempHome();
    const paths = subagentTranscriptPaths(env, cwd, 'sess', 'a1');
    expect(paths.transcript.endsWith('/sess/subagents/agent-a1.jsonl')).toBe(true);
    const writer = new TranscriptWriter({
      path: paths.transcript,
      sessionId: 'sess',
      cwd,
      agentId: 'a1',
      meta: { path: paths.meta, content: { agentType: 'Explore', toolUseId: 'toolu_1' } },
    });
    const messages = [createUserMessage('explore'), assistant([{ type: 'text', text: 'done' }])];
    writer.appendMany(messages);
    writer.close();
    expect(lines(paths.transcript)[0]).toMatchObject({ isSidechain: true, agentId: 'a1' });
    expect(JSON.parse(readFileSync(paths.meta, 'utf8'))).toEqual({
      agentType: 'Explore',
      toolUseId: 'toolu_1',
    });
    expect((await loadTranscript(paths.transcript)).messages).toEqual(messages);
  });

  it('loads a 20,000-message transcript without quadratic behaviour', async () => {
    const { env, cwd } = tempHome();
    const messages = conversation(5000);
    const { path } = writeSession(env, cwd, messages);
    appendFileSync(path, '{"type":"assistant","uuid":"torn');
    const started = performance.now();
    const loaded = await loadTranscript(path);
    const ms = performance.now() - started;
    expect(loaded.messages).toHaveLength(20_000);
    expect(loaded.warnings).toHaveLength(1);
    // Loose on purpose (CI machines vary); the real figure is measured by bench/resume.mjs.
    expect(ms).toBeLessThan(3000);
  });
});
