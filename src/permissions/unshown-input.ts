/**
 * Units whose "always allow" rule would allow more than the person was shown. A rule is the
 * unit's text, and that text leaves out what the unit reads on its input: a here-document's or
 * here-string's body, a file given with `<`, what a pipe hands it. For most commands that input
 * is data; for one that runs its input as code (`python3 - <<EOF`, `… | sh`, `node < x.js`) or
 * takes its arguments from it (`… | xargs rm`), the rule `Bash(python3)` would go on to allow any
 * code, `Bash(xargs rm)` any file. Such units are offered no rule: each run asks again.
 * (Calibrated by decision: under `Bash(python3)`, `python3 <<EOF` with other code was allowed,
 * and under `Bash(sh)`, `echo "rm -rf ~" | sh`.)
 */
import { codeRunReason } from './code-runners';
import type { ShellUnit } from './shell-unit';

const INPUT_REDIRECTS: ReadonlySet<string> = new Set(['read', 'read-write', 'heredoc', 'herestring']);

export function takesUnshownInput(unit: ShellUnit): boolean {
  // A shell reading its input, a script file, code only known at run time.
  if (unit.hiddenCode) return true;
  if (unit.name === 'xargs') return true;
  if (codeRunReason(unit) === undefined) return false;
  if (unit.redirects.some((redirect) => INPUT_REDIRECTS.has(redirect.kind))) return true;
  // No script or code argument (`python3`, `node -`): the code comes from a pipe or the terminal.
  const operands = unit.argv.slice(1).filter((word) => !word.value.startsWith('-') || word.value === '-');
  return operands.length === 0 || operands.some((word) => word.value === '-');
}
