/**
 * Lets the transcript record tool results the context pipeline replaced (budgeted or cleared),
 * before the model call that uses them, so a resumed session sends exactly the same content.
 */
import type { TranscriptSink } from '../session/transcript-writer';
import type { ContextPipeline } from './query-types';

export function withTranscriptSync(
  transcript: TranscriptSink | undefined,
  pipeline: ContextPipeline | undefined,
): ContextPipeline | undefined {
  if (!pipeline || !transcript?.syncContent) return pipeline;
  return async (input) => {
    const result = await pipeline(input);
    transcript.syncContent?.(result.messages);
    return result;
  };
}
