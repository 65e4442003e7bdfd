import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandGroup, createHookTestBed, type HookTestBed, never, toolInput } from './runner-test-support';
import type { HookCallbackInvoker, HookJSONOutput, SdkHookMatcher } from './types';

let bed: HookTestBed;
beforeEach(async () => {
  bed = await createHookTestBed();
});
afterEach(async () => {
  await bed.cleanup();
});

type Call = Parameters<HookCallbackInvoker>[0];

function fakeHost(answers: Record<string, (call: Call) => Promise<HookJSONOutput>>) {
  const calls: Call[] = [];
  const invoke: HookCallbackInvoker = (call) => {
    calls.push(call);
    const answer = answers[call.callbackId];
    return answer
      ? answer(call)
      : Promise.reject(new Error(`No hook callback found for ID: ${call.callbackId}`));
  };
  return { calls, invoke };
}

const sdkRunner = (matchers: SdkHookMatcher[], host: ReturnType<typeof fakeHost>, settings = {}) =>
  bed.runner(settings, { sdkHooks: { matchers, invoke: host.invoke } });

describe('SDK callback hooks', () => {
  it('matches like command hooks and applies a deny', async () => {
    const host = fakeHost({
      hook_0: async () => ({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'hook says no',
        },
      }),
    });
    const runner = sdkRunner([{ event: 'PreToolUse', matcher: 'Bash', callbackIds: ['hook_0'] }], host);
    const outcome = await runner.preToolUse(toolInput(), never());
    expect(outcome.permissionDecision).toMatchObject({
      behavior: 'deny',
      message: 'PreToolUse:Bash hook error: hook says no',
    });
    expect(host.calls).toHaveLength(1);
    expect(host.calls[0]).toMatchObject({
      callbackId: 'hook_0',
      toolUseId: 'toolu_1',
      input: {
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        session_id: 'session-1',
        permission_mode: 'default',
      },
    });
    await runner.preToolUse(toolInput('Read'), never());
    expect(host.calls).toHaveLength(1);
  });

  it('treats {async: true} as no decision', async () => {
    const host = fakeHost({ hook_0: async () => ({ async: true, asyncTimeout: 30 }) });
    const runner = sdkRunner([{ event: 'PreToolUse', callbackIds: ['hook_0'] }], host);
    expect(await runner.preToolUse(toolInput(), never())).toEqual({});
    expect(bed.messages).toEqual([]);
  });

  it('abandons a callback that never answers at its timeout and aborts its signal', async () => {
    let seen: AbortSignal | undefined;
    const host = fakeHost({
      hook_0: (call) => {
        seen = call.signal;
        return new Promise(() => {});
      },
    });
    // A fraction of a second is rounded up: no timeout is shorter than 1 s.
    const runner = sdkRunner([{ event: 'Stop', callbackIds: ['hook_0'], timeout: 0.2 }], host);
    const outcome = await runner.stop({ stopHookActive: false, lastAssistantText: '' }, never());
    expect(outcome).toEqual({ blockingErrors: [] });
    expect(seen?.aborted).toBe(true);
    expect(bed.messages[0]?.text).toBe(
      'Stop hook "callback hook_0" timed out after 1s; continuing without its verdict',
    );
  });

  it('reports a failing callback as a non-blocking error', async () => {
    const host = fakeHost({});
    const runner = sdkRunner([{ event: 'PostToolUse', callbackIds: ['missing'] }], host);
    expect(await runner.postToolUse({ ...toolInput(), toolResponse: 'ok' }, never())).toEqual({});
    expect(bed.messages[0]?.text).toBe(
      'PostToolUse:Bash hook "callback missing" failed: No hook callback found for ID: missing',
    );
  });

  it('combines callbacks with command hooks run in parallel', async () => {
    const command = await bed.script(
      'allow.sh',
      `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'ls -1' } } })}'`,
    );
    const host = fakeHost({
      hook_0: async () => ({
        hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'from the host' },
      }),
    });
    const runner = sdkRunner([{ event: 'PreToolUse', matcher: 'Bash|Edit', callbackIds: ['hook_0'] }], host, {
      PreToolUse: [commandGroup('Bash', [command])],
    });
    const outcome = await runner.preToolUse(toolInput(), never());
    // The rewritten input travels once, apart from the verdict: the permission decision judges it.
    expect(outcome.permissionDecision).toEqual({
      behavior: 'allow',
      decisionReason: { type: 'hook', hookName: command },
    });
    expect(outcome).toMatchObject({
      updatedInput: { command: 'ls -1' },
      additionalContext: ['PreToolUse:Bash hook additional context: from the host'],
    });
  });

  it('blocks a prompt through a callback decision and ignores output meant for another event', async () => {
    const host = fakeHost({
      block: async () => ({ decision: 'block', reason: 'off-topic' }),
      wrong: async () => ({ hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 'x' } }),
    });
    const runner = sdkRunner([{ event: 'UserPromptSubmit', callbackIds: ['block', 'wrong'] }], host);
    const outcome = await runner.userPromptSubmit({ prompt: 'hi' }, never());
    expect(outcome).toEqual({ blocked: { reason: '[callback block]: off-topic' } });
    expect(bed.messages[0]?.text).toContain('returned hookSpecificOutput for Stop, not UserPromptSubmit');
  });
});
