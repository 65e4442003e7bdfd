import { describe, expect, it } from 'vitest';
import type { ToolProgress } from '../tools/tool';
import { whileReporting } from './input-progress';

async function collect<T>(gen: AsyncGenerator<ToolProgress, T>) {
  const seen: string[] = [];
  for (let step = await gen.next(); ; step = await gen.next()) {
    if (step.done) return { seen, value: step.value };
    seen.push(step.value.toolUseId);
  }
}

describe('whileReporting', () => {
  it('yields each progress as it comes, before the result, including progress after an await', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const gen = whileReporting(async (onProgress) => {
      onProgress({ toolUseId: 'a', data: {} });
      await gate;
      onProgress({ toolUseId: 'b', data: {} });
      return 'done';
    });
    const first = await gen.next();
    expect(first).toEqual({ done: false, value: { toolUseId: 'a', data: {} } });
    release();
    expect(await collect(gen)).toEqual({ seen: ['b'], value: 'done' });
  });

  it('rethrows what the work throws, after the progress it made', async () => {
    const gen = whileReporting(async (onProgress) => {
      onProgress({ toolUseId: 'a', data: {} });
      throw new Error('fork failed');
    });
    expect((await gen.next()).value).toEqual({ toolUseId: 'a', data: {} });
    await expect(gen.next()).rejects.toThrow('fork failed');
  });
});
