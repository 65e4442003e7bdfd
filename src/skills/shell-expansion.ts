/**
 * `!`command`` in a command body: at a line's start or after whitespace, the command runs before
 * the prompt is sent and its output takes its place; a fence opened with ```` ```! ```` runs its
 * lines the same way (compat-surface §5). Running is the caller's `run`, which goes through the
 * Bash tool and the permission pipeline (shell-runner.ts); a refusal fails the whole expansion.
 */

const INLINE = /(^|[ \t])!`([^`\n]+)`/gm;
const FENCE = /^```![ \t]*\r?\n([\s\S]*?)\r?\n```[ \t]*$/gm;

export type ShellRun = (command: string) => Promise<string>;

/** The commands a body would run, in order (for tests and for the trust notice). */
export function shellCommandsIn(body: string): string[] {
  const out: string[] = [];
  for (const match of body.matchAll(FENCE)) out.push((match[1] as string).trim());
  for (const match of body.replace(FENCE, '').matchAll(INLINE)) out.push((match[2] as string).trim());
  return out;
}

export async function expandShellCommands(body: string, run: ShellRun): Promise<string> {
  let out = '';
  let last = 0;
  // Fences first, one at a time and in order: a later command may depend on an earlier one's effect.
  for (const match of body.matchAll(FENCE)) {
    out += body.slice(last, match.index);
    out += (await run((match[1] as string).trim())).trimEnd();
    last = (match.index as number) + match[0].length;
  }
  const rest = out + body.slice(last);
  let result = '';
  last = 0;
  for (const match of rest.matchAll(INLINE)) {
    const lead = match[1] as string;
    result += rest.slice(last, match.index) + lead;
    result += (await run((match[2] as string).trim())).trimEnd();
    last = (match.index as number) + match[0].length;
  }
  return result + rest.slice(last);
}
