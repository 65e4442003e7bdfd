/**
 * `@server:uri` in a prompt: the resource is read from that MCP server and its text given to the
 * model with the prompt, as `@file` mentions give a file. Only names of connected servers with
 * resources count, so an e-mail address or a `@scope:thing` in prose is left alone.
 */
import type { McpManager } from './manager';

// Start of text or whitespace before `@`, so `me@host:8080` is not a mention.
const MENTION = /(?:^|\s)@([A-Za-z0-9_.-]+):(\S+)/g;
/** Resource text beyond this is cut, with a note: a mention must not flood the context. */
const MAX_CHARS = 100_000;

export async function resourceMentions(
  manager: McpManager,
  prompt: string,
  signal: AbortSignal,
): Promise<string[]> {
  const servers = new Map(manager.resourceServers().map((c) => [c.name, c]));
  const seen = new Set<string>();
  const out: string[] = [];
  for (const [, server, rawUri] of prompt.matchAll(MENTION)) {
    const connection = servers.get(server as string);
    // Sentence punctuation after the URI belongs to the prose.
    const uri = (rawUri as string).replace(/[.,;:!?)\]}'"]+$/, '');
    const key = `${server}:${uri}`;
    if (!connection || seen.has(key)) continue;
    seen.add(key);
    try {
      const contents = await connection.readResource(uri, signal);
      const parts = contents.map((item) => {
        if ('text' in item && typeof item.text === 'string') {
          const text =
            item.text.length > MAX_CHARS
              ? `${item.text.slice(0, MAX_CHARS)}\n[… cut at ${MAX_CHARS} characters]`
              : item.text;
          return text;
        }
        return `[binary contents (${item.mimeType ?? 'unknown type'}); read it with ReadMcpResourceTool]`;
      });
      out.push(`The user mentioned @${key}; its contents from MCP server "${server}":\n${parts.join('\n')}`);
    } catch (error) {
      out.push(
        `The user mentioned @${key}, but reading it from MCP server "${server}" failed: ${(error as Error).message}`,
      );
    }
  }
  return out;
}
