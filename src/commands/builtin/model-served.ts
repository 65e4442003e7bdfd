/**
 * /model against an OpenAI-compatible server's own list (`GET <base>/models`). Ollama, vLLM,
 * llama.cpp and LM Studio serve models Yoke's table has never heard of; the list the server gives
 * is the truth of what `/model <id>` can switch to, so /model shows it and accepts its ids without
 * a `models` declaration in settings. The server is asked each time (a model pulled meanwhile
 * shows up), under a short deadline: a server that does not answer gets one line saying so, and
 * /model falls back to the models Yoke knows.
 */
import type { CommandHost } from '../types';

/** How long /model waits for the list before it says the server did not answer. */
export const SERVER_LIST_DEADLINE_MS = 5_000;

/** How many served ids /model shows before "and N more". */
const SHOWN = 40;

/** The server's ids, or the sentence saying why there are none to show. */
export type ServerList = { url: string; ids: string[] } | { url: string; unavailable: string };

/** Asks the session's server for its models; undefined where the provider has no such list. */
export async function askServer(host: CommandHost): Promise<ServerList | undefined> {
  if (!host.servedModels) return undefined;
  const deadline = AbortSignal.timeout(SERVER_LIST_DEADLINE_MS);
  const signal = AbortSignal.any([host.signal, deadline]);
  let answer: Awaited<ReturnType<NonNullable<CommandHost['servedModels']>>>;
  try {
    answer = await host.servedModels(signal);
  } catch (error) {
    return { url: '', unavailable: (error as Error).message };
  }
  const { url, served } = answer;
  // An aborted fetch reads as a connection failure; the deadline is the truer reason.
  if (deadline.aborted) {
    return { url, unavailable: `GET ${url} had no answer within ${SERVER_LIST_DEADLINE_MS / 1000} s` };
  }
  if ('ids' in served) return { url, ids: [...new Set(served.ids)] };
  if ('failure' in served) return { url, unavailable: `GET ${url}: ${served.failure}` };
  return { url, unavailable: served.requestFailure };
}

/**
 * The lines for the server's list: each id it serves (the one in use starred, a priced one with its
 * price), then the models the settings declare that it does not list (a request for one would fail).
 */
export function servedListLines(
  list: { url: string; ids: string[] },
  current: string,
  declared: readonly string[],
  priceOf: (id: string) => string | undefined,
): string[] {
  if (list.ids.length === 0) {
    return [`The server (GET ${list.url}) lists no models: load or pull one (Ollama: ollama pull <model>).`];
  }
  const lines = [`Served by the server (GET ${list.url}):`];
  for (const id of list.ids.slice(0, SHOWN)) {
    const price = priceOf(id);
    lines.push(`  ${id === current ? '*' : ' '} ${id}${price ? `  ${price}` : ''}`);
  }
  if (list.ids.length > SHOWN) lines.push(`    … and ${list.ids.length - SHOWN} more`);
  const missing = declared.filter((id) => !list.ids.includes(id));
  if (!list.ids.includes(current) && !missing.includes(current)) {
    lines.push(`  * ${current}  (in use; the server does not list it)`);
  }
  for (const id of missing) {
    lines.push(`  ${id === current ? '*' : ' '} ${id}  (declared in settings; the server does not list it)`);
  }
  return lines;
}

/**
 * The id the server lists for what was typed: the same, or Ollama's `:latest` tag of it (Ollama
 * lists `llama3.2:latest` and serves it as `llama3.2` too).
 */
export function servedId(ids: readonly string[], typed: string): string | undefined {
  return ids.find((id) => id === typed) ?? ids.find((id) => id === `${typed}:latest`);
}

/** /model <id> for an id the server does not serve: what it does serve, the close ones first. */
export function notServedText(typed: string, list: { url: string; ids: string[] }, close: string[]): string {
  if (list.ids.length === 0) {
    return `The server (GET ${list.url}) lists no models, so it cannot serve "${typed}": load or pull it first (Ollama: ollama pull ${typed}).`;
  }
  const hint = close.length > 0 ? ` Did you mean ${close.join(', ')}?` : '';
  const shown = list.ids.slice(0, 8).join(', ');
  const more = list.ids.length > 8 ? ` and ${list.ids.length - 8} more (/model lists them)` : '';
  return `The server (GET ${list.url}) does not serve "${typed}".${hint} It serves ${shown}${more}.`;
}
