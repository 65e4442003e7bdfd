import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { type HookRunner, noopHooks } from '../hooks/types';
import * as z from '../lib/zod';
import { createCanUseTool } from '../permissions/can-use-tool';
import { allowAll, type CanUseToolFn, emptyPermissionContext } from '../permissions/types';
import type { UserMessage } from '../session/messages';
import type { ToolUseContext } from './context';
import { type RunToolUseParams, runToolUse } from './run-tool-use';
import {
  assistantWith,
  collect,
  contentText,
  deferred,
  makeContext,
  toolResults,
  toolUse,
} from './test-support';
import { type AnyTool, buildTool, ToolError, type ToolProgress } from './tool';
import type { ToolEvent as QueryEvent } from './tool-events';

const readSchema = z.object({
  file_path: z.string(),
  limit: z.optional(z.number().check(z.int(), z.positive())),
});

function readTool(overrides: Partial<AnyTool> = {}): AnyTool {
  return buildTool({
    name: 'Read',
    aliases: ['View'],
    tier: 'read',
    access: 'file-read',
    inputSchema: readSchema,
    prompt: 'Reads a file.',
    call: async (input) => ({ data: { path: input.file_path, limit: input.limit ?? null } }),
    mapResultToContent: (out: { path: string }) => `contents of ${out.path}`,
    ...overrides,
  });
}

async function run(
  tools: AnyTool[],
  block = toolUse('Read', { file_path: 'a.ts' }),
  extra: Partial<RunToolUseParams> & { contextOverrides?: Partial<ToolUseContext> } = {},
) {
  const { contextOverrides, ...params } = extra;
  const context = makeContext(tools, contextOverrides);
  const { events, returned } = await collect(
    runToolUse({
      block,
      assistantMessage: assistantWith([block]),
      context,
      canUseTool: allowAll,
      hooks: noopHooks,
      signal: context.abortSignal,
      ...params,
    }),
  );
  const results = toolResults(events);
  expect(results).toHaveLength(1);
  const message = events.find((e): e is Extract<QueryEvent, { type: 'message' }> => e.type === 'message')!
    .message as UserMessage;
  return { events, returned, result: results[0]!, text: contentText(results[0]!), message, context };
}

const hooks = (overrides: Partial<HookRunner>): HookRunner => ({ ...noopHooks, ...overrides });

describe('runToolUse: lookup and input', () => {
  it('runs a tool found by alias and carries the structured output', async () => {
    const { result, text, message, returned } = await run(
      [readTool()],
      toolUse('View', { file_path: 'a.ts' }),
    );
    expect(text).toBe('contents of a.ts');
    expect(result.is_error).toBeUndefined();
    expect(message.toolUseResult).toEqual({ path: 'a.ts', limit: null });
    expect(returned).toEqual({});
  });

  it('answers an unknown tool with an error naming the available tools', async () => {
    const { result, text } = await run([readTool()], toolUse('Frobnicate', {}, 'x1'));
    expect(result).toMatchObject({ tool_use_id: 'x1', is_error: true });
    expect(text).toContain('Frobnicate');
    expect(text).toContain('Available tools: Read');
  });

  it('reports malformed JSON input with the parse problem and the raw text', async () => {
    const { result, text } = await run([readTool()], toolUse('Read', {}), {
      malformedInput: '{"file_path": "a',
    });
    expect(result.is_error).toBe(true);
    expect(text).toContain('not valid JSON');
    expect(text).toContain('{"file_path": "a');
  });

  it('lists each bad field with what was expected', async () => {
    const { result, text } = await run([readTool()], toolUse('Read', { file_path: 5, limit: -1 }));
    expect(result.is_error).toBe(true);
    expect(text).toContain('file_path: expected string, received number');
    expect(text).toMatch(/limit: .*>0/);
    const missing = await run([readTool()], toolUse('Read', {}));
    expect(missing.text).toContain('file_path: required field is missing (expected string)');
  });

  it("returns the tool's validateInput message", async () => {
    const tool = readTool({
      validateInput: async () => ({ ok: false, message: 'File does not exist: a.ts' }),
    });
    const { result, text } = await run([tool]);
    expect(result.is_error).toBe(true);
    expect(text).toBe('File does not exist: a.ts');
  });
});

