/**
 * The runner's side of the permission decision: it gathers the call's facts from the call's own
 * context at the moment of deciding, asks the real decision (`createCanUseTool`) once, applies
 * what it says, and cancels a speculative classification exactly once, whatever happened.
 */
import { describe, expect, it, vi } from 'vitest';
import { type HookRunner, noopHooks } from '../hooks/types';
import * as z from '../lib/zod';
import { createCanUseTool } from '../permissions/can-use-tool';
import type { AutoClassifier } from '../permissions/classifier';
import {
  type CanUseToolFn,
  emptyPermissionContext,
  type PermissionMode,
  type PermissionPrompt,
  type SpeculativeClassification,
} from '../permissions/types';
import { createUserMessage } from '../session/messages';
import { runToolUse } from './run-tool-use';
import { assistantWith, collect, contentText, makeContext, toolResults, toolUse } from './test-support';
import { type AnyTool, buildTool } from './tool';

const noteSchema = z.object({ file_path: z.string(), text: z.string() });

/** A file-editing tool that records the input it ran with. */
function noteTool(overrides: Partial<AnyTool> = {}) {
  const ran: Record<string, unknown>[] = [];
  const tool = buildTool({
    name: 'Note',
    tier: 'write',
    access: 'file-edit',
    inputSchema: noteSchema,
    prompt: 'Writes a note.',
    toAutoClassifierInput: (input) => `${input.file_path}: ${input.text}`,
    call: async (input) => {
      ran.push(input);
      return { data: `wrote ${input.file_path}` };
    },
    ...overrides,
  });
  return { tool, ran };
}

/** Runs one Note call in a session whose mode the test can switch at any moment. */
async function runNote(options: {
  tool: AnyTool;
  canUseTool: CanUseToolFn;
  mode: { current: PermissionMode };
  hooks?: Partial<HookRunner>;
  input?: Record<string, unknown>;
}) {
  const block = toolUse('Note', options.input ?? { file_path: 'notes/a.md', text: 'hi' });
  const context = makeContext([options.tool], {
    getPermissionContext: () => emptyPermissionContext(options.mode.current),
    messages: [createUserMessage('write the release notes')],
  });
  const { events } = await collect(
    runToolUse({
      block,
      assistantMessage: assistantWith([block]),
      context,
      canUseTool: options.canUseTool,
      hooks: { ...noopHooks, ...options.hooks },
      signal: context.abortSignal,
    }),
  );
  const [result] = toolResults(events);
  if (!result) throw new Error('no tool_result');
  return { events, result, text: contentText(result), context };
}

/** A speculative classification whose cancellations are counted. */
function speculation(behavior: 'allow' | 'ask' = 'allow') {
  const cancel = vi.fn();
  const classification: SpeculativeClassification = {
    result: Promise.resolve({ behavior, reason: 'speculated' }),
    cancel,
  };
  return { classification, cancel };
}

const withSpeculation = (decide: CanUseToolFn, classification: SpeculativeClassification): CanUseToolFn =>
  Object.assign((request: Parameters<CanUseToolFn>[0]) => decide(request), {
    startSpeculativeClassification: () => classification,
  });

