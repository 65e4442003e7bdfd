import { describe, expect, it } from 'vitest';
import * as z from '../lib/zod';
import { isCallConcurrencySafe } from './concurrency';
import { toolUse } from './test-support';
import { buildTool } from './tool';

const grep = buildTool({
  name: 'Grep',
  tier: 'read',
  inputSchema: z.object({ pattern: z.string() }),
  prompt: 'search',
  isConcurrencySafe: () => true,
  call: async () => ({ data: '' }),
});
const read = buildTool({
  name: 'Read',
  tier: 'read',
  inputSchema: z.object({ file_path: z.string() }),
  prompt: 'read',
  // Async answers are allowed; the caller must wait for them.
  isConcurrencySafe: async () => true,
  call: async () => ({ data: '' }),
});
const write = buildTool({
  name: 'Write',
  tier: 'write',
  inputSchema: z.object({ file_path: z.string(), content: z.string() }),
  prompt: 'write',
  call: async () => ({ data: '' }),
});
const bash = buildTool({
  name: 'Bash',
  tier: 'exec',
  inputSchema: z.object({ command: z.string() }),
  prompt: 'shell',
  isConcurrencySafe: (input) => input.command.startsWith('ls'),
  call: async () => ({ data: '' }),
});
const tools = [grep, read, write, bash];

describe('isCallConcurrencySafe', () => {
  it('answers synchronously for a synchronous tool, so the executor can start the call at once', () => {
    expect(isCallConcurrencySafe(toolUse('Grep', { pattern: 'a' }), tools)).toBe(true);
    expect(isCallConcurrencySafe(toolUse('Write', { file_path: 'x', content: '' }), tools)).toBe(false);
  });

  it('waits for an asynchronous answer', async () => {
    const answer = isCallConcurrencySafe(toolUse('Read', { file_path: 'x' }), tools);
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toBe(true);
  });

  it('asks the tool about this input', () => {
    expect(isCallConcurrencySafe(toolUse('Bash', { command: 'ls -la' }), tools)).toBe(true);
    expect(isCallConcurrencySafe(toolUse('Bash', { command: 'rm -rf build' }), tools)).toBe(false);
  });

  it('treats unknown tools and unparsable input as unsafe', () => {
    expect(isCallConcurrencySafe(toolUse('Nope', {}), tools)).toBe(false);
    expect(isCallConcurrencySafe(toolUse('Grep', { pattern: 7 }), tools)).toBe(false);
  });

  it('treats a throwing isConcurrencySafe as unsafe, synchronous or not', async () => {
    const moody = (isConcurrencySafe: () => boolean | Promise<boolean>) =>
      buildTool({
        name: 'Moody',
        tier: 'read',
        inputSchema: z.object({}),
        prompt: 'moody',
        isConcurrencySafe,
        call: async () => ({ data: '' }),
      });
    const throwsNow = moody(() => {
      throw new Error('cannot tell');
    });
    const rejects = moody(async () => {
      throw new Error('cannot tell');
    });
    expect(isCallConcurrencySafe(toolUse('Moody', {}), [throwsNow])).toBe(false);
    expect(await isCallConcurrencySafe(toolUse('Moody', {}), [rejects])).toBe(false);
  });
});