describe('runToolUse: hooks and permissions', () => {
  it('hands a PreToolUse deny to the decision as level 1, which refuses whatever the mode allows', async () => {
    const decide = createCanUseTool();
    const canUseTool = vi.fn<CanUseToolFn>(decide);
    const call = vi.fn();
    const { events, result, text } = await run([readTool({ call })], undefined, {
      canUseTool,
      hooks: hooks({
        preToolUse: async () => ({
          permissionDecision: { behavior: 'deny', message: 'Blocked by policy hook' },
        }),
      }),
      contextOverrides: { getPermissionContext: () => emptyPermissionContext('bypassPermissions') },
    });
    expect(result.is_error).toBe(true);
    expect(text).toBe('Blocked by policy hook');
    expect(events[0]).toMatchObject({ type: 'permission_denied', toolName: 'Read', toolUseId: 'toolu_Read' });
    expect(canUseTool).toHaveBeenCalledOnce();
    expect(canUseTool.mock.calls[0]?.[0].hookDecision).toEqual({
      behavior: 'deny',
      message: 'Blocked by policy hook',
    });
    expect(call).not.toHaveBeenCalled();
  });

  it('passes a PreToolUse allow to canUseTool as the hook decision, with its rewritten input re-validated', async () => {
    // A pipeline that honours the hook's allow (a deny rule would still win inside canUseTool).
    const canUseTool = vi.fn<CanUseToolFn>(
      async (request) => request.hookDecision ?? { behavior: 'deny', message: 'no' },
    );
    const allowing = hooks({
      preToolUse: async () => ({
        permissionDecision: { behavior: 'allow', updatedInput: { file_path: 'b.ts' } },
        additionalContext: ['Remember: b.ts is generated.'],
      }),
    });
    const { text, message } = await run([readTool()], undefined, { canUseTool, hooks: allowing });
    expect(canUseTool).toHaveBeenCalledTimes(1);
    expect(canUseTool.mock.calls[0]?.[0].hookDecision).toMatchObject({ behavior: 'allow' });
    expect(message.toolUseResult).toEqual({ path: 'b.ts', limit: null });
    expect(text).toBe('contents of b.ts\n\nRemember: b.ts is generated.');

    const bad = hooks({ preToolUse: async () => ({ updatedInput: { file_path: 1 } }) });
    const rejected = await run([readTool()], undefined, { hooks: bad });
    expect(rejected.result.is_error).toBe(true);
    expect(rejected.text).toContain('file_path: expected string, received number');
  });

  it('passes a PreToolUse ask to canUseTool and starts a speculative classification before the hooks', async () => {
    const order: string[] = [];
    const speculative = {
      result: Promise.resolve({ behavior: 'allow' as const, reason: 'x' }),
      cancel: vi.fn(),
    };
    const canUseTool = Object.assign(
      vi.fn<CanUseToolFn>(async () => ({ behavior: 'deny', message: 'asked and refused' })),
      {
        startSpeculativeClassification: vi.fn(() => {
          order.push('speculate');
          return speculative;
        }),
      },
    );
    const asking = hooks({
      preToolUse: async () => {
        order.push('hook');
        return { permissionDecision: { behavior: 'ask', message: 'hook wants a human' } };
      },
    });
    const { text } = await run([readTool()], undefined, { canUseTool, hooks: asking });
    expect(order).toEqual(['speculate', 'hook']);
    expect(canUseTool.mock.calls[0]?.[0]).toMatchObject({
      hookDecision: { behavior: 'ask', message: 'hook wants a human' },
      speculativeClassification: speculative,
    });
    expect(text).toBe('asked and refused');
  });

  it('passes hook-updated input to canUseTool when the hook has no decision', async () => {
    const canUseTool = vi.fn<CanUseToolFn>(allowAll);
    await run([readTool()], undefined, {
      canUseTool,
      hooks: hooks({ preToolUse: async () => ({ updatedInput: { file_path: 'c.ts' } }) }),
    });
    expect(canUseTool.mock.calls[0]?.[0]).toMatchObject({
      tool: { name: 'Read', access: 'file-read' },
      input: { file_path: 'c.ts' },
      toolUseId: 'toolu_Read',
    });
  });

  it('turns a canUseTool deny into an error result and a permission_denied event', async () => {
    const canUseTool: CanUseToolFn = async () => ({
      behavior: 'deny',
      message: 'Permission to use Read was denied.',
      decisionReason: { type: 'mode', mode: 'dontAsk' },
    });
    const { events, result, text } = await run([readTool()], undefined, { canUseTool });
    expect(result.is_error).toBe(true);
    expect(text).toBe('Permission to use Read was denied.');
    // A refused call never started.
    expect(events.map((e) => e.type)).toEqual(['permission_denied', 'message']);
    expect(events[0]).toEqual({
      type: 'permission_denied',
      toolName: 'Read',
      toolUseId: 'toolu_Read',
      toolInput: { file_path: 'a.ts' },
      decision: {
        behavior: 'deny',
        message: 'Permission to use Read was denied.',
        decisionReason: { type: 'mode', mode: 'dontAsk' },
      },
    });
  });

  it('treats an unresolved ask as a deny with its message', async () => {
    const canUseTool: CanUseToolFn = async () => ({
      behavior: 'ask',
      message: 'Read needs approval (no prompt).',
    });
    const { events, result, text } = await run([readTool()], undefined, { canUseTool });
    expect(result.is_error).toBe(true);
    expect(text).toBe('Read needs approval (no prompt).');
    expect(events[0]).toMatchObject({ type: 'permission_denied', decision: { behavior: 'deny' } });
  });

  it('runs with the input the permission pipeline rewrote, after re-validating it', async () => {
    const canUseTool: CanUseToolFn = async () => ({
      behavior: 'allow',
      updatedInput: { file_path: 'd.ts', limit: 3 },
    });
    const { message } = await run([readTool()], undefined, { canUseTool });
    expect(message.toolUseResult).toEqual({ path: 'd.ts', limit: 3 });
  });

  it("hands the tool's own checkPermissions to the decision, which refuses its deny in any mode", async () => {
    const tool = readTool({
      checkPermissions: async () => ({ behavior: 'deny', message: 'Path is outside the project.' }),
    });
    const { events, text } = await run([tool], undefined, {
      canUseTool: createCanUseTool(),
      contextOverrides: { getPermissionContext: () => emptyPermissionContext('bypassPermissions') },
    });
    expect(text).toBe('Path is outside the project.');
    expect(events[0]).toMatchObject({
      type: 'permission_denied',
      decision: { decisionReason: { type: 'tool', reason: 'Path is outside the project.' } },
    });
  });

  it('does not run the call when a PreToolUse hook says continue: false, even with an allow', async () => {
    const call = vi.fn(async () => ({ data: { path: 'a.ts', limit: null } }));
    const canUseTool = vi.fn<CanUseToolFn>(allowAll);
    const preToolUse = vi.fn<HookRunner['preToolUse']>(async () => ({
      preventContinuation: { stopReason: 'Frozen.' },
      permissionDecision: { behavior: 'allow' },
    }));
    const { result, text, returned, events } = await run([readTool({ call })], undefined, {
      hooks: hooks({ preToolUse }),
      canUseTool,
    });
    expect(call).not.toHaveBeenCalled();
    expect(canUseTool).not.toHaveBeenCalled();
    expect(result.is_error).toBe(true);
    expect(text).toBe('The call did not run: a PreToolUse hook stopped the turn. Frozen.');
    expect(returned.preventContinuation).toEqual({ stopReason: 'Frozen.' });
    // A stop is not a refusal: nothing is listed among the permission denials.
    expect(events.some((e) => e.type === 'permission_denied')).toBe(false);
  });

  it('appends PostToolUse context and blocking errors and passes preventContinuation up', async () => {
    const postToolUse = vi.fn<HookRunner['postToolUse']>(async () => ({
      additionalContext: ['Lint is clean.'],
      blockingErrors: ['Do not read generated files.'],
      preventContinuation: { stopReason: 'hook said stop' },
    }));
    const { text, returned, result } = await run([readTool()], undefined, { hooks: hooks({ postToolUse }) });
    expect(result.is_error).toBeUndefined();
    expect(text).toBe(
      'contents of a.ts\n\nLint is clean.\n\nPostToolUse hook error: Do not read generated files.',
    );
    expect(returned.preventContinuation).toEqual({ stopReason: 'hook said stop' });
    expect(postToolUse.mock.calls[0]![0]).toMatchObject({ toolName: 'Read', toolResponse: { path: 'a.ts' } });
  });
});

