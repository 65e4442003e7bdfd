import { describe, expect, it, vi } from 'vitest';
import { createSystemMessage, createUserMessage } from '../../session/messages';
import { assistant } from '../../session/transcript-test-support';
import { nextMode, ReplSession } from './repl-session';
import {
  assistantFrame,
  resultFrame,
  ScriptedEngine,
  type ScriptedTurn,
  toolResultFrame,
  toolStartFrame,
} from './scripted-engine';

const abortable = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });

/** A step of a scripted turn or file read that waits until the test opens it. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const state = {
    reached: false,
    open: () => open(),
    wait: () => {
      state.reached = true;
      return opened;
    },
  };
  return state;
}

/** The permission question of Bash call `t1`, as the engine asks it. */
const askBash = (session: ReplSession, command: string, signal: AbortSignal) =>
  session.permissionPrompt({
    toolName: 'Bash',
    input: { command },
    toolUseId: 't1',
    message: 'Allow?',
    signal,
  });

/** A first turn that runs until `held` opens, and a second that ends at once. */
const heldThenDone = (held: ReturnType<typeof gate>): ScriptedTurn[] => [
  async function* () {
    await held.wait();
    yield resultFrame();
  },
  async function* () {
    yield resultFrame();
  },
];

describe('ReplSession', () => {
  it('shows what a resumed conversation last filled of the window before its first turn, unknown after a compaction', () => {
    const history = [createUserMessage('hi'), assistant([{ type: 'text', text: 'hello' }])];
    const resumed = new ReplSession();
    resumed.attach(new ScriptedEngine([], history));
    // The last request's reported input, cache and output tokens (transcript-test-support's usage).
    expect(resumed.getStatus().contextTokens).toBe(100 + 5 + 1 + 20);
    const compacted = new ReplSession();
    compacted.attach(
      new ScriptedEngine([], [...history, createSystemMessage('compact_boundary', 'Conversation compacted')]),
    );
    expect(compacted.getStatus().contextTokens).toBe(0);
  });

  it('sends what a prompt mentions after it, and says what was attached and what was not', async () => {
    const engine = new ScriptedEngine([
      async function* () {
        yield resultFrame();
      },
      async function* () {
        yield resultFrame();
      },
    ]);
    const session = new ReplSession({
      attachMentions: async (prompt) =>
        prompt.includes('@a.ts')
          ? {
              blocks: [{ type: 'text', text: 'The user mentioned @a.ts' }],
              attached: ['a.ts'],
              problems: ['@b.ts was not attached: there is no /p/b.ts.'],
            }
          : { blocks: [], attached: [], problems: [] },
    });
    session.attach(engine);
    session.submit('look at @a.ts and @b.ts');
    await session.whenIdle();
    session.submit('no mention here');
    await session.whenIdle();
    expect(engine.contents).toEqual([
      [
        { type: 'text', text: 'look at @a.ts and @b.ts' },
        { type: 'text', text: 'The user mentioned @a.ts' },
      ],
      'no mention here',
    ]);
    const notices = session.transcript
      .getSnapshot()
      .committed.flatMap((i) => (i.kind === 'notice' ? [i.text] : []));
    expect(notices).toEqual(['@b.ts was not attached: there is no /p/b.ts.', 'Attached a.ts']);
  });

  it('a !cd moves the engine and the status shows where tools run', () => {
    const engine = new ScriptedEngine([]);
    const session = new ReplSession();
    expect(session.getStatus().cwd).toBe('');
    session.attach(engine);
    expect(session.getStatus().cwd).toBe('/project');
    session.moveCwd('/project/src');
    expect(engine.currentCwd).toBe('/project/src');
    expect(session.getStatus().cwd).toBe('/project/src');
  });

  it('runs a prompt typed before the engine was ready once it is attached', async () => {
    const engine = new ScriptedEngine([
      async function* () {
        yield assistantFrame([{ type: 'text', text: 'hi' }]);
        yield resultFrame();
      },
    ]);
    const session = new ReplSession();
    session.submit('hello');
    expect(engine.prompts).toEqual([]);
    session.attach(engine);
    await session.whenIdle();
    expect(engine.prompts).toEqual(['hello']);
    expect(session.transcript.getSnapshot().committed.map((i) => i.kind)).toEqual(['user', 'assistant']);
  });

  it('queues a prompt typed during a turn for the engine, and runs it next when the turn did not read it', async () => {
    const held = gate();
    const engine = new ScriptedEngine(heldThenDone(held));
    const session = new ReplSession();
    session.attach(engine);
    session.submit('first');
    await vi.waitFor(() => expect(session.getStatus().running).toBe(true));
    session.submit('second');
    expect(engine.enqueued).toEqual(['second']);
    expect(session.getStatus().queued).toEqual(['second']);
    held.open();
    await vi.waitFor(() => expect(engine.prompts).toEqual(['first', 'second']));
  });

  it('a prompt typed during a turn gets the files it mentions, as a typed one; the prompts after it keep their order', async () => {
    const held = gate();
    const files = gate();
    const attached = [{ type: 'text' as const, text: 'The user mentioned @a.ts' }];
    const engine: ScriptedEngine = new ScriptedEngine([
      async function* () {
        await held.wait();
        // The turn's next boundary reads the first queued prompt; the engine yields it as the user's.
        const read: unknown = engine.enqueued.shift();
        yield { ...toolResultFrame('t', ''), message: { role: 'user', content: read } } as never;
        yield resultFrame();
      },
      async function* () {
        yield resultFrame();
      },
    ]);
    const session = new ReplSession({
      attachMentions: async () => {
        await files.wait();
        return { blocks: attached, attached: ['a.ts'], problems: [] };
      },
    });
    session.attach(engine);
    session.submit('first');
    await vi.waitFor(() => expect(session.getStatus().running).toBe(true));
    session.submit('now see @a.ts');
    session.submit('and then this');
    expect(session.getStatus().queued).toEqual(['now see @a.ts', 'and then this']);
    // Nothing reaches the engine before the mentioned file is read, not even the later prompt.
    await vi.waitFor(() => expect(files.reached).toBe(true));
    expect(engine.enqueued).toEqual([]);
    files.open();
    await vi.waitFor(() =>
      expect(engine.enqueued).toEqual([
        [{ type: 'text', text: 'now see @a.ts' }, ...attached],
        'and then this',
      ]),
    );
    held.open();
    await session.whenIdle();
    // Read at the boundary: no longer waiting, shown as the user's; the other one ran next.
    expect(engine.prompts).toEqual(['first', 'and then this']);
    const users = session.transcript
      .getSnapshot()
      .committed.flatMap((i) => (i.kind === 'user' ? [i.text] : []));
    expect(users).toEqual(['first', 'now see @a.ts', 'and then this']);
  });

  it('a prompt whose files are still being read when the turn ends runs next, with them, attached once', async () => {
    const held = gate();
    const files = gate();
    const engine = new ScriptedEngine(heldThenDone(held));
    let reads = 0;
    const session = new ReplSession({
      attachMentions: async () => {
        reads++;
        await files.wait();
        return { blocks: [{ type: 'text', text: 'file a' }], attached: ['a.ts'], problems: [] };
      },
    });
    session.attach(engine);
    session.submit('first');
    await vi.waitFor(() => expect(session.getStatus().running).toBe(true));
    session.submit('see @a.ts');
    await vi.waitFor(() => expect(files.reached).toBe(true));
    held.open();
    await vi.waitFor(() => expect(session.getStatus().running).toBe(false));
    files.open();
    await session.whenIdle();
    expect(engine.enqueued).toEqual([]);
    expect(engine.contents).toEqual([
      'first',
      [
        { type: 'text', text: 'see @a.ts' },
        { type: 'text', text: 'file a' },
      ],
    ]);
    expect(reads).toBe(1);
  });

  it('Esc interrupts the running turn, and a waiting permission question is answered with a deny', async () => {
    const decisions: unknown[] = [];
    const session = new ReplSession();
    const engine = new ScriptedEngine([
      async function* (signal) {
        yield assistantFrame([{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'rm -rf x' } }]);
        decisions.push(await askBash(session, 'rm -rf x', signal));
        await abortable(signal);
        yield resultFrame('aborted_streaming');
      },
    ]);
    session.attach(engine);
    session.submit('go');
    await vi.waitFor(() => expect(session.getStatus().permission).toBeDefined());
    expect(session.interrupt()).toBe(true);
    await session.whenIdle();
    expect(decisions).toEqual([
      { behavior: 'deny', message: 'The user interrupted the turn.', interrupt: true },
    ]);
    const kinds = session.transcript.getSnapshot().committed.map((i) => i.kind);
    expect(kinds).toEqual(['user', 'tool', 'turn-end']);
  });

  it('a call waiting for its permission question has not started: its running time starts when the engine starts it', async () => {
    let clock = 1_000;
    const now = vi.spyOn(Date, 'now').mockImplementation(() => clock);
    const session = new ReplSession();
    const started = gate();
    const ran = gate();
    const engine = new ScriptedEngine([
      async function* (signal) {
        yield assistantFrame([{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'make' } }]);
        await askBash(session, 'make', signal);
        await started.wait();
        yield toolStartFrame('t1');
        await ran.wait();
        yield toolResultFrame('t1', 'built', false, { stdout: 'built' });
        yield resultFrame();
      },
    ]);
    session.attach(engine);
    session.submit('go');
    await vi.waitFor(() => expect(session.getStatus().permission).toBeDefined());
    const tool = () => session.transcript.getSnapshot().live.find((item) => item.kind === 'tool');
    expect(tool()).toMatchObject({ outcome: { status: 'awaiting-permission' } });
    // The user takes a minute to answer.
    clock = 61_000;
    session.getStatus().permission?.answer({ behavior: 'allow' });
    // Allowed, but not started yet: no clock runs.
    expect(tool()).toMatchObject({ outcome: { status: 'waiting' } });
    clock = 62_000;
    started.open();
    await vi.waitFor(() =>
      expect(tool()).toMatchObject({ outcome: { status: 'running', startedAt: 62_000 } }),
    );
    ran.open();
    await session.whenIdle();
    now.mockRestore();
  });

  it('Shift+Tab cycles default → acceptEdits → plan → default', () => {
    expect([nextMode('default'), nextMode('acceptEdits'), nextMode('plan')]).toEqual([
      'acceptEdits',
      'plan',
      'default',
    ]);
    const engine = new ScriptedEngine([]);
    const session = new ReplSession();
    session.attach(engine);
    session.cyclePermissionMode();
    expect(engine.permissionMode).toBe('acceptEdits');
    expect(session.getStatus().mode).toBe('acceptEdits');
  });

  it('keeps a mode chosen before the engine is ready and applies it when the engine attaches', () => {
    const session = new ReplSession();
    session.cyclePermissionMode();
    session.cyclePermissionMode();
    expect(session.getStatus().mode).toBe('plan');
    const engine = new ScriptedEngine([]);
    session.attach(engine);
    expect(engine.permissionMode).toBe('plan');
  });

  it('reports the context the last request filled', async () => {
    const engine = new ScriptedEngine([
      async function* () {
        yield assistantFrame([{ type: 'tool_use', id: 't', name: 'Read', input: { file_path: '/x' } }]);
        yield toolResultFrame('t', 'content');
        yield resultFrame();
      },
    ]);
    const session = new ReplSession();
    session.attach(engine);
    session.submit('read');
    await session.whenIdle();
    expect(session.getStatus().contextTokens).toBe(1050);
    // /clear: the next conversation starts with nothing in the window.
    session.attach(new ScriptedEngine([]));
    expect(session.getStatus().contextTokens).toBe(0);
  });
});
