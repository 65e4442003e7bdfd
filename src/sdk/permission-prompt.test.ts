import { describe, expect, it } from 'vitest';
import { ControlChannel } from './control-channel';
import { approvedRulesFrom, createStdioPermissionPrompt, toDecision } from './permission-prompt';

const input = { command: 'rm -rf build' };

function host(answer: (request: Record<string, unknown>) => Record<string, unknown> | Error) {
  const asked: Record<string, unknown>[] = [];
  const waiting: boolean[] = [];
  const channel: ControlChannel = new ControlChannel((message) => {
    if (message.type !== 'control_request') return;
    asked.push(message.request);
    const reply = answer(message.request);
    queueMicrotask(() =>
      channel.handleResponse(
        reply instanceof Error
          ? { subtype: 'error', request_id: message.request_id, error: reply.message }
          : { subtype: 'success', request_id: message.request_id, response: reply },
      ),
    );
  });
  const prompt = createStdioPermissionPrompt({ channel, onWaiting: (w) => waiting.push(w) });
  const ask = (signal = new AbortController().signal) =>
    prompt({
      toolName: 'Bash',
      input,
      toolUseId: 'toolu_1',
      message: 'Yoke wants to run rm',
      suggestions: ['Bash(rm:*)'],
      signal,
    });
  return { ask, asked, waiting, channel };
}

describe('stdio permission prompt', () => {
  it('sends can_use_tool with the call and suggestions as PermissionUpdates', async () => {
    const h = host(() => ({ behavior: 'allow' }));
    await h.ask();
    expect(h.asked[0]).toMatchObject({
      subtype: 'can_use_tool',
      tool_name: 'Bash',
      input,
      tool_use_id: 'toolu_1',
      permission_suggestions: [
        {
          type: 'addRules',
          behavior: 'allow',
          destination: 'localSettings',
          rules: [{ toolName: 'Bash', ruleContent: 'rm:*' }],
        },
      ],
    });
    expect(h.waiting).toEqual([true, false]);
  });

  it('allow: defaults updatedInput to the original input, or takes the host rewrite', async () => {
    expect(await host(() => ({ behavior: 'allow' })).ask()).toMatchObject({
      behavior: 'allow',
      updatedInput: input,
    });
    const rewritten = await host(() => ({ behavior: 'allow', updatedInput: { command: 'ls' } })).ask();
    expect(rewritten).toMatchObject({ behavior: 'allow', updatedInput: { command: 'ls' } });
  });

  it('allow with updatedPermissions passes the allow rules on as addRules', async () => {
    const decision = await host(() => ({
      behavior: 'allow',
      updatedPermissions: [
        {
          type: 'addRules',
          behavior: 'allow',
          destination: 'session',
          rules: [{ toolName: 'Bash', ruleContent: 'rm:*' }],
        },
        { type: 'setMode', mode: 'bypassPermissions', destination: 'session' },
      ],
    })).ask();
    expect(decision).toMatchObject({ behavior: 'allow', addRules: ['Bash(rm:*)'] });
    // `session`: for this session only.
    expect(decision).not.toHaveProperty('saveRulesTo');
  });

  it('rules answered for a settings destination are saved there; mixed destinations stay in the session', () => {
    const update = (destination: string, ruleContent: string) => ({
      type: 'addRules',
      behavior: 'allow',
      destination,
      rules: [{ toolName: 'Bash', ruleContent }],
    });
    expect(approvedRulesFrom([update('localSettings', 'npm test')])).toEqual({
      rules: ['Bash(npm test)'],
      saveTo: 'localSettings',
    });
    expect(approvedRulesFrom([update('userSettings', 'a'), update('userSettings', 'b')])).toEqual({
      rules: ['Bash(a)', 'Bash(b)'],
      saveTo: 'userSettings',
    });
    expect(approvedRulesFrom([update('localSettings', 'a'), update('session', 'b')])).toEqual({
      rules: ['Bash(a)', 'Bash(b)'],
    });
    expect(approvedRulesFrom([update('cliArg', 'a')])).toEqual({ rules: ['Bash(a)'] });
    expect(approvedRulesFrom([update('elsewhere', 'a')])).toEqual({ rules: ['Bash(a)'] });
  });

  it('deny carries the message and interrupt', async () => {
    expect(await host(() => ({ behavior: 'deny', message: 'not today' })).ask()).toMatchObject({
      behavior: 'deny',
      message: 'not today',
    });
    const stop = await host(() => ({ behavior: 'deny', message: 'stop', interrupt: true })).ask();
    expect(stop).toMatchObject({ behavior: 'deny', message: 'stop', interrupt: true });
  });

  it('an error answer (no canUseTool in the host) becomes a denial that says why', async () => {
    const decision = await host(() => new Error('canUseTool callback is not provided.')).ask();
    expect(decision.behavior).toBe('deny');
    expect('message' in decision && decision.message).toContain('canUseTool callback is not provided.');
  });

  it('an interrupted turn rejects instead of denying', async () => {
    const h = host(() => ({ behavior: 'allow' }));
    const abort = new AbortController();
    abort.abort();
    await expect(h.ask(abort.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('unreadable answers fail closed', () => {
    expect(toDecision({ behavior: 'maybe' }, input).behavior).toBe('deny');
    expect(toDecision({ behavior: 'allow', updatedInput: 'x' }, input)).toMatchObject({
      updatedInput: input,
    });
    expect(approvedRulesFrom('nope')).toEqual({ rules: [] });
    expect(
      approvedRulesFrom([{ type: 'addRules', behavior: 'allow', rules: [{ toolName: 'Read' }] }]),
    ).toEqual({
      rules: ['Read'],
    });
  });
});
