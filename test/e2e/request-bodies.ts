/**
 * Reading the requests the mock model server recorded, as the agent e2e tests do: which system
 * prompt and which tools each conversation's requests carried.
 */
import type { MockServer } from '../../src/testing/mock-server';

export type RequestBody = {
  system?: string | { text: string }[];
  messages: { role: string; content: unknown }[];
  tools?: { name: string }[];
};

export const bodies = (s: MockServer) => s.requests.map((request) => request.body as RequestBody);
export const systemText = (body: RequestBody) =>
  typeof body.system === 'string' ? body.system : (body.system ?? []).map((part) => part.text).join('\n');
export const toolNames = (body: RequestBody) => (body.tools ?? []).map((tool) => tool.name);

/** The text of a tool call's tool_result, from the last request that carries it. */
export function toolResultOf(s: MockServer, toolUseId: string): { text: string; isError: boolean } {
  for (const body of bodies(s).reverse()) {
    for (const message of body.messages) {
      if (!Array.isArray(message.content)) continue;
      for (const block of message.content as {
        type: string;
        tool_use_id?: string;
        content?: unknown;
        is_error?: boolean;
      }[]) {
        if (block.type !== 'tool_result' || block.tool_use_id !== toolUseId) continue;
        const content = block.content;
        const text =
          typeof content === 'string'
            ? content
            : (content as { text?: string }[]).map((part) => part.text ?? '').join('\n');
        return { text, isError: block.is_error === true };
      }
    }
  }
  throw new Error(`no tool_result for ${toolUseId}`);
}
