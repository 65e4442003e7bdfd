/**
 * The protected files an MCP call may write. A server's tool schema does not say which arguments
 * are files, and a filesystem server writes wherever its `path` (or `destination`, or an entry of
 * `paths`) points: so every short one-line string in the arguments of a call that may write is
 * taken as a path from the working directory, and one that names a protected file makes the call
 * ask as Write would — a server-wide allow rule (`mcp__fs`) names no file, so it does not lift it.
 * The same strings meet the Read and Edit deny rules (tool-rules.ts).
 */
import type { EvaluationEnv } from './evaluation';
import { resolveUserPath } from './path-rules';
import type { ProtectedWrite } from './protected-paths';
import { protectedFileWrite } from './protected-writes';
import type { RealPath } from './real-paths';

/** Bounds on what is looked at: beyond them the call cannot be checked, and asks. */
const MAX_STRINGS = 256;
const MAX_DEPTH = 6;
const MAX_PATH_LENGTH = 4096;

/** The strings of `value` that could be paths (one line, not too long); undefined past the bounds. */
export function pathLikeStrings(value: unknown, depth = 0, out: string[] = []): string[] | undefined {
  if (typeof value === 'string') {
    if (value !== '' && value.length <= MAX_PATH_LENGTH && !/[\n\r\0]/.test(value)) out.push(value);
    return out.length > MAX_STRINGS ? undefined : out;
  }
  if (typeof value !== 'object' || value === null) return out;
  if (depth >= MAX_DEPTH) return undefined;
  for (const item of Array.isArray(value) ? value : Object.values(value)) {
    if (pathLikeStrings(item, depth + 1, out) === undefined) return undefined;
  }
  return out;
}

/** A protected file the call may write, with its absolute path (for the rule that would lift it). */
export type McpProtectedWrite = { write: ProtectedWrite; path?: string };

export function mcpProtectedWrites(
  toolName: string,
  input: Record<string, unknown>,
  env: EvaluationEnv,
  resolve: (path: string) => RealPath | undefined,
): McpProtectedWrite[] {
  const strings = pathLikeStrings(input);
  if (strings === undefined) {
    const reason = `${toolName}'s arguments are too many or too deep to check for protected files`;
    return [{ write: { target: toolName, reason } }];
  }
  const found: McpProtectedWrite[] = [];
  for (const text of new Set(strings)) {
    const path = resolveUserPath(text, env.roots.cwd, env.roots.home);
    const write = protectedFileWrite(path, env, false, resolve(path));
    if (write && !found.some((f) => f.write.target === write.target)) found.push({ write, path });
  }
  return found;
}
