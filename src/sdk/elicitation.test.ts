/**
 * The host's answers to an `elicitation` control request, read strictly: only the protocol's
 * three actions count, anything else (or a host error) declines, and an accept carries its content.
 */
import { describe, expect, it } from 'vitest';
import { ControlChannel } from './control-channel';
import { hostElicitation } from './elicitation';
import type { ControlRequest } from './protocol';

function channelAnswering(answer: (request: ControlRequest) => Record<string, unknown> | Error) {
  const sent: ControlRequest[] = [];
  const channel: ControlChannel = new ControlChannel((message) => {
    if (message.type !== 'control_request') return;
    sent.push(message);
    const reply = answer(message);
    queueMicrotask(() =>
      channel.handleResponse(
        reply instanceof Error
          ? { subtype: 'error', request_id: message.request_id, error: reply.message }
          : { subtype: 'success', request_id: message.request_id, response: reply as never },
      ),
    );
  });
  return { channel, sent };
}

const question = {
  server: 'forms',
  message: 'Your name?',
  mode: 'form' as const,
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
};

describe('hostElicitation', () => {
  it('asks the host with the protocol fields and returns its accepted content', async () => {
    const { channel, sent } = channelAnswering(() => ({ action: 'accept', content: { name: 'Ada' } }));
    const answer = await hostElicitation(channel)(question, new AbortController().signal);
    expect(answer).toEqual({ action: 'accept', content: { name: 'Ada' } });
    expect(sent[0]?.request).toEqual({
      subtype: 'elicitation',
      mcp_server_name: 'forms',
      message: 'Your name?',
      mode: 'form',
      requested_schema: question.requestedSchema,
    });
  });

  it('reads an unknown action, a missing one and a host error as decline; cancel stays cancel', async () => {
    const answers = [{ action: 'yes' }, {}, new Error('no callback'), { action: 'cancel' }];
    const results = [];
    for (const reply of answers) {
      const { channel } = channelAnswering(() => reply);
      results.push(await hostElicitation(channel)(question, new AbortController().signal));
    }
    expect(results).toEqual([
      { action: 'decline' },
      { action: 'decline' },
      { action: 'decline' },
      { action: 'cancel' },
    ]);
  });
});