describe('runToolUse gathers the facts when it decides', () => {
  it("reads the call's own mode after its hooks ran, not the one the call started under", async () => {
    const { tool, ran } = noteTool();
    const mode = { current: 'default' as PermissionMode };
    const decide = vi.fn(createCanUseTool());
    // The person switches to acceptEdits while the PreToolUse hook runs (a mode change mid-turn).
    const preToolUse = vi.fn<HookRunner['preToolUse']>(async () => {
      mode.current = 'acceptEdits';
      return {};
    });
    const { result } = await runNote({ tool, canUseTool: decide, mode, hooks: { preToolUse } });
    expect(preToolUse.mock.calls[0]?.[0]).toMatchObject({ access: 'file-edit', permissionMode: 'default' });
    expect(result.is_error).toBeUndefined();
    expect(ran).toEqual([{ file_path: 'notes/a.md', text: 'hi' }]);
    const request = decide.mock.calls[0]?.[0];
    expect(request?.context.permissionContext.mode).toBe('acceptEdits');
    expect(request).toMatchObject({ isReadOnly: false, isDestructive: false, tool: { name: 'Note' } });
  });

  it('warns about a destructive call and lets no classifier allow it', async () => {
    const { tool, ran } = noteTool({ isDestructive: () => true });
    const classifier = vi.fn<AutoClassifier>(async () => ({ behavior: 'allow', reason: 'looks fine' }));
    const prompt = vi.fn<PermissionPrompt>(async () => ({ behavior: 'deny', message: 'not now' }));
    const { text } = await runNote({
      tool,
      canUseTool: createCanUseTool({ classifier, prompt }),
      mode: { current: 'auto' },
    });
    expect(classifier).not.toHaveBeenCalled();
    expect(prompt.mock.calls[0]?.[0].message).toContain(
      'Warning: Note reports that this call is destructive: it may delete or overwrite data that cannot be recovered.',
    );
    expect(text).toBe('not now');
    expect(ran).toEqual([]);
    // The same call, not destructive: the classifier decides it.
    const plain = noteTool();
    await runNote({
      tool: plain.tool,
      canUseTool: createCanUseTool({ classifier, prompt }),
      mode: { current: 'auto' },
    });
    expect(classifier.mock.calls[0]?.[0]).toMatchObject({
      action: 'notes/a.md: hi',
      userRequest: 'write the release notes',
    });
    expect(plain.ran).toHaveLength(1);
  });

  it("runs the tool's own rewrite of its input once the rules allow the call, re-validated", async () => {
    const { tool, ran } = noteTool({
      checkPermissions: async (input: Record<string, unknown>) => ({
        behavior: 'allow',
        updatedInput: { ...input, text: 'hi (signed)' },
      }),
    });
    await runNote({ tool, canUseTool: createCanUseTool(), mode: { current: 'default' } });
    expect(ran).toEqual([{ file_path: 'notes/a.md', text: 'hi (signed)' }]);

    const broken = noteTool({
      checkPermissions: async () => ({ behavior: 'allow', updatedInput: { text: 1 } }),
    });
    const { text } = await runNote({
      tool: broken.tool,
      canUseTool: createCanUseTool(),
      mode: { current: 'default' },
    });
    expect(text).toContain('file_path: required field is missing');
    expect(broken.ran).toEqual([]);
  });
});

describe('runToolUse cancels a speculative classification exactly once', () => {
  it('after a decision that used it, and after one that refused', async () => {
    const { tool } = noteTool();
    const used = speculation('allow');
    const allowed = await runNote({
      tool,
      canUseTool: withSpeculation(
        createCanUseTool({ classifier: async () => used.classification.result }),
        used.classification,
      ),
      mode: { current: 'auto' },
    });
    expect(allowed.result.is_error).toBeUndefined();
    expect(used.cancel).toHaveBeenCalledOnce();

    const refused = speculation('allow');
    const denied = await runNote({
      tool,
      canUseTool: withSpeculation(createCanUseTool(), refused.classification),
      mode: { current: 'plan' },
    });
    expect(denied.text).toContain('Plan mode allows only reading');
    expect(refused.cancel).toHaveBeenCalledOnce();
  });

  it('when a hook stops the turn or throws before any decision', async () => {
    const { tool, ran } = noteTool();
    const stopped = speculation();
    const decide = vi.fn(createCanUseTool());
    await runNote({
      tool,
      canUseTool: withSpeculation(decide, stopped.classification),
      mode: { current: 'auto' },
      hooks: { preToolUse: async () => ({ preventContinuation: { stopReason: 'Frozen.' } }) },
    });
    expect(stopped.cancel).toHaveBeenCalledOnce();

    const thrown = speculation();
    const { text } = await runNote({
      tool,
      canUseTool: withSpeculation(decide, thrown.classification),
      mode: { current: 'auto' },
      hooks: {
        preToolUse: async () => {
          throw new Error('hook runner broke');
        },
      },
    });
    expect(text).toBe('Error: hook runner broke');
    expect(thrown.cancel).toHaveBeenCalledOnce();
    expect(decide).not.toHaveBeenCalled();
    expect(ran).toEqual([]);
  });

  it('and never hands over a classification of the input before a hook rewrote it', async () => {
    const { tool, ran } = noteTool();
    const stale = speculation('allow');
    const classifier = vi.fn<AutoClassifier>(async () => ({ behavior: 'ask', reason: 'not what was asked' }));
    const prompt = vi.fn<PermissionPrompt>(async () => ({ behavior: 'deny', message: 'no' }));
    const decide = vi.fn(createCanUseTool({ classifier, prompt }));
    await runNote({
      tool,
      canUseTool: withSpeculation(decide, stale.classification),
      mode: { current: 'auto' },
      hooks: { preToolUse: async () => ({ updatedInput: { file_path: 'notes/a.md', text: 'rm -rf ~' } }) },
    });
    expect(decide.mock.calls[0]?.[0].speculativeClassification).toBeUndefined();
    expect(classifier.mock.calls[0]?.[0].action).toBe('notes/a.md: rm -rf ~');
    expect(prompt.mock.calls[0]?.[0].message).toContain(
      'The auto-mode classifier did not allow it: not what was asked.',
    );
    expect(ran).toEqual([]);
    expect(stale.cancel).toHaveBeenCalledOnce();
  });
});
