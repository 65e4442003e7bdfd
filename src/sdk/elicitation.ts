/**
 * An MCP server's `elicitation/create` question goes to the SDK host as an `elicitation` control
 * request (agent-sdk-protocol §5.8), answered by its `onElicitation` callback; a host without one
 * answers `decline`. An answer that is not one of the protocol's three actions is read as a
 * decline, so a confused host never accepts on the user's behalf.
 */
import { isJsonObject } from '../lib/json-object';
import type { McpElicitationAnswer, McpElicitationHandler } from '../mcp/mcp-types';
import type { ControlChannel } from './control-channel';
import type { JsonObject } from './ndjson';

const ACTIONS = new Set(['accept', 'decline', 'cancel']);

export function hostElicitation(channel: ControlChannel): McpElicitationHandler {
  return async (question, signal) => {
    const request: { subtype: string } & JsonObject = {
      subtype: 'elicitation',
      mcp_server_name: question.server,
      message: question.message,
      mode: question.mode,
    };
    if (question.requestedSchema) request.requested_schema = question.requestedSchema as JsonObject;
    if (question.url) request.url = question.url;
    if (question.elicitationId) request.elicitation_id = question.elicitationId;
    let answer: JsonObject;
    try {
      answer = await channel.request(request, signal);
    } catch (error) {
      // The server's request was withdrawn: let the SDK report that, not a made-up answer.
      if (signal.aborted) throw error;
      return { action: 'decline' };
    }
    return toAnswer(answer);
  };
}

function toAnswer(answer: JsonObject): McpElicitationAnswer {
  const action = answer.action;
  if (typeof action !== 'string' || !ACTIONS.has(action)) return { action: 'decline' };
  if (action !== 'accept') return { action: action as 'decline' | 'cancel' };
  return { action: 'accept', content: isJsonObject(answer.content) ? answer.content : {} };
}
