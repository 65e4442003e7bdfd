import { describe, expect, it } from 'vitest';
import { contextEditOf } from '../../session/context-edits';
import { createUserMessage, type Message } from '../../session/messages';
import { COLLAPSE_PREFIX, ContextCollapse } from './collapse';
import { assertValidForApi, assistant, conversation, userText } from './context-test-support';

const options = { stageTokens: 100, commitTokens: 100, keepRecentRounds: 3, minRounds: 2 };
/** Both marks at once: stage and commit in one pass. */
const collapseToolRuns = (messages: Message[], tokens: number) =>
  new ContextCollapse(options).apply(messages, tokens);

describe('ContextCollapse: what folds', () => {
  it('folds old tool rounds into one deterministic note and keeps the recent ones', () => {
    const messages = conversation(8);
    const { messages: out, folded, event } = collapseToolRuns(messages, 10_000);
    // 9 rounds (prompt + 8 tool rounds): the newest 3 stay, the prompt stays, 5 tool rounds fold.
    expect(folded).toBe(5);
    expect(out[0]).toBe(messages[0]);
    const note = userText(out[1]);
    expect(note.startsWith(COLLAPSE_PREFIX)).toBe(true);
    expect(note).toContain('- Read({"file_path":"/src/t0.ts"}) → line one of 0');
    expect(note).toContain('t4.ts');
    expect(note).not.toContain('t5.ts');
    expect(out.slice(2)).toEqual(messages.slice(-6));
    expect(event && contextEditOf(event)).toEqual({
      kind: 'collapse',
      spans: [{ removedUuids: messages.slice(1, -6).map((m) => m.uuid), replacement: out[1] }],
    });
    assertValidForApi(out);
  });

  it('does not fold across a user prompt or an answer without tools, and not below the trigger', () => {
    const messages = [
      ...conversation(3),
      assistant([{ type: 'text', text: 'Done with part one.' }]),
      createUserMessage('Now part two.'),
      ...conversation(6).slice(1),
    ];
    expect(collapseToolRuns(messages, 10).folded).toBe(0);
    const { messages: out } = collapseToolRuns(messages, 10_000);
    expect(out.filter((m) => userText(m).startsWith(COLLAPSE_PREFIX))).toHaveLength(2);
    expect(out.some((m) => userText(m) === 'Now part two.')).toBe(true);
    assertValidForApi(out);
  });
});

describe('ContextCollapse: staged collapses', () => {
  const marks = { stageTokens: 1_000, commitTokens: 2_000, keepRecentRounds: 3, minRounds: 2 };

  it('stages between the marks without touching the request, and commits past the second', () => {
    const collapse = new ContextCollapse(marks);
    const messages = conversation(8);
    expect(collapse.apply(messages, 999)).toEqual({ messages, folded: 0 });
    expect(collapse.stagedRounds).toBe(0);

    const staged = collapse.apply(messages, 1_500);
    expect(staged.messages).toBe(messages);
    expect(staged.event).toBeUndefined();
    expect(collapse.stagedRounds).toBe(5);

    // Two more rounds arrive; the commit folds what was staged plus the rounds that aged since.
    const grown = [...messages, ...conversation(2).slice(1)];
    const committed = collapse.apply(grown, 2_500);
    expect(committed.folded).toBe(7);
    expect(committed.event && contextEditOf(committed.event)?.spans).toHaveLength(2);
    expect(collapse.stagedRounds).toBe(0);
    assertValidForApi(committed.messages);
  });

  it('skips a staged run that history lost meanwhile', () => {
    const collapse = new ContextCollapse(marks);
    const messages = conversation(8);
    collapse.apply(messages, 1_500);
    const rewritten = [createUserMessage('Fresh start.'), ...messages.slice(-6)];
    expect(collapse.apply(rewritten, 2_500).folded).toBe(0);
  });

  it('drains with looser rules: everything staged plus any old run, two rounds kept', () => {
    const collapse = new ContextCollapse(marks);
    // Below both marks: nothing staged, but the drain still finds what to fold.
    const messages = conversation(4);
    const drained = collapse.drain(messages);
    expect(drained.folded).toBe(2);
    expect(drained.messages.slice(-4)).toEqual(messages.slice(-4));
    expect(userText(drained.messages[1]).startsWith(COLLAPSE_PREFIX)).toBe(true);
    // Nothing left to fold: the drain says so, and the loop goes on to compaction.
    expect(collapse.drain(drained.messages).folded).toBe(0);
  });
});
