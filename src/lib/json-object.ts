/**
 * A JSON object — not null, not an array — as read from anything Yoke did not write itself:
 * settings, state files, hook output, transcripts, the SDK host's messages, a model's tool input.
 */
export type JsonObject = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The object a JSON text holds; undefined when the text is not JSON or holds something else. */
export function parseJsonObject(text: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
