/**
 * What a turn's input step reports while it runs (a forked command's worker: its task frames
 * and messages), turned into frames as it arrives rather than after the step: the step is
 * awaited, and the turn's generator yields the progress in between.
 */
import type { ToolProgress } from '../tools/tool';
import type { SDKMessage } from './sdk-messages';
import type { TurnConverter } from './turn-converter';

/** Runs `work`, yielding each progress it reports as it comes; returns what `work` returns. */
export async function* whileReporting<T>(
  work: (onProgress: (progress: ToolProgress) => void) => Promise<T>,
): AsyncGenerator<ToolProgress, T> {
  const buffered: ToolProgress[] = [];
  let wake: (() => void) | undefined;
  let settled = false;
  const running = work((progress) => {
    buffered.push(progress);
    wake?.();
  });
  // Whatever it throws is rethrown by the `await` below, after the progress before it.
  running
    .then(
      () => undefined,
      () => undefined,
    )
    .finally(() => {
      settled = true;
      wake?.();
    });
  while (true) {
    for (let next = buffered.shift(); next; next = buffered.shift()) yield next;
    if (settled) return await running;
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
    wake = undefined;
  }
}

/** `whileReporting`, with the progress converted to frames (as the Skill tool's would be). */
export async function* inputWithFrames<T>(
  converter: TurnConverter,
  work: (onProgress: (progress: ToolProgress) => void) => Promise<T>,
): AsyncGenerator<SDKMessage, T> {
  const reporting = whileReporting(work);
  for (let step = await reporting.next(); ; step = await reporting.next()) {
    if (step.done) return step.value;
    yield* converter.convert({ type: 'tool_progress', progress: step.value, toolName: 'Skill' });
  }
}
