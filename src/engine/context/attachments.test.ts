import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { noopHooks } from '../../hooks/types';
import * as z from '../../lib/zod';
import { allowAll } from '../../permissions/types';
import type { Message } from '../../session/messages';
import { FakeProvider } from '../../testing/fake-provider';
import { buildTool } from '../../tools/tool';
import { QueryEngine } from '../query-engine';
import { text } from '../query-test-support';
import { createAttachmentsStage } from './attachments';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project with a root AGENTS.md (already in the prompt) and one in `sub/`. */
function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'yoke-nested-'));
  dirs.push(root);
  mkdirSync(join(root, 'sub', 'dir'), { recursive: true });
  writeFileSync(join(root, 'AGENTS.md'), 'ROOT RULES');
  writeFileSync(join(root, 'sub', 'AGENTS.md'), 'SUB RULES: use tabs');
  writeFileSync(join(root, 'sub', 'dir', 'file.ts'), 'export {};\n');
  return root;
}

const touch = buildTool({
  name: 'Touch',
  tier: 'read',
  inputSchema: z.object({ file_path: z.string() }),
  prompt: 'Touches a file.',
  isConcurrencySafe: () => true,
  isReadOnly: () => true,
  call: async () => ({ data: 'touched' }),
});

const touchCall = (id: string, filePath: string) => ({
  content: [{ type: 'tool_use' as const, id, name: 'Touch', input: { file_path: filePath } }],
});

const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;

describe('nested memory attachments', () => {
  it('adds a subfolder memory file once, in the request after the tool touched that folder', async () => {
    const root = project();
    const provider = new FakeProvider([
      touchCall('t1', 'sub/dir/file.ts'),
      touchCall('t2', join(root, 'sub', 'other.ts')),
      text('Done.'),
      text('Again.'),
    ]);
    const recorded: Message[] = [];
    const engine = new QueryEngine({
      cwd: root,
      provider,
      model: 'claude-opus-5-5',
      tools: [touch],
      canUseTool: allowAll,
      hooks: noopHooks,
      environment: { cwd: root, platform: 'linux', date: '2026-11-29', isGitRepo: false, model: 'm' },
      memory: [{ path: join(root, 'AGENTS.md'), content: 'ROOT RULES' }],
      nestedMemory: { trusted: false, projectRoot: root, env: {}, alreadyLoaded: [join(root, 'AGENTS.md')] },
      transcript: { append: (message) => recorded.push(message) },
    });
    for await (const _ of engine.submitMessage('edit the file')) {
    }
    for await (const _ of engine.submitMessage('once more')) {
    }
    const requests = provider.requests.map((r) => JSON.stringify(r.messages));
    expect(requests).toHaveLength(4);
    expect(count(requests[0] as string, 'SUB RULES')).toBe(0);
    for (const request of requests.slice(1)) expect(count(request, 'SUB RULES')).toBe(1);
    expect(requests[1]).toContain(
      `Contents of ${join(root, 'sub', 'AGENTS.md')} (instructions for files in this folder)`,
    );
    // The root file is the system prompt's; it never comes as an attachment.
    expect(requests.some((r) => r.includes('ROOT RULES'))).toBe(false);
    // The attachment joins the tool results' turn, after them.
    const second = provider.requests[1]?.messages.at(-1);
    expect(second?.role).toBe('user');
    expect(Array.isArray(second?.content) && second.content.map((b) => b.type)).toEqual([
      'tool_result',
      'text',
    ]);
    // It is history: meta, and in the transcript.
    const attached = recorded.filter((m) => m.type === 'user' && JSON.stringify(m).includes('SUB RULES'));
    expect(attached).toHaveLength(1);
    expect(attached[0]).toMatchObject({ isMeta: true });
    expect(engine.messages.filter((m) => JSON.stringify(m).includes('SUB RULES'))).toHaveLength(1);
  });

  it('ignores paths outside the project and tool calls of a resumed history', async () => {
    const root = project();
    const resumed: Message[] = [
      {
        type: 'assistant',
        uuid: 'a-1',
        timestamp: new Date(0).toISOString(),
        message: {
          id: 'msg_old',
          model: 'm',
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'old', name: 'Touch', input: { file_path: 'sub/x.ts' } }],
          stop_reason: 'tool_use',
          stop_sequence: null,
          usage: { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
        },
      },
    ];
    const attach = createAttachmentsStage(
      { nestedMemory: { trusted: false, projectRoot: root, env: {} } },
      resumed,
    );
    const signal = new AbortController().signal;
    const stage = async (messages: Message[], cwd: string) => (await attach({ messages, cwd, signal }))[0];
    expect(await stage(resumed, root)).toBeUndefined();
    const outside: Message = {
      ...(resumed[0] as Extract<Message, { type: 'assistant' }>),
      uuid: 'a-2',
      message: {
        ...(resumed[0] as Extract<Message, { type: 'assistant' }>).message,
        content: [{ type: 'tool_use', id: 'o', name: 'Touch', input: { path: '/elsewhere/file' } }],
      },
    };
    expect(await stage([...resumed, outside], root)).toBeUndefined();
    const inside: Message = {
      ...(outside as Extract<Message, { type: 'assistant' }>),
      uuid: 'a-3',
      message: {
        ...(outside as Extract<Message, { type: 'assistant' }>).message,
        content: [{ type: 'tool_use', id: 'i', name: 'Glob', input: { path: 'sub' } }],
      },
    };
    const attached = await stage([...resumed, outside, inside], root);
    expect(attached).toMatchObject({ type: 'user', isMeta: true });
    expect(JSON.stringify(attached)).toContain('SUB RULES');
    expect(await stage([...resumed, outside, inside], root)).toBeUndefined();
  });
});
