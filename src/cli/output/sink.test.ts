import { describe, expect, it } from 'vitest';
import type { SDKMessage, SDKResultMessage } from '../../engine/sdk-messages';
import { createOutputSink } from './sink';
import { writeJsonLine } from './stream-json';

function streams() {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    streams: {
      stdout: { write: (text: string) => (out.stdout += text) },
      stderr: { write: (text: string) => (out.stderr += text) },
    },
  };
}

const base = {
  type: 'result' as const,
  num_turns: 1,
  duration_ms: 5,
  duration_api_ms: 3,
  stop_reason: null,
  total_cost_usd: 0,
  usage: {
    input_tokens: 1,
    output_tokens: 1,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
    service_tier: 'standard' as const,
  },
  modelUsage: {},
  permission_denials: [],
  api_error_status: null,
  session_id: 's',
  uuid: 'u',
};
const success: SDKResultMessage = {
  ...base,
  subtype: 'success',
  is_error: false,
  result: 'hi',
  terminal_reason: 'completed',
};
const failure: SDKResultMessage = {
  ...base,
  subtype: 'error_during_execution',
  is_error: true,
  errors: ['it broke', 'twice'],
  terminal_reason: 'model_error',
};
const init = { type: 'system', subtype: 'init', session_id: 's', uuid: 'i' } as unknown as SDKMessage;

describe('output sinks', () => {
  it('text: the result text, or one stderr line and exit 1', async () => {
    const ok = streams();
    const sink = await createOutputSink('text', false, ok.streams);
    sink.write(init);
    sink.write(success);
    expect(sink.finish()).toBe(0);
    expect(ok.out).toEqual({ stdout: 'hi\n', stderr: '' });

    const bad = streams();
    const failing = await createOutputSink('text', false, bad.streams);
    failing.write(failure);
    expect(failing.finish()).toBe(1);
    expect(bad.out).toEqual({ stdout: '', stderr: 'yoke: it broke; twice\n' });
  });

  it('text: an interrupted turn prints the text already written, then the reason', async () => {
    const assistant = (id: string, text: string) =>
      ({
        type: 'assistant',
        message: { id, content: [{ type: 'text', text }] },
        session_id: 's',
        uuid: `${id}-${text}`,
      }) as unknown as SDKMessage;
    const interrupted: SDKResultMessage = {
      ...failure,
      errors: ['The turn was interrupted by the user.'],
      terminal_reason: 'aborted_streaming',
    };
    const out = streams();
    const sink = await createOutputSink('text', false, out.streams);
    sink.write(assistant('msg_1', 'Looking at the tests.'));
    // Two blocks of the response the interrupt cut short.
    sink.write(assistant('msg_2', 'The bug is in '));
    sink.write(assistant('msg_2', 'parse.ts, where'));
    sink.write(interrupted);
    expect(sink.finish()).toBe(1);
    expect(out.out).toEqual({
      stdout: 'The bug is in parse.ts, where\n',
      stderr: 'yoke: The turn was interrupted by the user.\n',
    });

    // Any other failure keeps stdout for answers only.
    const failed = streams();
    const other = await createOutputSink('text', false, failed.streams);
    other.write(assistant('msg_3', 'Half an answer'));
    other.write(failure);
    other.finish();
    expect(failed.out.stdout).toBe('');
  });

  it('json: the result object, or every message with verbose', async () => {
    const plain = streams();
    const sink = await createOutputSink('json', false, plain.streams);
    sink.write(init);
    sink.write(failure);
    expect(sink.finish()).toBe(1);
    expect(JSON.parse(plain.out.stdout)).toEqual(failure);

    const verbose = streams();
    const all = await createOutputSink('json', true, verbose.streams);
    all.write(init);
    all.write(success);
    expect(all.finish()).toBe(0);
    expect(JSON.parse(verbose.out.stdout)).toEqual([init, success]);
  });

  const refusal = {
    type: 'system',
    subtype: 'permission_denied',
    tool_name: 'Bash',
    tool_use_id: 't1',
    message:
      'Permission for Bash: touch x was not granted. To allow it, add "Bash(touch x)" to permissions.allow.',
    session_id: 's',
    uuid: 'd',
  } as SDKMessage;
  const hookStop = {
    type: 'system',
    subtype: 'informational',
    level: 'warning',
    tag: 'hook_stopped',
    content: 'Deploys are frozen.',
    session_id: 's',
    uuid: 'h',
  } as SDKMessage;

  it('text: a refused call and a hook stop are stderr lines, the refusal naming the rule to add', async () => {
    const s = streams();
    const sink = await createOutputSink('text', false, s.streams);
    sink.write(refusal);
    sink.write(hookStop);
    sink.write({ ...success, result: '' });
    expect(sink.finish()).toBe(0);
    expect(s.out).toEqual({
      stdout: '\n',
      stderr:
        'yoke: Permission for Bash: touch x was not granted. To allow it, add "Bash(touch x)" to permissions.allow.\n' +
        'yoke: a hook stopped the turn: Deploys are frozen.\n',
    });
  });

  it('json: only the hook stop reaches stderr (refusals are in permission_denials)', async () => {
    const s = streams();
    const sink = await createOutputSink('json', false, s.streams);
    sink.write(refusal);
    sink.write(hookStop);
    sink.write(success);
    sink.finish();
    expect(s.out.stderr).toBe('yoke: a hook stopped the turn: Deploys are frozen.\n');
  });

  it('stream-json: one line per message as it arrives; no result is exit 1', async () => {
    const s = streams();
    const sink = await createOutputSink('stream-json', true, s.streams);
    sink.write(init);
    expect(s.out.stdout).toBe(`${JSON.stringify(init)}\n`);
    expect(sink.finish()).toBe(1);
    expect(s.out.stderr).toBe('yoke: the turn ended without a result.\n');
  });

  it('escapes line separators so a frame stays on one line', () => {
    let text = '';
    writeJsonLine({ write: (t: string) => (text += t) }, { s: 'a\u2028b\u2029c\nd' });
    expect(text).toBe('{"s":"a\\u2028b\\u2029c\\nd"}\n');
    expect(JSON.parse(text)).toEqual({ s: 'a\u2028b\u2029c\nd' });
  });
});
