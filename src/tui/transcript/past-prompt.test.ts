/** A resumed prompt with what went ahead of it: a real `!command`'s blocks and a `#note`'s. */
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBangCommand } from '../../interactive/bang-command';
import { memoryNoteContext } from '../../interactive/memory-append';
import { createUserMessage } from '../../session/messages';
import { commandHeader } from '../../skills/command-header';
import { makeContext } from '../../tools/test-support';
import { TranscriptStore } from './transcript-store';

describe('a resumed prompt', () => {
  it('shows the !commands and #notes sent ahead of it as they were shown, not as tags', async () => {
    const project = await realpath(await mkdtemp(join(tmpdir(), 'yoke-past-')));
    const context = makeContext([], {
      cwd: project,
      projectRoot: project,
      sessionDir: join(project, '.session'),
      abortSignal: new AbortController().signal,
      env: { PATH: process.env.PATH },
    });
    const bang = await runBangCommand('!echo out; echo err >&2; exit 3', context);
    // As ReplSession sends them: the context first, then the prompt, a blank line apart.
    const sent = [bang.conversationText, memoryNoteContext('run npm test first'), 'and now?'].join('\n\n');
    const store = new TranscriptStore();
    store.showPast([createUserMessage(sent)]);
    expect(store.getSnapshot().committed).toEqual([
      expect.objectContaining({
        kind: 'shell',
        command: 'echo out; echo err >&2; exit 3',
        output: 'out\nerr',
        exitCode: 3,
      }),
      expect.objectContaining({ kind: 'user', text: '#run npm test first', past: true }),
      expect.objectContaining({ kind: 'user', text: 'and now?', past: true }),
    ]);
  });

  it("shows a command's expansion as the command typed, not its header and body", () => {
    const store = new TranscriptStore();
    const expansion = `${commandHeader({ name: 'review' }, 'main')}\nReview the code changes described below…`;
    store.showPast([createUserMessage(expansion)]);
    expect(store.getSnapshot().committed).toEqual([
      expect.objectContaining({ kind: 'user', text: '/review main', past: true }),
    ]);
  });

  it('keeps a prompt that merely mentions a tag as the prompt', () => {
    const store = new TranscriptStore();
    store.showPast([createUserMessage('what does <bash-input> mean?')]);
    expect(store.getSnapshot().committed).toEqual([
      expect.objectContaining({ kind: 'user', text: 'what does <bash-input> mean?' }),
    ]);
  });
});
