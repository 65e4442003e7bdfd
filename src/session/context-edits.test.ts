import { describe, expect, it } from 'vitest';
import { ContextCollapse } from '../engine/context/collapse';
import { snipHistory } from '../engine/context/snip';
import { applyContextEdits } from './context-edits';
import { createSystemMessage, type Message } from './messages';
import { loadTranscript } from './transcript-loader';
import { conversation, tempHome, writeSession } from './transcript-test-support';

/** What the engine does: the history a stage returns, and its event appended to the transcript. */
function snipped(history: Message[], keepTurns: number): { history: Message[]; event: Message } {
  const out = snipHistory(history, { keepTurns });
  if (!out.event) throw new Error('expected a snip');
  return { history: [...out.messages, out.event], event: out.event };
}

describe('context edits on resume', () => {
  it('a resumed session continues from what the snip left, not from everything it removed', async () => {
    const { env, cwd } = tempHome();
    const before = conversation(12);
    const { history } = snipped(before, 4);
    const later = conversation(1);
    const live = [...history, ...later];
    // The transcript is append-only: every original line, then the snip's event, then what followed.
    const { path } = writeSession(env, cwd, [...before, history.at(-1) as Message, ...later]);

    const loaded = await loadTranscript(path);
    expect(loaded.messages.map((m) => m.uuid)).toEqual(live.map((m) => m.uuid));
    expect(loaded.messages).toEqual(live);
    expect(loaded.leafUuid).toBe(later.at(-1)?.uuid);
  });

  it('replays a collapse and a later snip in order, so the second snip replaces the first marker too', () => {
    const base = conversation(12);
    const first = snipped(base, 8);
    const collapse = new ContextCollapse({
      stageTokens: 0,
      commitTokens: 0,
      keepRecentRounds: 2,
      minRounds: 1,
    });
    const collapsed = collapse.apply(first.history, 1);
    if (!collapsed.event) throw new Error('expected a collapse');
    const afterCollapse = [...collapsed.messages, collapsed.event, ...conversation(8)];
    const second = snipped(afterCollapse, 3);
    const chain = [
      ...base,
      first.event,
      collapsed.event,
      ...afterCollapse.slice(collapsed.messages.length + 1),
      second.event,
    ];
    expect(applyContextEdits(chain)).toEqual(second.history);
    expect(second.history.filter((m) => m.type === 'user' && m.isMeta)).toHaveLength(1);
  });

  it('changes nothing when the removed messages are gone already (a forked copy) and keeps one note', () => {
    const { history } = snipped(conversation(12), 4);
    expect(applyContextEdits(history)).toEqual(history);
  });

  it('ignores a damaged edit record instead of dropping history', () => {
    const messages = conversation(2);
    const damaged = createSystemMessage('informational', 'Snipped', {
      data: { contextEdit: { kind: 'snip', spans: [{ removedUuids: [messages[0]?.uuid] }] } },
    });
    expect(applyContextEdits([...messages, damaged])).toEqual([...messages, damaged]);
  });
});