describe('runToolUse: the call', () => {
  it('says the call started, then streams its progress events before the result', async () => {
    const tool = readTool({
      call: async (_input: unknown, _ctx: ToolUseContext, onProgress: (p: ToolProgress) => void) => {
        onProgress({ toolUseId: '', data: { step: 1 } });
        onProgress({ toolUseId: '', data: { step: 2 } });
        return { data: { path: 'a.ts' } };
      },
    });
    const { events } = await run([tool]);
    expect(events.map((e) => e.type)).toEqual(['tool_started', 'tool_progress', 'tool_progress', 'message']);
    expect(events[0]).toEqual({ type: 'tool_started', toolUseId: 'toolu_Read', toolName: 'Read' });
    expect(events[2]).toEqual({
      type: 'tool_progress',
      toolName: 'Read',
      progress: { toolUseId: 'toolu_Read', data: { step: 2 } },
    });
  });

  it('reports a thrown ToolError by its message and other errors with an Error prefix', async () => {
    const failing = (error: Error) =>
      readTool({
        call: async () => {
          throw error;
        },
      });
    const toolError = await run([failing(new ToolError('a.ts is a directory, not a file.'))]);
    expect(toolError.result.is_error).toBe(true);
    expect(toolError.text).toBe('a.ts is a directory, not a file.');

    const postToolUseFailure = vi.fn<HookRunner['postToolUseFailure']>(async () => ({
      additionalContext: ['Try Glob first.'],
    }));
    const plain = await run([failing(new Error('EACCES: permission denied'))], undefined, {
      hooks: hooks({ postToolUseFailure }),
    });
    expect(plain.text).toBe('Error: EACCES: permission denied\n\nTry Glob first.');
    expect(postToolUseFailure.mock.calls[0]![0]).toMatchObject({ error: 'Error: EACCES: permission denied' });
  });

  it('sets is_error when the tool reports a failure with data, and returns its context modifier', async () => {
    const modifier = (ctx: ToolUseContext) => ({ ...ctx, cwd: '/elsewhere' });
    const tool = readTool({
      call: async () => ({ data: { path: 'x' }, isError: true, contextModifier: modifier }),
    });
    const { result, returned } = await run([tool]);
    expect(result.is_error).toBe(true);
    expect(returned.contextModifier).toBe(modifier);
  });

  it('does not run a call whose signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const call = vi.fn();
    const { result, text } = await run([readTool({ call })], undefined, { signal: controller.signal });
    expect(result.is_error).toBe(true);
    expect(text).toMatch(/interrupted by user/i);
    expect(call).not.toHaveBeenCalled();
  });

  it('stops waiting for a running call when its signal aborts', async () => {
    const controller = new AbortController();
    const started = deferred();
    const seenSignal = deferred<AbortSignal>();
    const tool = readTool({
      call: (_input: unknown, ctx: ToolUseContext) => {
        seenSignal.resolve(ctx.abortSignal);
        started.resolve();
        return new Promise(() => {});
      },
    });
    const pending = run([tool], undefined, { signal: controller.signal });
    await started.promise;
    controller.abort();
    const { result, text } = await pending;
    expect(result.is_error).toBe(true);
    expect(text).toMatch(/interrupted by user/i);
    expect((await seenSignal.promise).aborted).toBe(true);
  });

  it('persists a result larger than maxResultSizeChars and shows a preview with the path', async () => {
    const big = 'row\n'.repeat(10_000);
    const tool = readTool({ maxResultSizeChars: 5_000, call: async () => ({ data: big, content: big }) });
    const { text, context, message } = await run([tool], toolUse('Read', { file_path: 'a.ts' }, 'toolu_big'));
    const path = join(context.sessionDir, 'tool-results', 'toolu_big.txt');
    expect(existsSync(path)).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe(big);
    expect(text.length).toBeLessThan(5_000);
    expect(text).toContain(path);
    expect(message.toolUseResult).toBe(big);
  });
});
