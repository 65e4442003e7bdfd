/**
 * The permission pipeline's question (permissions/messages.ts askMessage) in the pieces the
 * dialog shows apart: the question, the reasons the call needs approval (one per segment or
 * path), and the warnings (destructive commands).
 */
export type PermissionMessageParts = {
  question: string;
  reasons: string[];
  warnings: string[];
  other: string[];
};

export function splitPermissionMessage(message: string): PermissionMessageParts {
  const parts: PermissionMessageParts = { question: '', reasons: [], warnings: [], other: [] };
  // Sentences end in '.' or '?' followed by a space and a capital letter.
  const sentences = message.split(/(?<=[.?])\s+(?=[A-Z])/);
  for (const sentence of sentences) {
    if (!parts.question && sentence.endsWith('?')) parts.question = sentence;
    else if (sentence.startsWith('Needs approval:')) {
      const body = sentence.slice('Needs approval:'.length).trim().replace(/\.$/, '');
      parts.reasons.push(...body.split(/;\s+/).filter(Boolean));
    } else if (sentence.startsWith('Warning:')) {
      parts.warnings.push(sentence.slice('Warning:'.length).trim().replace(/\.$/, ''));
    } else parts.other.push(sentence);
  }
  return parts;
}
