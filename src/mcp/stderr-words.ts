/**
 * The line of a stdio MCP server's stderr that says why it stopped. The last line is usually it,
 * but a server started through `npx` (as most READMEs show) ends its stderr with npm's own
 * chatter: `npm notice New minor version of npm available…`, `npm warn exec …`. Those lines say
 * nothing about the server, so they are passed over; of the rest, the last line that reads as an
 * error wins over a later one that does not (a farewell after the error).
 */

/** Lines npm (or npx) writes about itself, never about the server it runs. */
const WRAPPER_CHATTER = /^npm (notice|warn|WARN)\b/;

const ERROR_WORDS = /\b(error|fatal|cannot|can't|not found|no such|denied|failed|refused|invalid|missing)\b/i;

export function stderrLastWords(stderrTail: string): string | undefined {
  const lines = stderrTail
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const own = lines.filter((line) => !WRAPPER_CHATTER.test(line));
  const chosen = own.findLast((line) => ERROR_WORDS.test(line)) ?? own.at(-1) ?? lines.at(-1);
  return chosen?.slice(0, 300);
}
