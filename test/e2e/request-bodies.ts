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
