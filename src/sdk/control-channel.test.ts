import { describe, expect, it } from 'vitest';
import { ControlChannel, ControlRequestError } from './control-channel';

function channel() {
  const sent: Record<string, unknown>[] = [];
  let n = 0;
  const c = new ControlChannel(
    (message) => sent.push(message as Record<string, unknown>),
    () => `req-${++n}`,
  );
  return { c, sent };
}

describe('ControlChannel', () => {
  it('matches answers to requests by id, whatever the order', async () => {
    const { c, sent } = channel();
    const first = c.request({ subtype: 'hook_callback', callback_id: 'hook_0' });
    const second = c.request({ subtype: 'can_use_tool', tool_name: 'Bash' });
    expect(sent).toEqual([
      {
        type: 'control_request',
        request_id: 'req-1',
        request: { subtype: 'hook_callback', callback_id: 'hook_0' },
      },
      {
        type: 'control_request',
        request_id: 'req-2',
        request: { subtype: 'can_use_tool', tool_name: 'Bash' },
      },
    ]);
    expect(
      c.handleResponse({ subtype: 'success', request_id: 'req-2', response: { behavior: 'allow' } }),
    ).toBe(true);
    expect(c.handleResponse({ subtype: 'success', request_id: 'req-1' })).toBe(true);
    await expect(second).resolves.toEqual({ behavior: 'allow' });
    await expect(first).resolves.toEqual({});
    expect(c.pendingCount).toBe(0);
  });

  it('rejects on an error answer with the host message', async () => {
    const { c } = channel();
    const pending = c.request({ subtype: 'can_use_tool' });
    c.handleResponse({
      subtype: 'error',
      request_id: 'req-1',
      error: 'canUseTool callback is not provided.',
    });
    await expect(pending).rejects.toThrow(new ControlRequestError('canUseTool callback is not provided.'));
  });

  it('ignores answers to unknown ids and duplicate answers', async () => {
    const { c } = channel();
    const pending = c.request({ subtype: 'hook_callback' });
    expect(c.handleResponse({ subtype: 'success', request_id: 'nobody', response: {} })).toBe(false);
    expect(c.handleResponse({ subtype: 'success', request_id: 'req-1', response: { a: 1 } })).toBe(true);
    expect(c.handleResponse({ subtype: 'success', request_id: 'req-1', response: { a: 2 } })).toBe(false);
    await expect(pending).resolves.toEqual({ a: 1 });
  });

  it('withdraws an aborted request with control_cancel_request and ignores the late answer', async () => {
    const { c, sent } = channel();
    const abort = new AbortController();
    const pending = c.request({ subtype: 'can_use_tool' }, abort.signal);
    abort.abort(new Error('turn interrupted'));
    await expect(pending).rejects.toThrow('turn interrupted');
    expect(sent.at(-1)).toEqual({ type: 'control_cancel_request', request_id: 'req-1' });
    expect(c.handleResponse({ subtype: 'success', request_id: 'req-1', response: {} })).toBe(false);
  });

  it('does not send a request whose signal is already aborted', async () => {
    const { c, sent } = channel();
    await expect(c.request({ subtype: 'x' }, AbortSignal.abort())).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(sent).toEqual([]);
  });

  it('after close, fails waiting and new requests at once', async () => {
    const { c, sent } = channel();
    const pending = c.request({ subtype: 'can_use_tool' });
    c.close('stdin was closed');
    await expect(pending).rejects.toThrow('stdin was closed');
    await expect(c.request({ subtype: 'hook_callback' })).rejects.toThrow('stdin was closed');
    expect(sent).toHaveLength(1);
  });
});
