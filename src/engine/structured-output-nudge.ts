/**
 * What the loop says to a model that ends its turn without calling StructuredOutput
 * (`--json-schema`), and how often. Apart from structured-output.ts, which loads classic zod, so
 * the loop can import it on every turn.
 */
import { createUserMessage, type UserMessage } from '../session/messages';

/** Reminders before the turn ends with `structured_output_retry_exhausted`. */
export const MAX_STRUCTURED_OUTPUT_NUDGES = 2;

export const STRUCTURED_OUTPUT_MISSING_TEXT =
  'The model did not provide structured output matching the schema.';

export function structuredOutputNudge(): UserMessage {
  return createUserMessage(
    'You have not called the StructuredOutput tool yet. Call it now with your final answer; it is the only way to finish.',
    { isMeta: true },
  );
}
