import { describe, expect, it, vi } from 'vitest';
import * as z from '../../lib/zod';
import { estimateToolSchemaTokens } from '../../model/tokens';
import { type AnyTool, buildTool } from '../../tools/tool';
import { collectStartupGarbage, loadFetchClasses, loadSegmenter, warmToolSchemas } from './idle-warmup';

vi.mock('../../model/tokens', async (actual) => {
  const tokens = await actual<typeof import('../../model/tokens')>();
  return { ...tokens, estimateToolSchemaTokens: vi.fn(tokens.estimateToolSchemaTokens) };
});

/** A tool whose JSON Schema conversion is recorded in `log` when it happens. */
function loggedTool(name: string, log: string[], fails = false, during?: () => void): AnyTool {
  const tool = buildTool({
    name,
    tier: 'read',
    prompt: `The ${name} tool.`,
    inputSchema: z.object({ path: z.string() }),
    call: async () => ({ data: '' }),
  });
  const real = Object.getOwnPropertyDescriptor(tool, 'inputJsonSchema')?.get;
  Object.defineProperty(tool, 'inputJsonSchema', {
    get() {
      log.push(`schema ${name}`);
      during?.();
      if (fails) throw new Error(`${name} has no schema`);
      return real?.call(tool);
    },
  });
  return tool;
}

describe('warmToolSchemas', () => {
  it("converts every tool's schema, one per turn of the event loop, so input waiting meanwhile runs between them", async () => {
    const log: string[] = [];
    // A keystroke that arrives while Read's schema is converted: queued on the event loop like one.
    const keyDuringRead = () => setImmediate(() => log.push('key'));
    const tools = [
      loggedTool('Read', log, false, keyDuringRead),
      loggedTool('Grep', log),
      loggedTool('Glob', log),
    ];
    expect(await warmToolSchemas(tools, new AbortController().signal)).toBe(3);
    expect(log).toEqual(['schema Read', 'key', 'schema Grep', 'schema Glob']);
  });

  it("counts each tool's definition in tokens too, which the first request's checks ask for", async () => {
    const counted = vi.mocked(estimateToolSchemaTokens);
    counted.mockClear();
    await warmToolSchemas([loggedTool('Read', []), loggedTool('Grep', [])], new AbortController().signal);
    expect(counted.mock.calls.map(([schema]) => schema.name)).toEqual(['Read', 'Grep']);
  });

  it('stops when the session ends, and a tool that fails does not stop the others', async () => {
    const log: string[] = [];
    const stop = new AbortController();
    const first = warmToolSchemas(
      [loggedTool('Broken', log, true), loggedTool('Read', log)],
      new AbortController().signal,
    );
    expect(await first).toBe(1);
    expect(log).toEqual(['schema Broken', 'schema Read']);

    log.length = 0;
    const second = warmToolSchemas([loggedTool('Grep', log), loggedTool('Glob', log)], stop.signal);
    stop.abort();
    expect(await second).toBe(0);
    expect(log).toEqual([]);
  });
});

describe('collectStartupGarbage', () => {
  it('collects once the REPL is idle, and not while a turn runs or after the session ended', async () => {
    let target: object | undefined = { payload: 'start-up garbage' };
    const ref = new WeakRef(target);
    target = undefined;
    const stop = new AbortController();

    expect(await collectStartupGarbage(() => false, stop.signal)).toBe(false);
    expect(ref.deref()).toBeDefined();

    expect(await collectStartupGarbage(() => true, stop.signal)).toBe(true);
    expect(ref.deref()).toBeUndefined();

    stop.abort();
    expect(await collectStartupGarbage(() => true, stop.signal)).toBe(false);
  });
});

describe('loadFetchClasses', () => {
  it('lets input queued meanwhile run first, then has the fetch classes ready', async () => {
    const log: string[] = [];
    const loading = loadFetchClasses(new AbortController().signal).then((ready) =>
      log.push(`loaded ${ready}`),
    );
    setImmediate(() => log.push('key'));
    await loading;
    expect(log).toEqual(['key', 'loaded true']);
  });

  it('does nothing once the session is closing', async () => {
    const stop = new AbortController();
    stop.abort();
    expect(await loadFetchClasses(stop.signal)).toBe(false);
  });
});

describe('loadSegmenter', () => {
  it('lets input queued meanwhile run first, then measures an emoji with the segmenter', async () => {
    const log: string[] = [];
    const loading = loadSegmenter(new AbortController().signal).then((ready) => log.push(`loaded ${ready}`));
    setImmediate(() => log.push('key'));
    await loading;
    expect(log).toEqual(['key', 'loaded true']);
  });
});
