/**
 * At the REPL's start: the `.mcp.json` servers of this folder that wait for the user's approval
 * (mcp/project-approval.ts) are asked about one by one. The answer is remembered for the folder
 * and server; an approved server connects at once in the running session (its tools join at the
 * next turn), a denied one is turned off for the session. Esc leaves it for the next start.
 */
import { createElement } from 'react';
import type { Env } from '../../config/paths';
import type { McpManager } from '../../mcp/manager';
import { answerProjectServer, serversAwaitingApproval } from '../../mcp/project-approval';
import { McpApprovalDialog, type PendingServer } from '../views/mcp-approval-dialog';
import type { ReplSession } from './repl-session';
import type { ScreenExtras } from './screen-extras';

/** The command line or URL the server would run or reach, as the dialog shows it. */
export function describeServer(manager: McpManager, name: string): PendingServer {
  const config = manager.connection(name)?.server.config;
  if (!config) return { name, what: '(unknown)' };
  if (config.type === 'stdio') return { name, what: [config.command, ...config.args].join(' ') };
  return { name, what: `${config.type} ${config.url}` };
}

export function askProjectServers(deps: {
  extras: ScreenExtras;
  manager: McpManager;
  session: ReplSession;
  env: Env;
  cwd: string;
}): void {
  const { extras, manager, session } = deps;
  const waiting = serversAwaitingApproval(manager);
  const answer = (name: string, approved: boolean) => {
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
  };
  const ask = (index: number) => {
    const name = waiting[index];
    if (name === undefined) {
      extras.close();
      return;
    }
    extras.show(
      createElement(McpApprovalDialog, {
        key: name,
        server: describeServer(manager, name),
        remaining: waiting.length - index - 1,
        onAnswer: (choice) => {
          if (choice === 'approve-all') {
            for (const rest of waiting.slice(index)) answer(rest, true);
            extras.close();
            return;
          }
          if (choice === 'later')
            session.transcript.notice('info', `MCP server "${name}" stays off; Yoke asks again next time.`);
          else answer(name, choice === 'approve');
          ask(index + 1);
        },
      }),
    );
  };
  ask(0);
}
