/**
 * Carrying out the user's answer about a `.mcp.json` server (the dialog's and the line mode's):
 * remembered for the folder and server, an approved server connected at once, a denied one turned
 * off for the session, and what happened said in the transcript.
 */
import type { Env } from '../../config/paths';
import type { McpManager } from '../../mcp/manager';
import { answerProjectServer } from '../../mcp/project-approval';
import type { ReplSession } from './repl-session';

export type PendingServer = {
  name: string;
  /** What would run: the command line, or the URL of a remote server. */
  what: string;
};

/** The command line or URL the server would run or reach, as the question shows it. */
export function describeServer(manager: McpManager, name: string): PendingServer {
  const config = manager.connection(name)?.server.config;
  if (!config) return { name, what: '(unknown)' };
  if (config.type === 'stdio') return { name, what: [config.command, ...config.args].join(' ') };
  return { name, what: `${config.type} ${config.url}` };
}

export type AnswerDeps = { manager: McpManager; session: ReplSession; env: Env; cwd: string };

export function answerServer(deps: AnswerDeps, name: string, approved: boolean): void {
  const { manager, session } = deps;
  void answerProjectServer(deps.env, deps.cwd, manager, name, approved).then(
    ({ problem }) => {
      if (problem) session.transcript.notice('warning', `The answer was not saved: ${problem}`);
      const status = manager.statuses().find((s) => s.name === name);
      if (approved && status && status.status !== 'connected' && status.error)
        session.transcript.notice('warning', `MCP server "${name}" ${status.status}: ${status.error}`);
    },
    (error: Error) => session.transcript.notice('error', `MCP server "${name}": ${error.message}`),
  );
  if (!approved) void manager.setEnabled(name, false).catch(() => {});
  session.transcript.notice(
    'info',
    approved
      ? `MCP server "${name}" approved; connecting.`
      : `MCP server "${name}" will not be started here.`,
  );
}
