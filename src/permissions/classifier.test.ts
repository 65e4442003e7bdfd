/** The auto-mode classifier: strict answers, fail-closed errors, speculation, and one real call. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CostTracker } from '../model/cost';
import { selectModel } from '../model/select';
import { createSideCallClient } from '../model/side-call';
import { createUserMessage } from '../session/messages';
import { startMockServer } from '../testing/mock-server';
import { createCanUseTool } from './can-use-tool';
import {
  type AutoClassifier,
  classifySafely,
  createModelClassifier,
  parseClassifierAnswer,
} from './classifier';
import { corpusRequest, corpusTool, HOME } from './corpus-test-support';
import type { CanUseToolRequest, PermissionCallContext, PermissionPrompt } from './types';

const signal = () => new AbortController().signal;

function autoPipeline(classifier: AutoClassifier, prompt?: PermissionPrompt) {
  const options = { home: HOME, classifier };
  return createCanUseTool(prompt ? { ...options, prompt } : options);
}

/** An auto-mode call in a conversation whose user asked to run the tests. */
const context = {
  permissionContext: { mode: 'auto' as const, rules: [], additionalDirectories: [] },
  messages: [createUserMessage('run the tests')],
};
const bash = (command: string, extra: Partial<CanUseToolRequest> = {}): CanUseToolRequest =>
  corpusRequest('Bash', { command }, context, { isReadOnly: false, ...extra });

describe('parseClassifierAnswer', () => {
  it('accepts only the strict tiny JSON', () => {
    expect(parseClassifierAnswer('{"decision":"allow","reason":"runs the tests"}')).toEqual({
      behavior: 'allow',
      reason: 'runs the tests',
    });
    expect(parseClassifierAnswer(' {"decision":"ask","reason":"deletes files"}\n')).toEqual({
      behavior: 'ask',
      reason: 'deletes files',
    });
    for (const bad of [
      'allow',
      '```json\n{"decision":"allow","reason":"x"}\n```',
      '{"decision":"yes","reason":"x"}',
      '{"decision":"allow"}',
      '{"decision":"allow","reason":"x","extra":1}',
      '[]',
    ]) {
      expect(parseClassifierAnswer(bad).behavior).toBe('ask');
    }
  });
});

describe('auto mode with an injected classifier', () => {
  it('allows what the classifier allows, with its reason', async () => {
    const classifier = vi.fn<AutoClassifier>(async () => ({ behavior: 'allow', reason: 'runs the tests' }));
    const decision = await autoPipeline(classifier)(bash('npm test'));
    expect(decision).toEqual({
      behavior: 'allow',
      decisionReason: { type: 'classifier', reason: 'runs the tests' },
    });
    expect(classifier.mock.calls[0]?.[0]).toMatchObject({ toolName: 'Bash', userRequest: 'run the tests' });
  });

  it('asks when the classifier asks, fails or times out', async () => {
    const prompt = vi.fn<PermissionPrompt>(async () => ({ behavior: 'deny', message: 'no' }));
    await autoPipeline(async () => ({ behavior: 'ask', reason: 'unclear' }), prompt)(bash('npm test'));
    await autoPipeline(async () => Promise.reject(new Error('boom')), prompt)(bash('npm test'));
    expect(prompt.mock.calls.map(([r]) => r.message)).toEqual([
      expect.stringContaining('did not allow it: unclear'),
      expect.stringContaining('the classifier failed: boom'),
    ]);
    const never: AutoClassifier = () => new Promise(() => {});
    expect(
      await classifySafely(never, { toolName: 'Bash', action: 'ls', userRequest: '', signal: signal() }, 20),
    ).toEqual({
      behavior: 'ask',
      reason: 'the classifier timed out',
    });
  });

  it('never lets the classifier decide destructive commands or read what rules already allow', async () => {
    const classifier = vi.fn<AutoClassifier>(async () => ({ behavior: 'allow', reason: 'fine' }));
    const canUseTool = autoPipeline(classifier);
    expect((await canUseTool(bash('rm -rf build'))).behavior).toBe('deny');
    expect((await canUseTool(bash('ls'))).behavior).toBe('allow');
    expect(classifier).not.toHaveBeenCalled();
  });

  it('uses a speculative classification started before the hooks, and cancels it when unused', async () => {
    const classifier = vi.fn<AutoClassifier>(async () => ({ behavior: 'allow', reason: 'speculated' }));
    const canUseTool = autoPipeline(classifier);
    const call = bash('npm test');
    const speculative = canUseTool.startSpeculativeClassification?.({ ...call, signal: signal() });
    if (!speculative) throw new Error('a shell call in auto mode should start its classification');
    const decision = await canUseTool({ ...call, speculativeClassification: speculative });
    expect(decision.decisionReason).toEqual({ type: 'classifier', reason: 'speculated' });
    expect(classifier).toHaveBeenCalledOnce();
    expect(classifier.mock.calls[0]?.[0]).toMatchObject({ action: 'npm test', userRequest: 'run the tests' });
    const read = { tool: corpusTool('Read'), input: {}, context: call.context, signal: signal() };
    expect(canUseTool.startSpeculativeClassification?.(read)).toBeUndefined();
    // The call's own mode decides, not the session's: outside auto mode nothing starts.
    const inDefault: PermissionCallContext = {
      ...call.context,
      permissionContext: { ...call.context.permissionContext, mode: 'default' },
    };
    expect(
      canUseTool.startSpeculativeClassification?.({ ...call, context: inDefault, signal: signal() }),
    ).toBeUndefined();
  });
});

