/**
 * At the REPL's start: the `.mcp.json` servers of this folder that wait for the user's approval
 * (mcp/project-approval.ts) are asked about one by one. The answer is remembered for the folder
 * and server; an approved server connects at once in the running session (its tools join at the
 * next turn), a denied one is turned off for the session. Esc leaves it for the next start.
 */
import { createElement } from 'react';
import type { Env } from '../../config/paths';
import type { McpManager } from '../../mcp/manager';
import { serversAwaitingApproval } from '../../mcp/project-approval';
import { McpApprovalDialog } from '../views/mcp-approval-dialog';
import { answerServer, describeServer } from './project-server-answers';
import type { ReplSession } from './repl-session';
import type { ScreenExtras } from './screen-extras';

export function askProjectServers(deps: {
  extras: ScreenExtras;
  manager: McpManager;
  session: ReplSession;
  env: Env;
  cwd: string;
}): void {
  const { extras, manager, session } = deps;
  const waiting = serversAwaitingApproval(manager);
  const answer = (name: string, approved: boolean) =>
    answerServer({ manager, session, env: deps.env, cwd: deps.cwd }, name, approved);
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
