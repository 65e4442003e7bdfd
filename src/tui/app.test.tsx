import './testing/hide-ci';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { App } from './app';
import { ReplSession } from './session/repl-session';
import { assistantFrame, toolResultFrame } from './session/scripted-engine';
import { restoreCi } from './testing/hide-ci';
import { renderView } from './testing/render-view';

afterAll(restoreCi);

const actions = {
  submit: () => {},
  exit: () => {},
  suspend: () => {},
  editExternally: () => undefined,
  complete: async () => [],
};

describe('App', () => {
  it('lets printed items go and still shows the latest todo list on Ctrl+T', async () => {
    const session = new ReplSession();
    const todos = [{ content: 'write the parser', status: 'in_progress' }];
    session.transcript.apply(
      assistantFrame([{ type: 'tool_use', id: 't1', name: 'TodoWrite', input: { todos } }]),
    );
    session.transcript.apply(toolResultFrame('t1', 'ok'));
    const view = renderView(
      <App
        session={session}
        cwd="/project"
        actions={actions}
        history={() => []}
        contextWindow={() => 200_000}
        backgroundShells={() => 0}
      />,
    );
    // Printed to the scrollback, so the store no longer holds the call's input.
    await vi.waitFor(() =>
      expect(JSON.stringify(session.transcript.getSnapshot().committed)).not.toContain('write the parser'),
    );
    view.type('\x14');
    await vi.waitFor(() => expect(view.frame()).toContain('write the parser'));
  });

  it('Ctrl+O with no cut tool output says full output is on and that nothing was cut', async () => {
    const session = new ReplSession();
    session.transcript.apply(assistantFrame([{ type: 'text', text: 'just words' }]));
    const view = renderView(
      <App
        session={session}
        cwd="/project"
        actions={actions}
        history={() => []}
        contextWindow={() => 200_000}
        backgroundShells={() => 0}
      />,
    );
    view.type('\x0f');
    await vi.waitFor(() =>
      expect(view.frame()).toContain(
        'nothing since the last prompt was cut; later tool output is shown whole',
      ),
    );
    expect(view.frame()).toMatch(/full output$/m);
  });
});
