import { describe, expect, it } from 'vitest';
import { ControlChannel } from './control-channel';
import { createHookCallbackInvoker, parseSdkHooks } from './hook-invoker';

describe('parseSdkHooks', () => {
  it('turns initialize.hooks into matchers and collects onFailure:block ids', () => {
    const parsed = parseSdkHooks({
      PreToolUse: [
        { matcher: 'Bash', hookCallbackIds: ['hook_0', 'hook_1'], timeout: 5, onFailure: 'block' },
        { hookCallbackIds: [] },
      ],
      Stop: [{ hookCallbackIds: ['hook_2'] }],
      TeammateIdle: [{ hookCallbackIds: ['hook_3'] }],
    });
    expect(parsed.matchers).toEqual([
      { event: 'PreToolUse', matcher: 'Bash', callbackIds: ['hook_0', 'hook_1'], timeout: 5 },
      { event: 'Stop', callbackIds: ['hook_2'] },
    ]);
    expect([...parsed.blocking]).toEqual(['hook_0', 'hook_1']);
    expect(parsed.unsupportedEvents).toEqual(['TeammateIdle']);
    expect(parseSdkHooks(undefined).matchers).toEqual([]);
  });

  it('bounds timeouts the way settings hooks are, saying which hook was corrected', () => {
    const parsed = parseSdkHooks({
      PreToolUse: [{ hookCallbackIds: ['hook_0'], timeout: 3_000_000 }],
      Stop: [{ hookCallbackIds: ['hook_1'], timeout: -1 }],
    });
    expect(parsed.matchers.map((m) => m.timeout)).toEqual([600, 60]);
    expect(parsed.timeoutProblems).toEqual([
      'SDK PreToolUse hook (callbacks hook_0): timeout 3000000 is above the maximum of 600 s; using 600 s',
      'SDK Stop hook (callbacks hook_1): timeout -1 is negative; using the default of 60 s',
    ]);
  });
});

describe('hook callback invoker', () => {
  function setup(reply: 'ok' | 'error') {
    const sent: Record<string, unknown>[] = [];
    const channel: ControlChannel = new ControlChannel((message) => {
      if (message.type !== 'control_request') return;
      sent.push(message.request);
      queueMicrotask(() =>
        channel.handleResponse(
          reply === 'ok'
            ? { subtype: 'success', request_id: message.request_id, response: { continue: true } }
            : {
                subtype: 'error',
                request_id: message.request_id,
                error: 'No hook callback found for ID: hook_9',
              },
        ),
      );
    });
    return { channel, sent };
  }
  const input = { hook_event_name: 'PreToolUse', tool_name: 'Bash' };

  it('sends hook_callback and returns the host output', async () => {
    const { channel, sent } = setup('ok');
    const invoke = createHookCallbackInvoker(channel);
    const output = await invoke({
      callbackId: 'hook_0',
      input,
      toolUseId: 'toolu_1',
      signal: new AbortController().signal,
    });
    expect(output).toEqual({ continue: true });
    expect(sent).toEqual([
      { subtype: 'hook_callback', callback_id: 'hook_0', input, tool_use_id: 'toolu_1' },
    ]);
  });

  it('a failing callback throws, unless it is registered to block on failure', async () => {
    const { channel } = setup('error');
    const signal = new AbortController().signal;
    const invoke = createHookCallbackInvoker(channel, new Set(['hook_9']));
    await expect(invoke({ callbackId: 'hook_8', input, signal })).rejects.toThrow('No hook callback found');
    const blocked = await invoke({ callbackId: 'hook_9', input, signal });
    expect(blocked).toMatchObject({
      decision: 'block',
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' },
    });
  });
});