describe('the model classifier against the mock server', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  const ALLOW = '{"decision":"allow","reason":"runs the project tests"}';

  /** The session's side calls over the provider `selectModel` makes for this environment. */
  async function sessionSideCalls(env: Record<string, string>, fastModel?: string) {
    const selection = await selectModel({ env });
    const costs = new CostTracker();
    const sideCalls = createSideCallClient({
      provider: selection.provider,
      fastModel: () => fastModel ?? selection.model,
      usage: costs,
    });
    return { sideCalls, costs };
  }

  const judge = (classifier: AutoClassifier) =>
    classifySafely(classifier, {
      toolName: 'Bash',
      action: 'npm test',
      userRequest: 'run the tests',
      signal: signal(),
    });

  it('sends the action and the user request to the fast model on the session provider', async () => {
    const server = await startMockServer({
      scenario: [{ reply: { content: [{ type: 'text', text: ALLOW }] } }],
    });
    close = server.close;
    const { sideCalls, costs } = await sessionSideCalls(
      { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.url },
      'claude-haiku-5-5',
    );
    expect(await judge(createModelClassifier({ sideCalls }))).toEqual({
      behavior: 'allow',
      reason: 'runs the project tests',
    });
    const body = server.requests[0]?.body as { model: string; temperature: number };
    expect(server.requests[0]?.path).toBe('/v1/messages');
    expect(body.model).toBe('claude-haiku-5-5');
    expect(body.temperature).toBe(0);
    expect(JSON.stringify(body)).toContain('npm test');
    expect(JSON.stringify(body)).toContain('run the tests');
    expect(Object.keys(costs.byModel())).toEqual(['claude-haiku-5-5']);
  });

  it('retries once at most: a permission check does not wait through the session schedule', async () => {
    const server = await startMockServer({
      scenario: [{ fault: 500, repeat: 2 }, { reply: { content: [{ type: 'text', text: ALLOW }] } }],
    });
    close = server.close;
    const { sideCalls } = await sessionSideCalls({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url });
    const verdict = await judge(createModelClassifier({ sideCalls }));
    expect(verdict.behavior).toBe('ask');
    expect(verdict.reason).toMatch(/^the classifier failed: Internal server error \(mock fault\)/);
    expect(server.requests).toHaveLength(2);
  });
});
