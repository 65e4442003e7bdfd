/**
 * The user's answer about one `.mcp.json` server of one folder, remembered in Yoke's user state
 * (`projects[<folder>].enabledMcpjsonServers` / `disabledMcpjsonServers`, the keys Claude Code
 * uses in its own file) so the question comes once per folder and server. The REPL's approval
 * dialog calls this; config-sources.ts reads it back.
 */
import { projectEntry, updateUserState } from '../config/user-state';

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
