import { describe, expect, it } from 'vitest';
import type { MockServer } from './server';
import { serverPerTest } from './test-support';

const start = serverPerTest();

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

async function ask(s: MockServer, body: Record<string, unknown>, api: 'anthropic' | 'openai' = 'anthropic') {
  const path = api === 'anthropic' ? '/v1/messages' : '/v1/chat/completions';
  const res = await fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': 'k' },
    body: JSON.stringify({ model: 'm', max_tokens: 10, ...body }),
  });
  if (res.status !== 200) return `HTTP ${res.status}`;
  const json = (await res.json()) as {
    content?: Array<{ text: string }>;
    choices?: Array<{ message: { content: string } }>;
  };
  return json.content?.[0]?.text ?? json.choices?.[0]?.message.content;
}

const user = (content: unknown) => ({ messages: [{ role: 'user', content }] });

describe('mock server: turn selection', () => {
  it('routes by the first user message and by the system prompt, so a parent and its workers keep their own scripts', async () => {
    const s = await start({
      turns: [
        { match: { systemContains: 'reviewer agent' }, reply: text('worker by system'), repeat: 'forever' },
        {
          match: { firstUserTextContains: 'Count the files' },
          reply: text('worker by prompt'),
          repeat: 'forever',
        },
        { reply: text('parent'), repeat: 'forever' },
      ],
    });
    const toolRound = (first: string) => ({
      messages: [
        { role: 'user', content: first },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'out' }] },
      ],
    });
    // The first message stays the routing key after tool rounds, when the last user text is a result.
    expect(await ask(s, toolRound('Count the files in src'))).toBe('worker by prompt');
    expect(await ask(s, toolRound('Fix the bug'))).toBe('parent');
    expect(await ask(s, { system: 'You are the reviewer agent.', ...user('Fix the bug') })).toBe(
      'worker by system',
    );
    expect(
      await ask(
        s,
        {
          messages: [
            { role: 'system', content: 'You are the reviewer agent.' },
            { role: 'user', content: 'x' },
          ],
        },
        'openai',
      ),
    ).toBe('worker by system');
    expect(await ask(s, user([{ type: 'text', text: 'Count the files' }]), 'openai')).toBe(
      'worker by prompt',
    );
  });

  it('matches on the last tool result of the conversation (both APIs)', async () => {
    const s = await start({
      turns: [
        {
          match: { lastToolResultContains: 'README.md' },
          reply: text('found the readme'),
          repeat: 'forever',
        },
        { reply: text('fallback'), repeat: 'forever' },
      ],
    });
    const anthropicBody = {
      messages: [
        { role: 'user', content: 'list' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'README.md\nsrc' }] },
      ],
    };
    expect(await ask(s, anthropicBody)).toBe('found the readme');
    const openaiBody = {
      messages: [
        { role: 'user', content: 'list' },
        {
          role: 'assistant',
          tool_calls: [{ id: 't1', type: 'function', function: { name: 'Bash', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 't1', content: 'README.md' },
      ],
    };
    expect(await ask(s, openaiBody, 'openai')).toBe('found the readme');
    // A later user message ends the tool exchange: the old result no longer counts.
    expect(await ask(s, { messages: [...anthropicBody.messages, { role: 'user', content: 'thanks' }] })).toBe(
      'fallback',
    );
  });

  it('matches on the last user text, model, api and offered tools', async () => {
    const s = await start([
      { match: { lastUserTextContains: 'weather' }, reply: text('sunny') },
      { match: { model: 'big-model' }, reply: text('big') },
      { match: { api: 'openai' }, reply: text('openai') },
      { match: { hasTool: 'Grep' }, reply: text('has grep') },
      { reply: text('anything') },
    ]);
    expect(await ask(s, user([{ type: 'text', text: 'how is the weather?' }]))).toBe('sunny');
    expect(await ask(s, { model: 'big-model', ...user('hi') })).toBe('big');
    expect(await ask(s, user('hi'), 'openai')).toBe('openai');
    const tools = [{ name: 'Grep', description: '', input_schema: { type: 'object' } }];
    expect(await ask(s, { tools, ...user('hi') })).toBe('has grep');
    expect(await ask(s, user('hi'))).toBe('anything');
    expect(s.requests.map((r) => r.turnIndex)).toEqual([0, 1, 2, 3, 4]);
  });

  it('skips a turn that does not match and comes back to it later', async () => {
    const s = await start([
      { match: { lastUserTextContains: 'second' }, reply: text('B') },
      { reply: text('A') },
    ]);
    expect(await ask(s, user('first'))).toBe('A');
    expect(await ask(s, user('second'))).toBe('B');
  });

  it('repeats a turn the given number of times, or forever', async () => {
    const s = await start([
      { reply: text('twice'), repeat: 2 },
      { reply: text('always'), repeat: 'forever' },
    ]);
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await ask(s, user('x')));
    expect(answers).toEqual(['twice', 'twice', 'always', 'always', 'always']);
  });

  it('calls a reply function with the recorded request', async () => {
    const s = await start([
      {
        repeat: 'forever',
        reply: (req) =>
          text(
            `echo ${JSON.stringify((req.body as { messages: Array<{ content: string }> }).messages[0]?.content)}`,
          ),
      },
    ]);
    expect(await ask(s, user('ping'))).toBe('echo "ping"');
  });

  it('reports an invalid reply function result as a 500 naming the field', async () => {
    const s = await start([{ reply: () => ({ content: [{ type: 'text' }] }) as never }]);
    const res = await fetch(`${s.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'k' },
      body: JSON.stringify({ model: 'm', messages: [] }),
    });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /turns\[0\]\.reply\(\) result: content\[0\]\.text/,
    );
  });

  it('reset() forgets requests and turn usage, and can switch scenarios', async () => {
    const s = await start([{ reply: text('first') }]);
    const requests = s.requests;
    expect(await ask(s, user('x'))).toBe('first');
    s.reset();
    expect(requests).toHaveLength(0);
    expect(await ask(s, user('x'))).toBe('first');
    s.reset([{ reply: text('second') }]);
    expect(await ask(s, user('x'))).toBe('second');
    expect(s.requests).toHaveLength(1);
  });
});
