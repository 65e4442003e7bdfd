/**
 * Writes whose files the line does not show because another program hands them over:
 * `… | xargs rm` removes, and `xargs cp y` overwrites, whatever its input names; `find -exec cp
 * y {} \;` writes each file found. The command `xargs` or `find` runs shows no file name, so an
 * Edit deny rule cannot be matched against one; while such a rule exists the call asks in every
 * mode, naming the rule. Calibrated (GNU findutils 4.9, bash 5.2, in a scratch project): each of
 * `echo x | xargs rm`, `xargs cp y <<< x`, `xargs -I{} cp y {} <<< x` and `find . -name x -exec
 * cp y {} \;` changed or removed `./x` under Edit(./x) in bypassPermissions.
 */
import { writtenPathArgs } from './shell-danger';
import type { ShellUnit } from './shell-unit';

const MARK = '\u0000input\u0000';

/** Whether `child` writes an argument its runner adds (`xargs`) or puts for `{}` (`-I{}`, `find -exec`). */
function writesHandedArgument(child: ShellUnit, appends: boolean): boolean {
  if (child.kind !== 'command' || child.name === undefined) return false;
  const args = child.argv.slice(1).map((word) => word.value);
  const placed = args.some((arg) => arg.includes('{}'));
  if (!placed && !appends) return false;
  const handed = placed ? args.map((arg) => arg.replaceAll('{}', MARK)) : [...args, MARK];
  return writtenPathArgs(child.name, handed).some((arg) => arg.includes(MARK));
}

/** Why the unit writes files only its input (or a search) names, or undefined. */
export function inputNamedWriteReason(unit: ShellUnit): string | undefined {
  if (unit.kind !== 'command') return undefined;
  const appends = unit.name === 'xargs';
  if (!appends && unit.name !== 'find') return undefined;
  const child = unit.children.find((c) => writesHandedArgument(c, appends));
  if (!child) return undefined;
  return appends
    ? `\`${child.text}\` writes the files xargs takes from its input, which the line does not show`
    : `\`${child.text}\` writes each file find finds, which the line does not show`;
}
