import '../testing/hide-ci';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { restoreCi } from '../testing/hide-ci';
import { renderView } from '../testing/render-view';
import { type McpApprovalAnswer, McpApprovalDialog } from './mcp-approval-dialog';

afterAll(restoreCi);

const server = { name: 'fx', what: '/usr/bin/node /p/server.mjs --port 3' };

function dialog(remaining: number) {
  const answers: McpApprovalAnswer[] = [];
  const view = renderView(
    <McpApprovalDialog server={server} remaining={remaining} onAnswer={(a) => answers.push(a)} />,
  );
  return { view, answers };
}

describe('the MCP approval dialog', () => {
  it('shows what would run and offers approve, approve all and deny', () => {
    const { view } = dialog(2);
    const frame = view.frame();
    expect(frame).toContain(`This folder's .mcp.json asks Yoke to start the MCP server "fx"`);
    expect(frame).toContain('/usr/bin/node /p/server.mjs --port 3');
    expect(frame).toContain('❯ 1. Yes, start it (remembered for this folder)');
    expect(frame).toContain('2. Yes, and the 2 other servers of this .mcp.json waiting');
    expect(frame).toContain('3. No, do not start it (remembered for this folder)');
  });

  it('answers by number, by arrows and Enter, and Esc decides later', async () => {
    const { view, answers } = dialog(1);
    view.type('3');
    view.type('2');
    view.type('\x1b[B');
    view.type('\x1b[B');
    view.type('\r');
    view.type('\x1b');
    expect(answers).toEqual(['deny', 'approve-all', 'deny', 'later']);
    await vi.waitFor(() => expect(view.frame()).toContain('❯ 3. No'));
  });

  it('without other servers waiting there is no "all" choice', () => {
    const { view, answers } = dialog(0);
    expect(view.frame()).not.toContain('other server');
    view.type('2');
    expect(answers).toEqual(['deny']);
  });
});
