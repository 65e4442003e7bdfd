/**
 * Fixtures for transcript tests and the resume bench: realistic conversations (prompts, tool
 * calls with results, thinking) written through the real TranscriptWriter into a temp YOKE_HOME.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AssistantContentBlock } from '../model/types';
import { type AssistantMessage, createToolResultMessage, createUserMessage, type Message } from './messages';
import { transcriptPath } from './transcript-paths';
import { TranscriptWriter } from './transcript-writer';

export const TEST_MODEL = 'claude-sonnet-5-5';

export function tempHome(): { env: Record<string, string>; cwd: string } {
  const root = mkdtempSync(join(tmpdir(), 'yoke-session-'));
  return { env: { YOKE_HOME: join(root, 'home'), HOME: root }, cwd: join(root, 'project.dir') };
}

export function assistant(
  content: AssistantContentBlock[],
  model = TEST_MODEL,
  id = `msg_${randomUUID()}`,
): AssistantMessage {
  return {
    type: 'assistant',
    uuid: randomUUID(),
    timestamp: new Date().toISOString(),
    message: {
      id,
      model,
      role: 'assistant',
      content,
      stop_reason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { inputTokens: 100, outputTokens: 20, cacheReadInputTokens: 5, cacheCreationInputTokens: 1 },
    },
  };
}

/** One round: a prompt, a tool call and its result, and a text answer (4 messages). */
export function round(i: number, resultSize = 200): Message[] {
  const toolUseId = `toolu_${i}_${randomUUID().slice(0, 8)}`;
  return [
    createUserMessage(`Prompt number ${i}: please look at file ${i}.ts`),
    assistant([{ type: 'tool_use', id: toolUseId, name: 'Read', input: { file_path: `/src/${i}.ts` } }]),
    createToolResultMessage(
      {
        type: 'tool_result',
        tool_use_id: toolUseId,
        content: `line ${i}\n`.repeat(Math.ceil(resultSize / 8)),
      },
      { type: 'text', file: { filePath: `/src/${i}.ts` } },
    ),
    assistant([{ type: 'text', text: `File ${i} looks fine.` }]),
  ];
}

export function conversation(rounds: number, resultSize?: number): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < rounds; i++) out.push(...round(i, resultSize));
  return out;
}

/** Writes messages as a session in `cwd` and returns its id and path. */
export function writeSession(
  env: Record<string, string>,
  cwd: string,
  messages: readonly Message[],
  sessionId: string = randomUUID(),
): { sessionId: string; path: string } {
  const path = transcriptPath(env, cwd, sessionId);
  const writer = new TranscriptWriter({ path, sessionId, cwd });
  writer.appendMany(messages);
  writer.close();
  return { sessionId, path };
}
