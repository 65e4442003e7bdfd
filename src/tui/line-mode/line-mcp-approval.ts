/**
 * The line mode's question about this folder's `.mcp.json` servers, once per folder and server at
 * start, as the full UI's dialog asks it: what would run, then y (start it), n (do not), or an
 * empty line to decide next time. Only a clear "y" starts a server.
 */
import { serversAwaitingApproval } from '../../mcp/project-approval';
import { type AnswerDeps, answerServer, describeServer } from '../session/project-server-answers';
import type { LineInput } from './line-input';

export async function askServersAsLines(
  deps: AnswerDeps,
  input: Pick<LineInput, 'ask'>,
  write: (text: string) => void,
): Promise<void> {
  for (const name of serversAwaitingApproval(deps.manager)) {
    const { what } = describeServer(deps.manager, name);
    write(`\nThis folder's .mcp.json asks Yoke to start the MCP server "${name}":\n  ${what}\n`);
    const answer = (await input.ask('Start it? y = yes, n = no (both remembered), Enter = ask next time: '))
      ?.trim()
      .toLowerCase();
    if (answer === 'y' || answer === 'yes') answerServer(deps, name, true);
    else if (answer === 'n' || answer === 'no') answerServer(deps, name, false);
    else write(`  "${name}" stays off; Yoke asks again next time.\n`);
  }
}
