import { describe, expect, it } from 'vitest';
import * as z from '../lib/zod';
import { partitionToolCalls } from './partition';
import { toolUse } from './test-support';
import { buildTool } from './tool';

const pattern = z.object({ pattern: z.string() });
const grep = buildTool({
  name: 'Grep',
  tier: 'read',
  inputSchema: pattern,
  prompt: 'search',
  isConcurrencySafe: () => true,
  call: async () => ({ data: '' }),
});
const read = buildTool({
  name: 'Read',
  tier: 'read',
  inputSchema: z.object({ file_path: z.string() }),
  prompt: 'read',
  // Async answers are allowed; partitioning must wait for them.
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

const ids = (batches: Awaited<ReturnType<typeof partitionToolCalls>>) =>
  batches.map((batch) => ({ safe: batch.concurrencySafe, ids: batch.blocks.map((block) => block.id) }));

describe('partitionToolCalls', () => {
  it("splits the seed's example [Grep, Grep, Write, Read, Read] into three batches", async () => {
    const blocks = [
      toolUse('Grep', { pattern: 'a' }, 'g1'),
      toolUse('Grep', { pattern: 'b' }, 'g2'),
      toolUse('Write', { file_path: 'x', content: '' }, 'w'),
      toolUse('Read', { file_path: 'x' }, 'r1'),
      toolUse('Read', { file_path: 'y' }, 'r2'),
    ];
    expect(ids(await partitionToolCalls(blocks, tools))).toEqual([
      { safe: true, ids: ['g1', 'g2'] },
      { safe: false, ids: ['w'] },
      { safe: true, ids: ['r1', 'r2'] },
    ]);
  });

  it('runs every unsafe call alone, even two in a row', async () => {
    const blocks = [
      toolUse('Write', { file_path: 'a', content: '' }, 'w1'),
      toolUse('Write', { file_path: 'b', content: '' }, 'w2'),
    ];
    expect(ids(await partitionToolCalls(blocks, tools))).toEqual([
      { safe: false, ids: ['w1'] },
      { safe: false, ids: ['w2'] },
    ]);
  });

  it('treats unknown tools and unparsable input as unsafe, and asks the tool about its input', async () => {
    const blocks = [
      toolUse('Grep', { pattern: 'a' }, 'g1'),
      toolUse('Nope', {}, 'n'),
      toolUse('Grep', { pattern: 7 }, 'bad'),
      toolUse('Bash', { command: 'ls -la' }, 'ls'),
      toolUse('Grep', { pattern: 'c' }, 'g2'),
      toolUse('Bash', { command: 'rm -rf build' }, 'rm'),
    ];
    expect(ids(await partitionToolCalls(blocks, tools))).toEqual([
      { safe: true, ids: ['g1'] },
      { safe: false, ids: ['n'] },
      { safe: false, ids: ['bad'] },
      { safe: true, ids: ['ls', 'g2'] },
      { safe: false, ids: ['rm'] },
    ]);
  });

  it('treats a throwing isConcurrencySafe as unsafe', async () => {
    const moody = buildTool({
      name: 'Moody',
      tier: 'read',
      inputSchema: z.object({}),
      prompt: 'moody',
      isConcurrencySafe: async () => {
        throw new Error('cannot tell');
      },
      call: async () => ({ data: '' }),
    });
    const batches = await partitionToolCalls(
      [toolUse('Moody', {}, 'm'), toolUse('Grep', { pattern: 'a' }, 'g')],
      [moody, grep],
    );
    expect(ids(batches)).toEqual([
      { safe: false, ids: ['m'] },
      { safe: true, ids: ['g'] },
    ]);
  });
});
