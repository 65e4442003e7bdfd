/**
 * The Anthropic API's rules for deferred tools (`defer_loading`) and `tool_reference` results,
 * as the mock server enforces them, so a test fails where the real API would refuse the request:
 * - a `tool_reference` must name a tool the request offers with `defer_loading: true`;
 * - at least one tool must be offered without `defer_loading`;
 * - the model only sees a deferred tool where a reference expands it, so a scripted reply that
 *   calls a deferred tool no reference has loaded is refused: the real model could not make it.
 */
import { isJsonObject, type JsonObject } from '../../lib/json-object';
import type { AssistantContentBlock } from '../../model/types';

type Tools = { deferred: Set<string>; eager: number };

function toolsOf(body: JsonObject): Tools {
  const tools = Array.isArray(body.tools) ? body.tools.filter(isJsonObject) : [];
  const deferred = new Set<string>();
  let eager = 0;
  for (const tool of tools) {
    if (tool.defer_loading === true && typeof tool.name === 'string') deferred.add(tool.name);
    else eager++;
  }
  return { deferred, eager };
}

/** Every `tool_reference` in the tool results of the messages, with its path in the API's notation. */
function referencesOf(body: JsonObject): Array<{ name: string; path: string }> {
  const found: Array<{ name: string; path: string }> = [];
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (const [i, message] of messages.entries()) {
    if (!isJsonObject(message) || !Array.isArray(message.content)) continue;
    for (const [j, block] of message.content.entries()) {
      if (!isJsonObject(block) || block.type !== 'tool_result' || !Array.isArray(block.content)) continue;
      for (const [k, inner] of block.content.entries()) {
        if (isJsonObject(inner) && inner.type === 'tool_reference') {
          found.push({ name: String(inner.tool_name), path: `messages.${i}.content.${j}.content.${k}` });
        }
      }
    }
  }
  return found;
}

/** Why the API would refuse this request's deferred tools, or undefined when it would not. */
export function deferredToolsProblem(body: JsonObject): string | undefined {
  const tools = toolsOf(body);
  if (tools.deferred.size > 0 && tools.eager === 0) {
    return 'tools: at least one tool must be sent without defer_loading (mock server)';
  }
  for (const reference of referencesOf(body)) {
    if (!tools.deferred.has(reference.name)) {
      return (
        `${reference.path}: tool_reference names "${reference.name}", which the request does not offer ` +
        'with defer_loading: true (mock server)'
      );
    }
  }
  return undefined;
}

/** The scripted calls a real model could not make: deferred tools that no reference loaded. */
export function unloadedDeferredCall(
  body: JsonObject,
  content: readonly AssistantContentBlock[],
): string | undefined {
  const { deferred } = toolsOf(body);
  if (deferred.size === 0) return undefined;
  const loaded = new Set(referencesOf(body).map((reference) => reference.name));
  const call = content.find(
    (block) => block.type === 'tool_use' && deferred.has(block.name) && !loaded.has(block.name),
  );
  if (call?.type !== 'tool_use') return undefined;
  return (
    `mock scenario: the reply calls ${call.name}, a deferred tool (defer_loading) that no tool_reference ` +
    'in the request has loaded, so the model could not see its schema'
  );
}
