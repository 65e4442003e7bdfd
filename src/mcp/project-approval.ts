/**
 * The user's answer about one `.mcp.json` server of one folder, remembered in Yoke's user state
 * (`projects[<folder>].enabledMcpjsonServers` / `disabledMcpjsonServers`, the keys Claude Code
 * uses in its own file) so the question comes once per folder and server. The REPL's approval
 * dialog calls `serversAwaitingApproval` and `answerProjectServer`; config-sources.ts reads the
 * answers back in later sessions.
 */
import { projectEntry, updateUserState } from '../config/user-state';
import { AWAITING_APPROVAL } from './config-sources';
import type { McpManager } from './manager';

type Env = Readonly<Record<string, string | undefined>>;

export async function recordProjectServerChoice(
  env: Env,
  cwd: string,
  server: string,
  approved: boolean,
): Promise<{ problem?: string }> {
  return updateUserState(env, (state) => {
    const entry = projectEntry(state, cwd);
    const keep = approved ? 'enabledMcpjsonServers' : 'disabledMcpjsonServers';
    const drop = approved ? 'disabledMcpjsonServers' : 'enabledMcpjsonServers';
    const list = (key: string) => (Array.isArray(entry[key]) ? (entry[key] as unknown[]) : []);
    entry[drop] = list(drop).filter((name) => name !== server);
    entry[keep] = [...new Set([...list(keep), server])];
  });
}

/** The `.mcp.json` servers of a session that wait for the user's answer (what the REPL asks about). */
export function serversAwaitingApproval(manager: McpManager): string[] {
  return manager
    .statuses()
    .filter((s) => s.source === 'project' && s.status === 'disabled' && s.error === AWAITING_APPROVAL)
    .map((s) => s.name);
}

/**
 * The REPL's answer to "start this project server?": remembered for this folder, and an approved
 * server starts at once in the running session (its tools join at the next turn).
 */
export async function answerProjectServer(
  env: Env,
  cwd: string,
  manager: McpManager,
  server: string,
  approved: boolean,
): Promise<{ problem?: string }> {
  const recorded = await recordProjectServerChoice(env, cwd, server, approved);
  if (approved) await manager.setEnabled(server, true);
  return recorded;
}
