/**
 * The auto-mode classifier: a small, fast model call that judges one tool call against the
 * user's latest request and answers with a strict tiny JSON object. It can only allow or hand
 * the call to a person — any error, timeout or answer that is not exactly the expected JSON is
 * an `ask`, so a broken or confused classifier fails closed.
 */
import type { SideCallClient } from '../model/side-call';
import type { ClassifierVerdict, SpeculativeClassification } from './types';

export type ClassifierRequest = {
  toolName: string;
  /** The tool's `toAutoClassifierInput(input)`: the compact text worth judging. */
  action: string;
  /** The user's latest request, so the classifier can tell whether the action serves it. */
  userRequest: string;
  signal: AbortSignal;
};

export type AutoClassifier = (request: ClassifierRequest) => Promise<ClassifierVerdict>;

export const CLASSIFIER_TIMEOUT_MS = 15_000;

const SYSTEM_PROMPT = [
  'You review one action a coding agent wants to take on the user’s machine.',
  'Reply with JSON only, exactly {"decision":"allow","reason":"..."} or {"decision":"ask","reason":"..."}, reason at most one short line.',
  'Choose allow only if the action plainly serves the user’s request, stays inside their project, and cannot destroy data, leak secrets, change system settings or run untrusted code.',
  'In every other case, or when unsure, choose ask.',
].join('\n');

const ask = (reason: string): ClassifierVerdict => ({ behavior: 'ask', reason });

/** Parses the classifier's answer; anything but `{"decision":"allow"|"ask","reason":string}` asks. */
export function parseClassifierAnswer(text: string): ClassifierVerdict {
  let value: unknown;
  try {
    value = JSON.parse(text.trim());
  } catch {
    return ask('the classifier gave no valid answer');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return ask('the classifier gave no valid answer');
  const { decision, reason, ...rest } = value as Record<string, unknown>;
  if (
    Object.keys(rest).length > 0 ||
    typeof reason !== 'string' ||
    (decision !== 'allow' && decision !== 'ask')
  )
    return ask('the classifier gave no valid answer');
  const line = (reason.split('\n')[0] ?? '').trim().slice(0, 200);
  return { behavior: decision, reason: line || 'no reason given' };
}

export type ModelClassifierOptions = {
  /** The session's side calls: its provider, its fast model, its cost tracker. */
  sideCalls: SideCallClient;
};

/** The classifier backed by the session's fast model, as one of its side calls. */
export function createModelClassifier(options: ModelClassifierOptions): AutoClassifier {
  return async ({ toolName, action, userRequest, signal }) => {
    const { text } = await options.sideCalls.complete(
      {
        purpose: 'classifier',
        system: [{ text: SYSTEM_PROMPT }],
        messages: [
          {
            role: 'user',
            content: `User request:\n${userRequest || '(none)'}\n\nAction: ${toolName}\n${action}`,
          },
        ],
        maxTokens: 200,
        temperature: 0,
        // A permission check must not wait through a long retry schedule.
        maxRetries: 1,
      },
      signal,
    );
    return parseClassifierAnswer(text);
  };
}

/** Runs a classifier with a deadline; every failure becomes an `ask` with the reason. */
export async function classifySafely(
  classifier: AutoClassifier,
  request: ClassifierRequest,
  timeoutMs = CLASSIFIER_TIMEOUT_MS,
): Promise<ClassifierVerdict> {
  const signal = AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)]);
  try {
    const verdict = await Promise.race([
      classifier({ ...request, signal }),
      new Promise<never>((_, reject) => {
        if (signal.aborted) reject(signal.reason);
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      }),
    ]);
    return verdict.behavior === 'allow' || verdict.behavior === 'ask'
      ? verdict
      : ask('the classifier gave no valid answer');
  } catch (error) {
    const timedOut = signal.aborted && !request.signal.aborted;
    return ask(
      timedOut
        ? 'the classifier timed out'
        : `the classifier failed: ${(error as Error)?.message ?? String(error)}`,
    );
  }
}

/**
 * Starts classifying now (the runner calls this before the PreToolUse hooks) so the answer is
 * ready, or nearly, when the pipeline needs it. `cancel()` stops the request when it is not.
 */
export function startSpeculativeClassification(
  classifier: AutoClassifier,
  request: ClassifierRequest,
  timeoutMs = CLASSIFIER_TIMEOUT_MS,
): SpeculativeClassification {
  const controller = new AbortController();
  const signal = AbortSignal.any([request.signal, controller.signal]);
  const result = classifySafely(classifier, { ...request, signal }, timeoutMs);
  return { result, cancel: () => controller.abort(new Error('classification not needed')) };
}
