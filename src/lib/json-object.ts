/**
 * A JSON object — not null, not an array — as read from anything Yoke did not write itself:
 * settings, state files, hook output, transcripts, the SDK host's messages, a model's tool input.
 */
export type JsonObject = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
